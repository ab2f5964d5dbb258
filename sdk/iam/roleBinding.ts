import * as pulumi from "@pulumi/pulumi";
import type { BoundRef } from "../../api/kinds/roleBindings";
import { outputNames } from "../../api/kinds";
import { IrvResource, type CommonArgs } from "../resource";

export type { BoundRef };

/** Arguments of a role binding. */
export interface RoleBindingArgs extends CommonArgs {
  /** The group the grant applies to (and its descendants). Changing it replaces the binding. */
  groupUid: pulumi.Input<string>;
  /** The identity granted the role (changes in place). */
  identityUid: pulumi.Input<string>;
  /** The role granted (changes in place). */
  roleUid: pulumi.Input<string>;
}

/** Grants a role to an identity on a group and everything under it. */
export class RoleBinding extends IrvResource {
  declare public readonly groupUid: pulumi.Output<string>;
  declare public readonly identityUid: pulumi.Output<string>;
  declare public readonly roleUid: pulumi.Output<string>;
  /** The bound identity, hydrated: uid, name, description, subject, issuer, email. */
  declare public readonly identity: pulumi.Output<BoundRef & { subject: string; issuer: string; email: string }>;
  /** The group, hydrated: uid, name, description. */
  declare public readonly group: pulumi.Output<BoundRef>;
  /** The role, hydrated: uid, name, description. */
  declare public readonly role: pulumi.Output<BoundRef>;
  /** When it was created (bindings have no updateTime). */
  declare public readonly createTime: pulumi.Output<string>;
  declare public readonly adoptUid: pulumi.Output<string | undefined>;

  constructor(name: string, args: RoleBindingArgs, opts?: pulumi.CustomResourceOptions) {
    super("roleBindings", name, { ...args }, outputNames("roleBindings"), opts);
  }

  /** A read-only reference to the existing binding `uid`. */
  static get(name: string, uid: pulumi.Input<string>, opts?: pulumi.CustomResourceOptions): RoleBinding {
    return new RoleBinding(name, {} as RoleBindingArgs, { ...opts, id: uid });
  }
}
