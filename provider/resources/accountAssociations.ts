import { NotFoundError } from "../../client/errors";
import { type Inputs, type Outputs, type KindSpec } from "./spec";
import { factsOf } from "./facts";

/** Inputs of an AccountAssociation, as its definition (api/kinds) types them. */
export type AccountAssociationInputs = Inputs<"accountAssociations">;
/** Outputs of an AccountAssociation: the inputs as they are live, and the API's fields. */
export type AccountAssociationOutputs = Outputs<"accountAssociations">;

const spec = (): KindSpec<"accountAssociations"> => ({
  ...factsOf("accountAssociations", (a) => a.uid),
  async recover(ctx, i, since) {
    try {
      const a = await ctx.client().get("accountAssociations", i.groupUid, ctx.call);
      return Date.parse(a.createTime) >= since ? a : undefined;
    } catch (e) {
      if (e instanceof NotFoundError) return undefined;
      throw e;
    }
  },
});

/** The kind's spec, made on each call (./index.ts `specs` makes it once, on first use). */
export const accountAssociationSpec = spec;
