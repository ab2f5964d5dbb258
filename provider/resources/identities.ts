import { definitionOf } from "../../api/kinds";
import { relationshipTypeOf } from "../../api/kinds/identities";
import { staticKeysIssues } from "../../api/kinds/identities";
import { type Inputs, type Outputs, type KindSpec, type Rec } from "./spec";
import { factsOf } from "./facts";
import { UNKNOWN, containsUnknown } from "./values";
import { sameIn } from "./diff";

/** Inputs of an Identity, as its definition (api/kinds) types them. */
export type IdentityInputs = Inputs<"identities">;
/** Outputs of an Identity: the inputs as they are live, and the API's fields. */
export type IdentityOutputs = Outputs<"identities">;

const spec = (): KindSpec<"identities"> => ({
  ...factsOf("identities"),
  validate(i, creating, olds) {
    // Only an expiration the API will check must lie ahead: on a create (also a replacement by a
    // new group) and on any change to the staticKeys block, which the API re-checks as a whole.
    // One that passed must not break previews of unrelated changes.
    const checked =
      creating ||
      olds.groupUid !== i.groupUid ||
      !sameIn(definitionOf("identities"), "staticKeys", olds.staticKeys, i.staticKeys) ||
      containsUnknown(i.staticKeys);
    // Check sees old inputs, not the identity's createTime: preview bounds the expiration by now,
    // and the API bounds it by the creation at `up` (tighter for an identity created long ago).
    const byName: Rec = i;
    return checked ? staticKeysIssues(byName, Date.now(), (v) => v !== UNKNOWN) : [];
  },
  extraReplaces(olds, news) {
    const o = relationshipTypeOf(olds);
    const n = relationshipTypeOf(news);
    return o && n && o !== n ? [n, o] : [];
  },
  adoptMismatch(x, i) {
    const live = relationshipTypeOf(x);
    const want = relationshipTypeOf(i);
    return live !== want ? `the existing identity is a ${live ?? "kindless"} identity, but the inputs declare ${want}` : undefined;
  },
});

/** The kind's spec, made on each call (./index.ts `specs` makes it once, on first use). */
export const identitySpec = spec;
