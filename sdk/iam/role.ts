import * as pulumi from "@pulumi/pulumi";
import type { Capability } from "../../api/capabilities";
import { outputNames } from "../../api/kinds";
import { IrvResource, type CommonArgs } from "../resource";

export type { Capability };

/** Arguments of a custom role. */
export interface RoleArgs extends CommonArgs {
  /** The group the role lives in. Changing it replaces the role. */
  groupUid: pulumi.Input<string>;
  name: pulumi.Input<string>;
  description?: pulumi.Input<string>;
  /**
   * Capability names such as `groups.list` or `identity.create` (a set: order does not matter),
   * typed from the same table the API checks, so a misspelt one fails to compile.
   */
  capabilities: pulumi.Input<pulumi.Input<Capability>[]>;
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
    super("roles", name, { ...args }, outputNames("roles"), opts);
  }

  /** A read-only reference to the existing role `uid`. */
  static get(name: string, uid: pulumi.Input<string>, opts?: pulumi.CustomResourceOptions): Role {
    return new Role(name, {} as RoleArgs, { ...opts, id: uid });
  }
}
