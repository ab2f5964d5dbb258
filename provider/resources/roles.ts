import type { roles as definition, InputsOf, OutputsOf } from "../../api/kinds";
import { parentOf } from "../../api/uid";
import { findCreated } from "./create";
import { providerFor } from "./provider";
import { type CommonInputs, type KindSpec } from "./spec";
import { factsOf } from "./facts";

/** Inputs of a Role, as its definition (api/kinds) types them. */
export type RoleInputs = CommonInputs & InputsOf<typeof definition>;
/** Outputs of a Role: the inputs as they are live, and the API's fields. */
export type RoleOutputs = CommonInputs & OutputsOf<typeof definition>;

const spec: KindSpec<"roles"> = {
  ...factsOf("roles"),
  recover: (client, i, since, call) =>
    findCreated(client, "roles", { name: i.name as string }, (r) => r.name === i.name && parentOf(r.uid) === i.groupUid, since, call),
};

/** The provider of `iam.Role`. */
export const roles = providerFor<"roles", RoleInputs, RoleOutputs>(spec);
/** The kind's spec. */
export const roleSpec = spec;
