import type { dynamic } from "@pulumi/pulumi";
import { RELATIONSHIP_TYPES, IdentityCreate, type AwsIdentity, type ClaimMatch, type StaticKeys } from "../../api/bodies";
import { STATIC_KEYS_MAX_DAYS } from "../../api/fields";
import { parentOf } from "../../api/uid";
import { findCreated } from "./create";
import { providerFor } from "./provider";
import { type CommonInputs, type Issue, type KindSpec } from "./spec";
import { factsOf } from "./facts";
import { UNKNOWN, containsUnknown, same } from "./values";

/** Inputs of an identity: exactly one of claimMatch, staticKeys, awsIdentity, servicePrincipal. */
export interface IdentityInputs extends CommonInputs {
  /** The owning group's uid; changing it replaces the identity. */
  groupUid: string;
  name: string;
  description?: string;
  /** Who may assume it: an external OIDC token's issuer/subject (exact or pattern). */
  claimMatch?: ClaimMatch;
  /** Tokens signed by the given keys. */
  staticKeys?: StaticKeys;
  /** An AWS principal. */
  awsIdentity?: AwsIdentity;
  /** A platform service. */
  servicePrincipal?: string;
}

/** Outputs of an identity. */
export interface IdentityOutputs extends IdentityInputs {
  uid: string;
  description: string;
  lastSeenTime?: string;
  createTime: string;
  updateTime: string;
}

/** Which relationship type `v` declares (undefined when none). */
export function relationshipType(v: Record<string, unknown>): string | undefined {
  return RELATIONSHIP_TYPES.find((k) => v[k] !== undefined && v[k] !== null);
}

const spec: KindSpec<"identities"> = {
  ...factsOf("identities"),
  createSchema: IdentityCreate,
  validate(i, creating, olds) {
    const issues: Issue[] = [];
    const exp = i.staticKeys?.expirationTime;
    // Only an expiration the API will check must lie ahead: on a create (also a replacement by a
    // new group) and on any change to the staticKeys block, which the API re-checks as a whole.
    // One that passed must not break previews of unrelated changes.
    const checked = creating || olds.groupUid !== i.groupUid || !same(olds.staticKeys, i.staticKeys) || containsUnknown(i.staticKeys);
    if (typeof exp === "string" && exp !== UNKNOWN && checked) {
      const t = Date.parse(exp);
      if (t <= Date.now()) issues.push({ path: ["staticKeys", "expirationTime"], message: "must be in the future" });
      else if (t > Date.now() + STATIC_KEYS_MAX_DAYS * 86400_000)
        issues.push({ path: ["staticKeys", "expirationTime"], message: `must be at most ${STATIC_KEYS_MAX_DAYS} days ahead` });
    }
    return issues;
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
  recover: (client, i, since, deadline) =>
    findCreated(client, "identities", { "uidp.children_of": i.groupUid, name: i.name }, (x) => x.name === i.name && parentOf(x.uid) === i.groupUid, since, deadline),
};

/** The dynamic provider of `iam.Identity`. */
export const identities = providerFor<"identities", IdentityInputs, IdentityOutputs>(spec) satisfies dynamic.ResourceProvider<IdentityInputs, IdentityOutputs>;
/** The kind's spec. */
export const identitySpec = spec;
