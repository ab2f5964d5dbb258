import { z } from "zod";
import * as f from "./fields";
import { ISSUER_KEYS_MAX, ISSUER_KEYS_MAX_CHARS, publicJwkProblem } from "./jwk";

/**
 * Request bodies the API accepts, strict: an unknown field is an error. The server parses every
 * body with these; the provider's `check` runs the same rules over a resource's inputs.
 * Update bodies are the `.partial()` of the create bodies. The members of structured fields carry
 * their descriptions (`.describe`) and named ones an `id` (`.meta`): the plugin's schema turns
 * them into object and enum types (plugin/types.ts).
 */

type Ctx = z.RefinementCtx;

/** Adds an issue unless exactly one (or, with `optional`, at most one) of `keys` is set. */
function oneOf(v: Record<string, unknown>, ctx: Ctx, keys: string[], optional = false) {
  const set = keys.filter((k) => v[k] !== undefined && v[k] !== null);
  if (set.length > 1) {
    for (const k of set.slice(1))
      ctx.addIssue({ code: "custom", path: [k], message: `only one of ${keys.join(", ")} may be set` });
  } else if (set.length === 0 && !optional) {
    ctx.addIssue({ code: "custom", path: [keys[0]], message: `one of ${keys.join(", ")} is required` });
  }
}

export const GroupCreate = z.strictObject({
  name: f.groupName,
  description: f.description.optional(),
});
export type GroupCreate = z.infer<typeof GroupCreate>;
export const GroupUpdate = GroupCreate.partial();
export type GroupUpdate = z.infer<typeof GroupUpdate>;

export const ClaimMatch = z
  .strictObject({
    issuer: f.issuerUrl.optional().describe("The token's exact `iss` (https; plain http only on a loopback host). Give this or `issuerPattern`."),
    issuerPattern: f.pattern.optional().describe("An RE2 pattern the whole `iss` must match. Give this or `issuer`."),
    subject: z.string().min(1, "must not be empty").optional().describe("The token's exact `sub`. Give this or `subjectPattern`."),
    subjectPattern: f.pattern.optional().describe("An RE2 pattern the whole `sub` must match. Give this or `subject`."),
    audience: z.string().min(1, "must not be empty").optional().describe("An audience `aud` must contain. At most one of this and `audiencePattern`; with neither, `aud` must contain the API URL."),
    audiencePattern: f.pattern.optional().describe("An RE2 pattern one of the token's audiences must match. At most one of this and `audience`."),
    claims: f.map(z.string().max(f.PATTERN_MAX, `must be at most ${f.PATTERN_MAX} characters`)).optional().describe("Further claims the token must carry, as exact string values."),
    claimPatterns: f.map(f.pattern).optional().describe("Further claims the token must carry, as RE2 patterns the whole string value must match."),
  })
  .superRefine((v, ctx) => {
    oneOf(v, ctx, ["issuer", "issuerPattern"]);
    oneOf(v, ctx, ["subject", "subjectPattern"]);
    oneOf(v, ctx, ["audience", "audiencePattern"], true);
  })
  .meta({ id: "ClaimMatch", description: "Which external OIDC tokens may assume an identity: their issuer and subject (exact or pattern), and optionally audience and further claims." });
export type ClaimMatch = z.infer<typeof ClaimMatch>;

/** Members that only private or symmetric JWKs have: an issuer's keys must never carry them. */
const PRIVATE_JWK_MEMBERS = ["d", "p", "q", "dp", "dq", "qi", "k", "oth"];

/** A JWKS document of public keys, as a string: JSON with a non-empty `keys` array. */
const jwks = z.string().max(ISSUER_KEYS_MAX_CHARS, `must be at most ${ISSUER_KEYS_MAX_CHARS} characters`).superRefine((s, ctx) => {
  let doc: { keys?: unknown };
  try {
    doc = JSON.parse(s);
  } catch {
    doc = {};
  }
  if (!Array.isArray(doc?.keys) || doc.keys.length === 0) {
    ctx.addIssue({ code: "custom", message: 'must be a JWKS document: JSON with a non-empty "keys" array' });
    return;
  }
  if (doc.keys.length > ISSUER_KEYS_MAX) ctx.addIssue({ code: "custom", message: `must hold at most ${ISSUER_KEYS_MAX} keys` });
  doc.keys.forEach((key, i) => {
    const secret = PRIVATE_JWK_MEMBERS.filter((m) => key && typeof key === "object" && m in key);
    const problem = secret.length ? `holds private key material (${secret.join(", ")}): give public keys only` : publicJwkProblem(key);
    if (problem) ctx.addIssue({ code: "custom", message: `key ${i} ${problem}` });
  });
});

export const StaticKeys = z
  .strictObject({
    issuer: f.issuerUrl.describe("The `iss` of the tokens (https; plain http only on a loopback host)."),
    subject: z.string().min(1, "must not be empty").describe("The `sub` of the tokens."),
    issuerKeys: jwks.describe('The public keys that sign the tokens: a JWKS document as a string (`{"keys": [...]}`).'),
    expirationTime: f.timestamp.describe(`When the keys stop being accepted (RFC 3339 with milliseconds), at most ${f.STATIC_KEYS_MAX_DAYS} days ahead.`),
    audiences: z.array(z.string().min(1)).optional().describe("Audiences the tokens may carry; default the API URL."),
  })
  .meta({ id: "StaticKeys", description: "Tokens signed by the given keys may assume an identity, until the keys expire." });
export type StaticKeys = z.infer<typeof StaticKeys>;

export const AwsIdentity = z
  .strictObject({
    awsAccount: z.string().regex(/^\d{12}$/, "must be a 12-digit AWS account id").describe("The AWS account id: 12 digits."),
    arn: z.string().min(1).optional().describe("The principal's exact ARN. Give this or `arnPattern`."),
    arnPattern: f.pattern.optional().describe("An RE2 pattern the whole ARN must match. Give this or `arn`."),
    userId: z.string().min(1).optional().describe("The principal's exact user id. At most one of this and `userIdPattern`."),
    userIdPattern: f.pattern.optional().describe("An RE2 pattern the whole user id must match. At most one of this and `userId`."),
  })
  .superRefine((v, ctx) => {
    oneOf(v, ctx, ["arn", "arnPattern"]);
    oneOf(v, ctx, ["userId", "userIdPattern"], true);
  })
  .meta({ id: "AwsIdentity", description: "An AWS principal that may assume an identity." });
export type AwsIdentity = z.infer<typeof AwsIdentity>;

export const ServicePrincipal = z.enum(f.SERVICE_PRINCIPALS).meta({ id: "ServicePrincipal", description: "A platform service an identity can stand for." });

/** The four ways an identity can be assumed; an identity has exactly one. */
export const RELATIONSHIP_TYPES = ["claimMatch", "staticKeys", "awsIdentity", "servicePrincipal"] as const;
export type RelationshipType = (typeof RELATIONSHIP_TYPES)[number];
/** @deprecated The old name of RELATIONSHIP_TYPES. */
export const IDENTITY_KINDS = RELATIONSHIP_TYPES;
/** @deprecated The old name of RelationshipType. */
export type IdentityKind = RelationshipType;

const identityFields = {
  name: f.name,
  description: f.description.optional(),
  claimMatch: ClaimMatch.optional(),
  staticKeys: StaticKeys.optional(),
  awsIdentity: AwsIdentity.optional(),
  servicePrincipal: ServicePrincipal.optional(),
};
export const IdentityCreate = z
  .strictObject(identityFields)
  .superRefine((v, ctx) => oneOf(v, ctx, [...RELATIONSHIP_TYPES]));
export type IdentityCreate = z.infer<typeof IdentityCreate>;
export const IdentityUpdate = z
  .strictObject(identityFields)
  .partial()
  .superRefine((v, ctx) => oneOf(v, ctx, [...RELATIONSHIP_TYPES], true));
export type IdentityUpdate = z.infer<typeof IdentityUpdate>;

export const RoleCreate = z.strictObject({
  name: f.name,
  description: f.description.optional(),
  capabilities: z.array(f.capability).min(1, "must name at least one capability"),
});
export type RoleCreate = z.infer<typeof RoleCreate>;
export const RoleUpdate = RoleCreate.partial();
export type RoleUpdate = z.infer<typeof RoleUpdate>;

export const RoleBindingCreate = z.strictObject({ identityUid: f.uid, roleUid: f.uid });
export type RoleBindingCreate = z.infer<typeof RoleBindingCreate>;
export const RoleBindingUpdate = RoleBindingCreate.partial();
export type RoleBindingUpdate = z.infer<typeof RoleBindingUpdate>;

export const Oidc = z.strictObject({
  issuer: f.issuerUrl.describe("The OIDC issuer URL (https; plain http only on a loopback host)."),
  clientId: z.string().min(1, "must not be empty").describe("The OAuth client id registered with the issuer."),
  /** Write-only: never returned. On update, empty keeps the old secret unless the mask names it. */
  clientSecret: z.string().describe("The OAuth client secret: write-only on the API, never read back.").optional(),
  additionalScopes: z.array(z.string().min(1)).optional().describe("Scopes to request besides `openid`."),
});
export type Oidc = z.infer<typeof Oidc>;

export const IdentityProviderCreate = z.strictObject({
  name: f.name,
  description: f.description.optional(),
  defaultRole: f.uid.optional(),
  oidc: Oidc.extend({ clientSecret: Oidc.shape.clientSecret.unwrap().min(1, "must not be empty") }).meta({
    id: "Oidc",
    description: "An identity provider's OIDC connection.",
  }),
});
export type IdentityProviderCreate = z.infer<typeof IdentityProviderCreate>;
export const IdentityProviderUpdate = z
  .strictObject({ ...IdentityProviderCreate.shape, oidc: Oidc.partial() })
  .partial();
export type IdentityProviderUpdate = z.infer<typeof IdentityProviderUpdate>;

const digits = (n: string) => z.string().regex(/^\d+$/, `must be a numeric ${n}`);
export const AccountBlocks = {
  amazon: z
    .strictObject({ account: z.string().regex(/^\d{12}$/, "must be a 12-digit AWS account id").describe("The AWS account id: 12 digits.") })
    .meta({ id: "AccountAssociationAmazon", description: "The group's AWS account." }),
  google: z
    .strictObject({
      projectId: z.string().min(1).describe("The Google Cloud project id."),
      projectNumber: digits("project number").describe("The Google Cloud project number (digits)."),
    })
    .meta({ id: "AccountAssociationGoogle", description: "The group's Google Cloud project." }),
  azure: z
    .strictObject({
      tenantId: z.uuid({ message: "must be a UUID" }).describe("The Azure tenant id (a UUID)."),
      clientIds: f.map(z.uuid({ message: "must be a UUID" })).describe("Azure client ids (UUIDs) by name."),
    })
    .meta({ id: "AccountAssociationAzure", description: "The group's Azure tenant and clients." }),
  chainguard: z
    .strictObject({ serviceBindings: f.map(f.uid).describe("Platform service bindings: a name to a uid.") })
    .meta({ id: "AccountAssociationChainguard", description: "The group's Chainguard service bindings." }),
  github: z
    .strictObject({
      installations: z
        .array(
          z
            .strictObject({
              id: digits("installation id").describe("The installation id (digits)."),
              name: z.string().optional().describe("A name for it."),
            })
            .meta({ id: "AccountAssociationGithubInstallation", description: "A GitHub App installation." }),
        )
        .describe("The GitHub App installations."),
    })
    .meta({ id: "AccountAssociationGithub", description: "The group's GitHub App installations." }),
};
export const ACCOUNT_BLOCKS = Object.keys(AccountBlocks) as (keyof typeof AccountBlocks)[];

export const AccountAssociationCreate = z.strictObject({
  name: f.name,
  description: f.description.optional(),
  amazon: AccountBlocks.amazon.optional(),
  google: AccountBlocks.google.optional(),
  azure: AccountBlocks.azure.optional(),
  chainguard: AccountBlocks.chainguard.optional(),
  github: AccountBlocks.github.optional(),
});
export type AccountAssociationCreate = z.infer<typeof AccountAssociationCreate>;
export const AccountAssociationUpdate = AccountAssociationCreate.partial();
export type AccountAssociationUpdate = z.infer<typeof AccountAssociationUpdate>;

/** A protobuf Duration as JSON: seconds with an `s`, e.g. `86400s`. */
export const DURATION = /^\d+(\.\d{1,9})?s$/;

export const GroupInviteCreate = z
  .strictObject({
    roleUid: f.uid,
    ttl: z.string().regex(DURATION, 'must be a duration in seconds such as "86400s"').optional(),
    expirationTime: f.timestamp.optional(),
    email: z.email({ message: "must be an email address" }).optional(),
    singleUse: z.boolean().optional(),
  })
  .superRefine((v, ctx) => oneOf(v, ctx, ["ttl", "expirationTime"], true));
export type GroupInviteCreate = z.infer<typeof GroupInviteCreate>;

/** The longest an invite may live. */
export const INVITE_MAX_TTL_SECONDS = 30 * 24 * 3600;
/** How long an invite lives when neither `ttl` nor `expirationTime` is given. */
export const INVITE_DEFAULT_TTL_SECONDS = 7 * 24 * 3600;
