import type { accountAssociations as definition, InputsOf, OutputsOf } from "../../api/kinds";
import { NotFoundError } from "../../client/errors";
import { providerFor } from "./provider";
import { type CommonInputs, type KindSpec } from "./spec";
import { factsOf } from "./facts";

/** Inputs of an AccountAssociation, as its definition (api/kinds) types them. */
export type AccountAssociationInputs = CommonInputs & InputsOf<typeof definition>;
/** Outputs of an AccountAssociation: the inputs as they are live, and the API's fields. */
export type AccountAssociationOutputs = CommonInputs & OutputsOf<typeof definition>;

const spec: KindSpec<"accountAssociations"> = {
  ...factsOf("accountAssociations", (a) => a.uid as string),
  async recover(client, i, since, call) {
    try {
      const a = await client.get("accountAssociations", i.groupUid as string, call);
      return Date.parse(a.createTime) >= since ? a : undefined;
    } catch (e) {
      if (e instanceof NotFoundError) return undefined;
      throw e;
    }
  },
};

/** The provider of `iam.AccountAssociation`. */
export const accountAssociations = providerFor<"accountAssociations", AccountAssociationInputs, AccountAssociationOutputs>(spec);
/** The kind's spec. */
export const accountAssociationSpec = spec;
