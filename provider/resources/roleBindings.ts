import type { roleBindings as definition, InputsOf, OutputsOf } from "../../api/kinds";
import { parentOf } from "../../api/uid";
import { findCreated } from "./create";
import { providerFor } from "./provider";
import { type CommonInputs, type KindSpec } from "./spec";
import { factsOf } from "./facts";

/** Inputs of a RoleBinding, as its definition (api/kinds) types them. */
export type RoleBindingInputs = CommonInputs & InputsOf<typeof definition>;
/** Outputs of a RoleBinding: the inputs as they are live, and the API's fields. */
export type RoleBindingOutputs = CommonInputs & OutputsOf<typeof definition>;

const spec: KindSpec<"roleBindings"> = {
  ...factsOf("roleBindings"),
  recover: (client, i, since, call) =>
    findCreated(
      client,
      "roleBindings",
      { group: i.groupUid as string, identity: i.identityUid as string, role: i.roleUid as string },
      (b) => parentOf(b.uid) === i.groupUid && b.identity.uid === i.identityUid && b.role.uid === i.roleUid,
      since,
      call,
    ),
};

/** The provider of `iam.RoleBinding`. */
export const roleBindings = providerFor<"roleBindings", RoleBindingInputs, RoleBindingOutputs>(spec);
/** The kind's spec. */
export const roleBindingSpec = spec;
