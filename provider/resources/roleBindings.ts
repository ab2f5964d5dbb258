import type { dynamic } from "@pulumi/pulumi";
import { RoleBindingCreate } from "../../api/bodies";
import { parentOf } from "../../api/uid";
import { findCreated } from "./create";
import { providerFor } from "./provider";
import { type CommonInputs, type KindSpec } from "./spec";
import { factsOf } from "./facts";

/** Inputs of a role binding: grants `roleUid` to `identityUid` on the group and its descendants. */
export interface RoleBindingInputs extends CommonInputs {
  /** The group the grant applies to; changing it replaces the binding. */
  groupUid: string;
  /** The identity granted the role; changes in place. */
  identityUid: string;
  /** The role granted; changes in place. */
  roleUid: string;
}

/** A hydrated reference as bindings return it. */
export interface BoundRef {
  uid: string;
  name: string;
  description: string;
}

/** Outputs of a role binding, with the hydrated identity, group and role. */
export interface RoleBindingOutputs extends RoleBindingInputs {
  uid: string;
  identity: BoundRef & { subject: string; issuer: string; email: string };
  group: BoundRef;
  role: BoundRef;
  createTime: string;
}

const spec: KindSpec<"roleBindings"> = {
  ...factsOf("roleBindings"),
  createSchema: RoleBindingCreate,
  outputs: (b) => ({
    uid: b.uid,
    groupUid: parentOf(b.uid) ?? null,
    identityUid: b.identity.uid,
    roleUid: b.role.uid,
    identity: b.identity,
    group: b.group,
    role: b.role,
    createTime: b.createTime,
  }),
  recover: (client, i, since, deadline) =>
    findCreated(
      client,
      "roleBindings",
      { group: i.groupUid, identity: i.identityUid, role: i.roleUid },
      (b) => parentOf(b.uid) === i.groupUid && b.identity.uid === i.identityUid && b.role.uid === i.roleUid,
      since,
      deadline,
    ),
};

/** The dynamic provider of `iam.RoleBinding`. */
export const roleBindings = providerFor<"roleBindings", RoleBindingInputs, RoleBindingOutputs>(spec) satisfies dynamic.ResourceProvider<RoleBindingInputs, RoleBindingOutputs>;
/** The kind's spec. */
export const roleBindingSpec = spec;
