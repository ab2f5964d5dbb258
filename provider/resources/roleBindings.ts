import { parentOf } from "../../api/uid";
import { findCreated } from "./create";
import { type Inputs, type Outputs, type KindSpec } from "./spec";
import { factsOf } from "./facts";

/** Inputs of a RoleBinding, as its definition (api/kinds) types them. */
export type RoleBindingInputs = Inputs<"roleBindings">;
/** Outputs of a RoleBinding: the inputs as they are live, and the API's fields. */
export type RoleBindingOutputs = Outputs<"roleBindings">;

const spec = (): KindSpec<"roleBindings"> => ({
  ...factsOf("roleBindings"),
  recover: (ctx, i, since) =>
    findCreated(
      ctx,
      "roleBindings",
      { group: i.groupUid, identity: i.identityUid, role: i.roleUid },
      (b) => parentOf(b.uid) === i.groupUid && b.identity.uid === i.identityUid && b.role.uid === i.roleUid,
      since,
    ),
});

/** The kind's spec, made on each call (./index.ts `specs` makes it once, on first use). */
export const roleBindingSpec = spec;
