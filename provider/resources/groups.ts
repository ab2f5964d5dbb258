import { FailedPreconditionError } from "../../client/errors";
import { noteGroupCreated } from "./recent-groups";
import { type Inputs, type Outputs, type KindSpec } from "./spec";
import { factsOf } from "./facts";

/**
 * What a group still holds, from the API's refusal to delete it: the RESOURCE_NOT_EMPTY
 * violations (`1 child group`, ...) when it sends them; else, for a FAILED_PRECONDITION without
 * them (the platform need not send the detail), its message. Undefined for any other error.
 */
function heldBy(err: unknown): { held: string[]; counted: boolean } | undefined {
  if (!(err instanceof FailedPreconditionError)) return undefined;
  const held = err.violations.filter((v) => v.type === "RESOURCE_NOT_EMPTY").map((v) => v.description.replace(/^.*?\b(has|contains|holds)\s+/i, ""));
  if (held.length) return { held, counted: true };
  return err.violations.length ? undefined : { held: [err.apiMessage.replace(/^Failed precondition:\s*/i, "")], counted: false };
}

/** Inputs of a Group, as its definition (api/kinds) types them. */
export type GroupInputs = Inputs<"groups">;
/** Outputs of a Group: the inputs as they are live, and the API's fields. */
export type GroupOutputs = Outputs<"groups">;

const spec = (): KindSpec<"groups"> => ({
  ...factsOf("groups"),
  created: (g) => noteGroupCreated(g.uid),
  heldBy(err) {
    const h = heldBy(err);
    return h && { what: h.held.join(", "), counted: h.counted };
  },
  deleteError(err, props) {
    const h = heldBy(err);
    if (!h) return undefined;
    const who = props.name ? `group ${props.name} (${props.uid})` : `group ${props.uid}`;
    if (!h.counted) return new Error(`${who} could not be deleted (${h.held[0]}): if it still holds anything, delete or move it first`, { cause: err });
    return new Error(`${who} still contains ${h.held.join(", ")}: delete or move them first`, { cause: err });
  },
});

/** The kind's spec (fields, mapping), made on each call (./index.ts `specs` makes it once, on first use). */
export const groupSpec = spec;
