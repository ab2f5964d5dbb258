import * as pulumi from "@pulumi/pulumi";
import { outputNames } from "../../api/kinds";
import { IrvResource, type CommonArgs } from "../resource";

/** Arguments of a group. */
export interface GroupArgs extends CommonArgs {
  /** The parent group's uid (the organization's uid for a top-level group). Changing it replaces the group. */
  parentUid: pulumi.Input<string>;
  /** The name: lowercase letters, digits, space, `.`, `_` and `-`. */
  name: pulumi.Input<string>;
  /** Free text. */
  description?: pulumi.Input<string>;
}

/** A group in the organization's hierarchy. */
export class Group extends IrvResource {
  /** The parent group's uid. */
  declare public readonly parentUid: pulumi.Output<string>;
  /** The group's name. */
  declare public readonly name: pulumi.Output<string>;
  /** The description ("" when none). */
  declare public readonly description: pulumi.Output<string>;
  /** Whether the platform has verified the group. */
  declare public readonly verified: pulumi.Output<boolean>;
  /** Resource limits as the API reports them. */
  declare public readonly resourceLimits: pulumi.Output<Record<string, unknown>>;
  /** When it was created (RFC 3339). */
  declare public readonly createTime: pulumi.Output<string>;
  /** When it last changed (RFC 3339). */
  declare public readonly updateTime: pulumi.Output<string>;
  /** The uid this resource adopted, if any. */
  declare public readonly adoptUid: pulumi.Output<string | undefined>;

  constructor(name: string, args: GroupArgs, opts?: pulumi.CustomResourceOptions) {
    super("groups", name, { ...args }, outputNames("groups"), opts);
  }

  /** A read-only reference to the existing group `uid` (refresh reads it; nothing is managed). */
  static get(name: string, uid: pulumi.Input<string>, opts?: pulumi.CustomResourceOptions): Group {
    return new Group(name, {} as GroupArgs, { ...opts, id: uid });
  }
}
