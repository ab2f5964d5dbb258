import type { groups as definition, InputsOf, OutputsOf } from "../../api/kinds";
import { FailedPreconditionError } from "../../client/errors";
import { noteGroupCreated } from "./newGroups";
import { providerFor } from "./provider";
import { type CommonInputs, type KindSpec } from "./spec";
import { factsOf } from "./facts";

/** What a group still holds, from the API's refusal to delete it (`1 child group`, ...), or undefined. */
function heldBy(err: unknown): string[] | undefined {
  if (!(err instanceof FailedPreconditionError)) return undefined;
  const held = err.violations
    .filter((v) => v.type === "RESOURCE_NOT_EMPTY")
    .map((v) => v.description.replace(/^.*?\b(has|contains|holds)\s+/i, ""));
  return held.length ? held : undefined;
}

/** Inputs of a Group, as its definition (api/kinds) types them. */
export type GroupInputs = CommonInputs & InputsOf<typeof definition>;
/** Outputs of a Group: the inputs as they are live, and the API's fields. */
export type GroupOutputs = CommonInputs & OutputsOf<typeof definition>;

const spec: KindSpec<"groups"> = {
  ...factsOf("groups"),
  created: (g) => noteGroupCreated(g.uid),
  heldBy: (err) => heldBy(err)?.join(", "),
  deleteError(err, props) {
    const held = heldBy(err);
    if (!held) return undefined;
    const who = props.name ? `group ${props.name} (${props.uid})` : `group ${props.uid}`;
    return new Error(`${who} still contains ${held.join(", ")}: delete or move them first`, { cause: err });
  },
};

/** The provider of `iam.Group`. */
export const groups = providerFor<"groups", GroupInputs, GroupOutputs>(spec);
/** The kind's spec (fields, mapping), for tests and adoption tooling. */
export const groupSpec = spec;
