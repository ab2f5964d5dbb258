import * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import type { AccountBlocks } from "../../api/bodies";
import { outputNames } from "../../api/kinds";
import { IrvResource, type CommonArgs, type DeepInput } from "../resource";

/** The provider blocks of an account association. */
export type AccountBlock<K extends keyof typeof AccountBlocks> = z.infer<(typeof AccountBlocks)[K]>;

/** Arguments of an account association (one per group). */
export interface AccountAssociationArgs extends CommonArgs {
  /** The group; its uid is also the association's. Changing it replaces (delete first). */
  groupUid: pulumi.Input<string>;
  name: pulumi.Input<string>;
  description?: pulumi.Input<string>;
  /** `{ account }`: a 12-digit AWS account. */
  amazon?: DeepInput<AccountBlock<"amazon">>;
  /** `{ projectId, projectNumber }`. */
  google?: DeepInput<AccountBlock<"google">>;
  /** `{ tenantId, clientIds }` (UUIDs). */
  azure?: DeepInput<AccountBlock<"azure">>;
  /** `{ serviceBindings }`: name to uid. */
  chainguard?: DeepInput<AccountBlock<"chainguard">>;
  /** `{ installations: [{ id, name }] }`. */
  github?: DeepInput<AccountBlock<"github">>;
}

/** The cloud and source accounts associated with a group. */
export class AccountAssociation extends IrvResource {
  declare public readonly groupUid: pulumi.Output<string>;
  declare public readonly name: pulumi.Output<string>;
  declare public readonly description: pulumi.Output<string>;
  declare public readonly amazon: pulumi.Output<AccountBlock<"amazon"> | undefined>;
  declare public readonly google: pulumi.Output<AccountBlock<"google"> | undefined>;
  declare public readonly azure: pulumi.Output<AccountBlock<"azure"> | undefined>;
  declare public readonly chainguard: pulumi.Output<AccountBlock<"chainguard"> | undefined>;
  declare public readonly github: pulumi.Output<AccountBlock<"github"> | undefined>;
  declare public readonly createTime: pulumi.Output<string>;
  declare public readonly updateTime: pulumi.Output<string>;
  declare public readonly adoptUid: pulumi.Output<string | undefined>;

  constructor(name: string, args: AccountAssociationArgs, opts?: pulumi.CustomResourceOptions) {
    super("accountAssociations", name, { ...args }, outputNames("accountAssociations"), opts);
  }

  /** A read-only reference to the association of group `uid`. */
  static get(name: string, uid: pulumi.Input<string>, opts?: pulumi.CustomResourceOptions): AccountAssociation {
    return new AccountAssociation(name, {} as AccountAssociationArgs, { ...opts, id: uid });
  }
}
