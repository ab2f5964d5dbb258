import type { dynamic } from "@pulumi/pulumi";
import { RoleCreate } from "../../api/inputs";
import { parentOf } from "../../api/uid";
import { findCreated, providerFor, type CommonInputs, type KindSpec } from "./framework";

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
  collection: "roles",
  label: "role",
  parentField: "groupUid",
  fields: { groupUid: { replace: true }, name: {}, description: { default: "" }, capabilities: {} },
  createSchema: RoleCreate,
  createBody: (i) => ({ name: i.name, description: i.description, capabilities: i.capabilities }),
  outputs: (r) => ({
    uid: r.uid,
    groupUid: parentOf(r.uid) ?? null,
    name: r.name,
    description: r.description,
    capabilities: r.capabilities,
    createTime: r.createTime,
    updateTime: r.updateTime,
  }),
  parentOf: (r) => parentOf(r.uid) ?? "",
  recover: (client, i, since, deadline) =>
    findCreated(client, "roles", { name: i.name }, (r) => r.name === i.name && parentOf(r.uid) === i.groupUid, since, deadline),
};

/** The dynamic provider of `iam.Role`. */
export const roles = providerFor<"roles", RoleInputs, RoleOutputs>(spec) satisfies dynamic.ResourceProvider<RoleInputs, RoleOutputs>;
/** The kind's spec. */
export const roleSpec = spec;
