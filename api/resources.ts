import { z } from "zod";

/**
 * Resources as the API returns them. Loose: a field the server adds later passes through, and a
 * value the request rules of api/bodies.ts would refuse (a timestamp without milliseconds, a new
 * service principal) still reads, so a newer server does not break an older client. The server
 * builds exactly these shapes.
 */

const text = z.string().optional();
const textMap = z.record(z.string(), z.string()).optional();

/** The relationship types as returned: the members of api/bodies.ts, none of its rules. */
const ClaimMatch = z.looseObject({
  issuer: text, issuerPattern: text, subject: text, subjectPattern: text, audience: text, audiencePattern: text,
  claims: textMap, claimPatterns: textMap,
});
const StaticKeys = z.looseObject({
  issuer: z.string(), subject: z.string(), issuerKeys: z.string(), expirationTime: z.string(),
  audiences: z.array(z.string()).optional(),
});
const AwsIdentity = z.looseObject({ awsAccount: z.string(), arn: text, arnPattern: text, userId: text, userIdPattern: text });

/** The account association blocks as returned. */
const AccountBlocks = {
  amazon: z.looseObject({ account: z.string() }),
  google: z.looseObject({ projectId: z.string(), projectNumber: z.string() }),
  azure: z.looseObject({ tenantId: z.string(), clientIds: z.record(z.string(), z.string()) }),
  chainguard: z.looseObject({ serviceBindings: z.record(z.string(), z.string()) }),
  github: z.looseObject({ installations: z.array(z.looseObject({ id: z.string(), name: text })) }),
};

const times = { createTime: z.string(), updateTime: z.string() };

export const Group = z.looseObject({
  uid: z.string(),
  name: z.string(),
  description: z.string().default(""),
  resourceLimits: z.record(z.string(), z.unknown()).default({}),
  verified: z.boolean().default(false),
  ...times,
});
export type Group = z.infer<typeof Group>;

export const Identity = z.looseObject({
  uid: z.string(),
  name: z.string(),
  description: z.string().default(""),
  claimMatch: ClaimMatch.optional(),
  staticKeys: StaticKeys.optional(),
  awsIdentity: AwsIdentity.optional(),
  servicePrincipal: z.string().optional(),
  lastSeenTime: z.string().optional(),
  ...times,
});
export type Identity = z.infer<typeof Identity>;

export const Role = z.looseObject({
  uid: z.string(),
  name: z.string(),
  description: z.string().default(""),
  capabilities: z.array(z.string()).default([]),
  ...times,
});
export type Role = z.infer<typeof Role>;

/** The identity a binding names, hydrated. `issuer`/`subject` are empty unless it has a claimMatch. */
export const BoundIdentity = z
  .looseObject({
    uid: z.string().describe("The identity's uid."),
    name: z.string().describe("The identity's name."),
    description: z.string().default("").describe("The identity's description."),
    subject: z.string().default("").describe("The subject of its claimMatch (empty otherwise)."),
    issuer: z.string().default("").describe("The issuer of its claimMatch (empty otherwise)."),
    email: z.string().default("").describe("Its email, if any."),
  })
  .meta({ id: "BoundIdentity", description: "The identity a role binding names, as the API hydrates it." });
export const BoundRef = z
  .looseObject({
    uid: z.string().describe("Its uid."),
    name: z.string().describe("Its name."),
    description: z.string().default("").describe("Its description."),
  })
  .meta({ id: "BoundRef", description: "A group or role a role binding names, as the API hydrates it." });

/** A role binding. It has `createTime` only: bindings carry no `updateTime`. */
export const RoleBinding = z.looseObject({
  uid: z.string(),
  identity: BoundIdentity,
  group: BoundRef,
  role: BoundRef,
  createTime: z.string(),
});
export type RoleBinding = z.infer<typeof RoleBinding>;

export const IdentityProvider = z.looseObject({
  uid: z.string(),
  name: z.string(),
  description: z.string().default(""),
  defaultRole: z.string().default(""),
  /** The client secret is write-only and never appears here. */
  oidc: z.looseObject({
    issuer: z.string(),
    clientId: z.string(),
    additionalScopes: z.array(z.string()).default([]),
  }),
  ...times,
});
export type IdentityProvider = z.infer<typeof IdentityProvider>;

/** An account association. Its uid is its group's uid: one per group. */
export const AccountAssociation = z.looseObject({
  uid: z.string(),
  name: z.string(),
  description: z.string().default(""),
  amazon: AccountBlocks.amazon.optional(),
  google: AccountBlocks.google.optional(),
  azure: AccountBlocks.azure.optional(),
  chainguard: AccountBlocks.chainguard.optional(),
  github: AccountBlocks.github.optional(),
  ...times,
});
export type AccountAssociation = z.infer<typeof AccountAssociation>;

/** A group invite. `code` is present only in the create response: it is a secret. */
export const GroupInvite = z.looseObject({
  uid: z.string(),
  roleUid: z.string(),
  email: z.string().default(""),
  singleUse: z.boolean().default(false),
  expirationTime: z.string(),
  keyId: z.string(),
  code: z.string().optional(),
  createTime: z.string(),
});
export type GroupInvite = z.infer<typeof GroupInvite>;

export const Repo = z.looseObject({
  uid: z.string(),
  name: z.string(),
  description: z.string().default(""),
  catalogTier: z.string().default(""),
  aliases: z.array(z.string()).default([]),
  bundles: z.array(z.string()).default([]),
  activeTags: z.array(z.string()).default([]),
  /** irv-server: `public` repos (and their tags) are readable without a token. */
  visibility: z.string().optional(),
  ...times,
});
export type Repo = z.infer<typeof Repo>;

export const Tag = z.looseObject({
  uid: z.string(),
  name: z.string(),
  digest: z.string(),
  lastUpdated: z.string(),
  deprecated: z.boolean().default(false),
  bundles: z.array(z.string()).default([]),
  createTime: z.string().optional(),
});
export type Tag = z.infer<typeof Tag>;

export const Advisory = z.looseObject({
  uid: z.string(),
  advisoryId: z.string(),
  aliases: z.array(z.string()).default([]),
  artifactName: z.string().default(""),
  artifactType: z.string().default(""),
  artifactArchitecture: z.string().default(""),
  componentName: z.string().default(""),
  componentType: z.string().default(""),
  componentLocation: z.string().default(""),
  severities: z.array(z.looseObject({ source: z.string(), score: z.number().optional(), level: z.string().optional() })).default([]),
  events: z.array(z.looseObject({ type: z.string(), time: z.string() })).default([]),
  ...times,
});
export type Advisory = z.infer<typeof Advisory>;

/** The list envelope: the array is named after the collection; `totalCount` is a decimal string. */
export function listOf<K extends string, T extends z.ZodType>(key: K, item: T) {
  return z.looseObject({
    [key]: z.array(item).default([]),
    nextPageToken: z.string().optional(),
    totalCount: z.string().default("0"),
    skipped: z.number().int().default(0),
  } as { [P in K]: z.ZodDefault<z.ZodArray<T>> } & {
    nextPageToken: z.ZodOptional<z.ZodString>;
    totalCount: z.ZodDefault<z.ZodString>;
    skipped: z.ZodDefault<z.ZodNumber>;
  });
}
