import type { dynamic } from "@pulumi/pulumi";
import type { z } from "zod";
import { AccountAssociationCreate, type AccountBlocks } from "../../api/bodies";
import { NotFoundError } from "../../client/errors";
import { providerFor } from "./provider";
import { type CommonInputs, type KindSpec } from "./spec";
import { factsOf } from "./facts";

type Blocks = { [K in keyof typeof AccountBlocks]?: z.infer<(typeof AccountBlocks)[K]> };

/** Inputs of a group's account association (one per group; its uid is the group's uid). */
export interface AccountAssociationInputs extends CommonInputs, Blocks {
  /** The group; changing it replaces the association (deleting the old one first). */
  groupUid: string;
  name: string;
  description?: string;
}

/** Outputs of an account association. */
export interface AccountAssociationOutputs extends AccountAssociationInputs {
  uid: string;
  description: string;
  createTime: string;
  updateTime: string;
}

const spec: KindSpec<"accountAssociations"> = {
  ...factsOf("accountAssociations", (a) => a.uid),
  createSchema: AccountAssociationCreate,
  deleteBeforeReplace: true,
  async recover(client, i, since, deadline) {
    try {
      const a = await client.get("accountAssociations", i.groupUid, { deadline });
      return Date.parse(a.createTime) >= since ? a : undefined;
    } catch (e) {
      if (e instanceof NotFoundError) return undefined;
      throw e;
    }
  },
};

/** The dynamic provider of `iam.AccountAssociation`. */
export const accountAssociations = providerFor<"accountAssociations", AccountAssociationInputs, AccountAssociationOutputs>(spec) satisfies dynamic.ResourceProvider<AccountAssociationInputs, AccountAssociationOutputs>;
/** The kind's spec. */
export const accountAssociationSpec = spec;
