import * as pulumi from "@pulumi/pulumi";
import { IrvResource, type CommonArgs } from "../resource";

/** Arguments of a custom role. */
export interface RoleArgs extends CommonArgs {
  /** The group the role lives in. Changing it replaces the role. */
  groupUid: pulumi.Input<string>;
  name: pulumi.Input<string>;
  description?: pulumi.Input<string>;
  /** Capability names such as `groups.list` or `identity.create` (a set: order does not matter). */
  capabilities: pulumi.Input<pulumi.Input<string>[]>;
}

/** A custom role: a named set of capabilities. */
export class Role extends IrvResource {
  declare public readonly groupUid: pulumi.Output<string>;
  declare public readonly name: pulumi.Output<string>;
  /** The description ("" when none). */
  declare public readonly description: pulumi.Output<string>;
  /** The capabilities as the API stores them. */
  declare public readonly capabilities: pulumi.Output<string[]>;
  declare public readonly createTime: pulumi.Output<string>;
  declare public readonly updateTime: pulumi.Output<string>;
  declare public readonly adoptUid: pulumi.Output<string | undefined>;

  constructor(name: string, args: RoleArgs, opts?: pulumi.CustomResourceOptions) {
    super("roles", name, { ...args }, ["groupUid", "name", "description", "capabilities", "createTime", "updateTime", "adoptUid"], opts);
  }

  /** A read-only reference to the existing role `uid`. */
  static get(name: string, uid: pulumi.Input<string>, opts?: pulumi.CustomResourceOptions): Role {
    return new Role(name, {} as RoleArgs, { ...opts, id: uid });
  }
}
