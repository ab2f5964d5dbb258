import type { dynamic } from "@pulumi/pulumi";
import { RoleCreate } from "../../api/bodies";
import { parentOf } from "../../api/uid";
import { findCreated } from "./create";
import { providerFor } from "./provider";
import { type CommonInputs, type KindSpec } from "./spec";
import { factsOf } from "./facts";

/** Inputs of a custom role. */
export interface RoleInputs extends CommonInputs {
  /** The group the role lives in; changing it replaces the role. */
  groupUid: string;
  name: string;
  description?: string;
  /** Capability names (`groups.list`, `identity.create`, ...); compared as a set. */
  capabilities: string[];
}

/** Outputs of a role. */
export interface RoleOutputs extends RoleInputs {
  uid: string;
  description: string;
  createTime: string;
  updateTime: string;
}

const spec: KindSpec<"roles"> = {
  ...factsOf("roles"),
  createSchema: RoleCreate,
  recover: (client, i, since, deadline) =>
    findCreated(client, "roles", { name: i.name }, (r) => r.name === i.name && parentOf(r.uid) === i.groupUid, since, deadline),
};

/** The dynamic provider of `iam.Role`. */
export const roles = providerFor<"roles", RoleInputs, RoleOutputs>(spec) satisfies dynamic.ResourceProvider<RoleInputs, RoleOutputs>;
/** The kind's spec. */
export const roleSpec = spec;
