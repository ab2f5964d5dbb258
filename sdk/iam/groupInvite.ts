import * as pulumi from "@pulumi/pulumi";
import { outputNames } from "../../api/kinds";
import { IrvResource, type CommonArgs } from "../resource";

/** Arguments of a group invite. Every change replaces the invite. */
export interface GroupInviteArgs extends CommonArgs {
  groupUid: pulumi.Input<string>;
  /** The role the invitee gets. */
  roleUid: pulumi.Input<string>;
  /** Lifetime in seconds, as `"86400s"` (at most 30 days). Or set `expirationTime`. */
  ttl?: pulumi.Input<string>;
  /** When it expires (RFC 3339 with ms). Checked to be in the future only when created. */
  expirationTime?: pulumi.Input<string>;
  /** Restrict the invite to this address. */
  email?: pulumi.Input<string>;
  /** The invite works once. */
  singleUse?: pulumi.Input<boolean>;
}

/** An invitation to join a group with a role. Its `code` is secret. */
export class GroupInvite extends IrvResource {
  declare public readonly groupUid: pulumi.Output<string>;
  declare public readonly roleUid: pulumi.Output<string>;
  declare public readonly ttl: pulumi.Output<string | undefined>;
  /** When it expires. */
  declare public readonly expirationTime: pulumi.Output<string>;
  declare public readonly email: pulumi.Output<string>;
  declare public readonly singleUse: pulumi.Output<boolean>;
  /** The invite's key id (lists filter on it). */
  declare public readonly keyId: pulumi.Output<string>;
  /** The invite code (secret). Null for an adopted or read-only invite: only create returns it. */
  declare public readonly code: pulumi.Output<string | null>;
  declare public readonly createTime: pulumi.Output<string>;
  declare public readonly adoptUid: pulumi.Output<string | undefined>;

  constructor(name: string, args: GroupInviteArgs, opts?: pulumi.CustomResourceOptions) {
    super("groupInvites", name, { ...args }, outputNames("groupInvites"), opts);
  }

  /** A read-only reference to the existing invite `uid`. */
  static get(name: string, uid: pulumi.Input<string>, opts?: pulumi.CustomResourceOptions): GroupInvite {
    return new GroupInvite(name, {} as GroupInviteArgs, { ...opts, id: uid });
  }
}
