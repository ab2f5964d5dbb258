import { GroupCreate } from "../../api/bodies";
import { parentOf } from "../../api/uid";
import { FailedPreconditionError } from "../../client/errors";
import type { dynamic } from "@pulumi/pulumi";
import { findCreated } from "./create";
import { noteGroupCreated } from "./newGroups";
import { providerFor } from "./provider";
import { type CommonInputs, type KindSpec } from "./spec";
import { factsOf } from "./facts";

/** Inputs of a group. */
export interface GroupInputs extends CommonInputs {
  /** The parent group's uid; changing it replaces the group. */
  parentUid: string;
  /** Name: `^[a-z0-9 ._-]{1,}$`. */
  name: string;
  /** Free text; omitted means "". */
  description?: string;
}

/** Outputs of a group: the inputs as they are live, plus the API's fields. */
export interface GroupOutputs extends GroupInputs {
  uid: string;
  description: string;
  resourceLimits: Record<string, unknown>;
  verified: boolean;
  createTime: string;
  updateTime: string;
}

/** What a group still holds, from the API's refusal to delete it (`1 child group`, ...), or undefined. */
function heldBy(err: unknown): string[] | undefined {
  if (!(err instanceof FailedPreconditionError)) return undefined;
  const held = err.violations
    .filter((v) => v.type === "RESOURCE_NOT_EMPTY")
    .map((v) => v.description.replace(/^.*?\b(has|contains|holds)\s+/i, ""));
  return held.length ? held : undefined;
}

const spec: KindSpec<"groups"> = {
  ...factsOf("groups"),
  createSchema: GroupCreate,
  recover: (client, i, since, deadline) =>
    findCreated(client, "groups", { "uidp.children_of": i.parentUid, name: i.name }, (g) => g.name === i.name && parentOf(g.uid) === i.parentUid, since, deadline),
  created: (g) => noteGroupCreated(g.uid),
  heldBy: (err) => heldBy(err)?.join(", "),
  deleteError(err, props) {
    const held = heldBy(err);
    if (!held) return undefined;
    const who = props.name ? `group ${props.name} (${props.uid})` : `group ${props.uid}`;
    return new Error(`${who} still contains ${held.join(", ")}: delete or move them first`, { cause: err });
  },
};

/** The dynamic provider of `iam.Group`. */
export const groups = providerFor<"groups", GroupInputs, GroupOutputs>(spec) satisfies dynamic.ResourceProvider<GroupInputs, GroupOutputs>;
/** The kind's spec (fields, mapping), for tests and adoption tooling. */
export const groupSpec = spec;
