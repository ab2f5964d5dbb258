import type { identities as definition, InputsOf, OutputsOf } from "../../api/kinds";
import type { dynamic } from "@pulumi/pulumi";
import { RELATIONSHIP_TYPES } from "../../api/bodies";
import { staticKeysIssues } from "../../api/kinds/identities";
import { providerFor } from "./provider";
import { type CommonInputs, type KindSpec } from "./spec";
import { factsOf } from "./facts";
import { UNKNOWN, containsUnknown, same } from "./values";

/** Which relationship type `v` declares (undefined when none). */
export function relationshipType(v: Record<string, unknown>): string | undefined {
  return RELATIONSHIP_TYPES.find((k) => v[k] !== undefined && v[k] !== null);
}

/** Inputs of an Identity, as its definition (api/kinds) types them. */
export type IdentityInputs = CommonInputs & InputsOf<typeof definition>;
/** Outputs of an Identity: the inputs as they are live, and the API's fields. */
export type IdentityOutputs = CommonInputs & OutputsOf<typeof definition>;

const spec: KindSpec<"identities"> = {
  ...factsOf("identities"),
  validate(i, creating, olds) {
    // Only an expiration the API will check must lie ahead: on a create (also a replacement by a
    // new group) and on any change to the staticKeys block, which the API re-checks as a whole.
    // One that passed must not break previews of unrelated changes.
    const checked = creating || olds.groupUid !== i.groupUid || !same(olds.staticKeys, i.staticKeys) || containsUnknown(i.staticKeys);
    return checked ? staticKeysIssues(i, Date.now(), (v) => v !== UNKNOWN) : [];
  },
  extraReplaces(olds, news) {
    const o = relationshipType(olds);
    const n = relationshipType(news);
    return o && n && o !== n ? [n, o] : [];
  },
  adoptMismatch(x, i) {
    const live = relationshipType(x);
    const want = relationshipType(i);
    return live !== want ? `the existing identity is a ${live ?? "kindless"} identity, but the inputs declare ${want}` : undefined;
  },
};

/** The dynamic provider of `iam.Identity`. */
export const identities = providerFor<"identities", IdentityInputs, IdentityOutputs>(spec) satisfies dynamic.ResourceProvider<IdentityInputs, IdentityOutputs>;
/** The kind's spec. */
export const identitySpec = spec;
