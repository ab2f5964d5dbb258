import { parentOf } from "../../api/uid";
import { findCreated } from "./create";
import { type Inputs, type Outputs, type KindSpec } from "./spec";
import { factsOf } from "./facts";

/** Inputs of a Role, as its definition (api/kinds) types them. */
export type RoleInputs = Inputs<"roles">;
/** Outputs of a Role: the inputs as they are live, and the API's fields. */
export type RoleOutputs = Outputs<"roles">;

const spec = (): KindSpec<"roles"> => ({
  ...factsOf("roles"),
  recover: (ctx, i, since) => findCreated(ctx, "roles", { name: String(i.name) }, (r) => r.name === i.name && parentOf(r.uid) === i.groupUid, since),
});

/** The kind's spec, made on each call (./index.ts `specs` makes it once, on first use). */
export const roleSpec = spec;
