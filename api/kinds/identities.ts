import { z } from "zod";
import * as f from "../fields";
import { withSuggestion } from "../suggest";
import { ISSUER_KEYS_MAX, ISSUER_KEYS_MAX_CHARS } from "../jwk";
import { common, numbered, scalar, oneOf, text, textMap, named, type InputIssue } from "./common";
import { once } from "../once";
import { defineKind, IAM_PACKAGE, type ProtoField } from "./definition";

const nonEmpty = () => z.string().min(1, "must not be empty");

export const claimMatch = once(() =>
  z
    .strictObject({
      issuer: f.issuerUrl().optional().describe("The token's exact `iss` (https; plain http only on a loopback host). Give this or `issuerPattern`."),
      issuerPattern: f.pattern().optional().describe("An RE2 pattern the whole `iss` must match. Give this or `issuer`."),
      subject: nonEmpty().optional().describe("The token's exact `sub`. Give this or `subjectPattern`."),
      subjectPattern: f.pattern().optional().describe("An RE2 pattern the whole `sub` must match. Give this or `subject`."),
      audience: nonEmpty()
        .optional()
        .describe("An audience `aud` must contain. At most one of this and `audiencePattern`; with neither, `aud` must contain the API URL."),
      audiencePattern: f.pattern().optional().describe("An RE2 pattern one of the token's audiences must match. At most one of this and `audience`."),
      claims: f
        .map(z.string().max(f.PATTERN_MAX, `must be at most ${f.PATTERN_MAX} characters`))
        .optional()
        .describe("Further claims the token must carry, as exact string values."),
      claimPatterns: f.map(f.pattern()).optional().describe("Further claims the token must carry, as RE2 patterns the whole string value must match."),
    })
    .superRefine((v, ctx) => {
      oneOf(v, ctx, ["issuer", "issuerPattern"]);
      oneOf(v, ctx, ["subject", "subjectPattern"]);
      oneOf(v, ctx, ["audience", "audiencePattern"], true);
    })
    .meta({
      id: "ClaimMatch",
      description:
        "Which external OIDC tokens may assume an identity: their issuer and subject (exact or pattern), and optionally audience and further claims.",
    }),
);
export type ClaimMatch = z.infer<ReturnType<typeof claimMatch>>;

/** Members that only private or symmetric JWKs have: an issuer's keys must never carry them. */
const PRIVATE_JWK_MEMBERS = ["d", "p", "q", "dp", "dq", "qi", "k", "oth"];

/**
 * `issuerKeys`, as the platform takes it: any string (its own acceptance tests store `"keys"`;
 * what cannot verify a token verifies none at the exchange). irv-server's own rules: bounded in
 * size and keys, and a JWKS document must not hold private or secret key material, which reads
 * and state would show in plaintext.
 */
const jwks = once(() =>
  z
    .string()
    .min(1, "must not be empty")
    .max(ISSUER_KEYS_MAX_CHARS, `must be at most ${ISSUER_KEYS_MAX_CHARS} characters`)
    .superRefine((s, ctx) => {
      let doc: { keys?: unknown };
      try {
        doc = JSON.parse(s);
      } catch {
        return;
      }
      if (!Array.isArray(doc?.keys)) return;
      if (doc.keys.length > ISSUER_KEYS_MAX) ctx.addIssue({ code: "custom", message: `must hold at most ${ISSUER_KEYS_MAX} keys` });
      doc.keys.forEach((key, i) => {
        const secret = PRIVATE_JWK_MEMBERS.filter((m) => key && typeof key === "object" && m in key);
        if (secret.length) ctx.addIssue({ code: "custom", message: `key ${i} holds private key material (${secret.join(", ")}): give public keys only` });
      });
    }),
);

export const staticKeys = once(() =>
  z
    .strictObject({
      issuer: f.issuerUrl().describe("The `iss` of the tokens (https; plain http only on a loopback host)."),
      subject: nonEmpty().describe("The `sub` of the tokens."),
      issuerKeys: jwks().describe(
        'The public keys that sign the tokens: a JWKS document as a string (`{"keys": [...]}`). The API stores any string; only public RSA (2048 bits or more), EC and OKP keys verify tokens.',
      ),
      expirationTime: f
        .timestamp()
        .optional()
        .describe(
          `When the keys stop being accepted (RFC 3339): at most ${f.STATIC_KEYS_MAX_DAYS} days after the identity's creation, and that by default (the API sets it; omitting it is no change).`,
        ),
      audiences: z
        .array(z.string().min(1, "must not be empty"))
        .max(1, "takes exactly one audience (the platform reads one; the field is a list for later)")
        .optional()
        .describe(
          "The one audience the tokens must carry (the API takes exactly one). Without it, the platform's allowed audiences: its issuer's host name, or the API URL.",
        ),
    })
    .meta({ id: "StaticKeys", description: "Tokens signed by the given keys may assume an identity, until the keys expire." }),
);
export type StaticKeys = z.infer<ReturnType<typeof staticKeys>>;

/**
 * The problem of static keys' expiration at `now`: in the past, or more than STATIC_KEYS_MAX_DAYS
 * after the identity's creation at `created` (a new one's: `now`), as the platform bounds it. The
 * server refuses it; check reports it at preview (values not yet known are skipped).
 */
export function staticKeysIssues(
  i: { staticKeys?: { expirationTime?: unknown } },
  now: number,
  known: (v: string) => boolean = () => true,
  created: number = now,
): InputIssue[] {
  const exp = i.staticKeys?.expirationTime;
  if (typeof exp !== "string" || !known(exp)) return [];
  const t = Date.parse(exp);
  const limit = created + f.STATIC_KEYS_MAX_DAYS * 86_400_000;
  const problem =
    t <= now
      ? "must be in the future"
      : t > limit
        ? `must be at most ${f.STATIC_KEYS_MAX_DAYS} days after the identity's creation${created === now ? "" : ` (${new Date(limit).toISOString()})`}`
        : undefined;
  return problem ? [{ path: ["staticKeys", "expirationTime"], message: problem }] : [];
}

/** The expiration static keys get when a request gives none: STATIC_KEYS_MAX_DAYS after the identity's creation. */
export function defaultKeysExpiration(createTime: string): string {
  return new Date(Date.parse(createTime) + f.STATIC_KEYS_MAX_DAYS * 86_400_000).toISOString();
}

/** Whether the keys `sk` are no longer accepted at `now`. */
export function keysExpired(sk: StaticKeys, now: number): boolean {
  return sk.expirationTime !== undefined && Date.parse(sk.expirationTime) <= now;
}

export const awsIdentity = once(() =>
  z
    .strictObject({
      awsAccount: f.awsAccount().describe("The AWS account id: 12 digits."),
      arn: z.string().min(1).optional().describe("The principal's exact ARN. Give this or `arnPattern`."),
      arnPattern: f.pattern().optional().describe("An RE2 pattern the whole ARN must match. Give this or `arn`."),
      userId: z.string().min(1).optional().describe("The principal's exact user id. At most one of this and `userIdPattern`."),
      userIdPattern: f.pattern().optional().describe("An RE2 pattern the whole user id must match. At most one of this and `userId`."),
    })
    .superRefine((v, ctx) => {
      oneOf(v, ctx, ["arn", "arnPattern"]);
      oneOf(v, ctx, ["userId", "userIdPattern"], true);
    })
    .meta({ id: "AwsIdentity", description: "An AWS principal that may assume an identity." }),
);
export type AwsIdentity = z.infer<ReturnType<typeof awsIdentity>>;

const SP_PREFIX = "SERVICE_PRINCIPAL_";
type WireServicePrincipal = (typeof f.SERVICE_PRINCIPALS)[number];
type ShortServicePrincipal = WireServicePrincipal extends `${typeof SP_PREFIX}${infer S}` ? S : never;
/** The service principals as the Terraform provider (and the v1 API) spells them: `INGESTER`. */
const SHORT_SERVICE_PRINCIPALS = f.SERVICE_PRINCIPALS.map((p) => p.slice(SP_PREFIX.length));

/**
 * A platform service principal, as a program may give it: the API's enum name
 * (`SERVICE_PRINCIPAL_COSIGNED`) or the Terraform provider's spelling (`COSIGNED`), which the
 * provider sends as the enum name. The API returns enum names.
 */
export type ServicePrincipal = WireServicePrincipal | ShortServicePrincipal;
export const servicePrincipal = once(() =>
  z
    .enum(f.SERVICE_PRINCIPALS, {
      error: (iss) =>
        withSuggestion(`is not a service principal: one of ${SHORT_SERVICE_PRINCIPALS.join(", ")}, with or without the ${SP_PREFIX} prefix`, iss.input, [
          ...f.SERVICE_PRINCIPALS,
          ...SHORT_SERVICE_PRINCIPALS,
        ]),
    })
    .meta({
      id: "ServicePrincipal",
      description:
        "A platform service an identity can stand for: the API's enum name, such as `SERVICE_PRINCIPAL_COSIGNED` (`COSIGNED`, as the Terraform provider writes it, is taken too).",
    }),
);

/** A short service principal (`INGESTER`) as the API's enum name; anything else as it is. */
const servicePrincipalCodec = {
  toWire: (v: unknown) => (typeof v === "string" && SHORT_SERVICE_PRINCIPALS.includes(v) ? `${SP_PREFIX}${v}` : v),
  fromWire: (v: unknown) => v,
};

/**
 * The relationship types as returned: the members above, none of their rules, so a newer
 * server's value (a new service principal, a timestamp without milliseconds) still reads.
 */
const read = once(() => ({
  claimMatch: z.looseObject({
    issuer: text(),
    issuerPattern: text(),
    subject: text(),
    subjectPattern: text(),
    audience: text(),
    audiencePattern: text(),
    claims: textMap(),
    claimPatterns: textMap(),
  }),
  staticKeys: z.looseObject({
    issuer: z.string(),
    subject: z.string(),
    issuerKeys: z.string(),
    expirationTime: text(),
    audiences: z.array(z.string()).optional(),
  }),
  awsIdentity: z.looseObject({ awsAccount: z.string(), arn: text(), arnPattern: text(), userId: text(), userIdPattern: text() }),
}));

/** The four ways an identity can be assumed (its relationship types); an identity has exactly one. */
export const RELATIONSHIP_TYPES = ["claimMatch", "staticKeys", "awsIdentity", "servicePrincipal"] as const;
export type RelationshipType = (typeof RELATIONSHIP_TYPES)[number];

/** The relationship type an identity's inputs, outputs or item take: the first of the four that is set, or undefined. */
export function relationshipTypeOf(v: Partial<Record<RelationshipType, unknown>>): RelationshipType | undefined {
  return RELATIONSHIP_TYPES.find((t) => v[t] !== undefined && v[t] !== null && v[t] !== "");
}

/** The members of the relationship blocks, in the platform's messages. */
const str = (number: number, oneof?: string): ProtoField => ({ number, type: "string", ...(oneof ? { oneof } : {}) });
const PROTO_MESSAGES = [
  {
    name: "Identity.ClaimMatch",
    fields: {
      issuer: str(1, "iss"),
      issuerPattern: str(2, "iss"),
      subject: str(3, "sub"),
      subjectPattern: str(4, "sub"),
      audience: str(5, "aud"),
      audiencePattern: str(6, "aud"),
      claims: { number: 7, type: "string", keyType: "string" },
      claimPatterns: { number: 8, type: "string", keyType: "string" },
    },
  },
  {
    name: "Identity.StaticKeys",
    fields: {
      issuer: str(1),
      subject: str(2),
      issuerKeys: str(3),
      expirationTime: { number: 4, type: "google.protobuf.Timestamp" },
      audiences: { number: 5, type: "string", repeated: true },
    },
  },
  {
    name: "Identity.AWSIdentity",
    fields: { awsAccount: str(1), arn: str(2, "aws_arn"), arnPattern: str(3, "aws_arn"), userId: str(4, "aws_user_id"), userIdPattern: str(5, "aws_user_id") },
  },
] as const;

/** The API's `RelationshipType` enum (the identities List's `relationship_type` filter), by relationship type. */
export const RELATIONSHIP_TYPE_ENUM = {
  claimMatch: "RELATIONSHIP_TYPE_CLAIM_MATCH",
  staticKeys: "RELATIONSHIP_TYPE_STATIC",
  awsIdentity: "RELATIONSHIP_TYPE_AWS_IDENTITY",
  servicePrincipal: "RELATIONSHIP_TYPE_SERVICE_PRINCIPAL",
} as const;

export const identities = defineKind({
  kind: "identities",
  module: "iam",
  className: "Identity",
  label: "identity",
  parentField: "groupUid",
  proto: {
    package: IAM_PACKAGE,
    service: "IdentitiesService",
    message: "Identity",
    uid: 1,
    list: { filters: { name: { number: 2, type: "string" }, relationship_type: { number: 3, type: "RelationshipType" } }, paging: [4, 5, 6, 7] },
    messages: PROTO_MESSAGES,
    enums: [
      { name: "ServicePrincipal", values: { SERVICE_PRINCIPAL_UNSPECIFIED: 0, ...f.SERVICE_PRINCIPAL_NUMBERS } },
      {
        name: "RelationshipType",
        values: {
          RELATIONSHIP_TYPE_UNSPECIFIED: 0,
          RELATIONSHIP_TYPE_CLAIM_MATCH: 1,
          RELATIONSHIP_TYPE_STATIC: 2,
          RELATIONSHIP_TYPE_AWS_IDENTITY: 3,
          RELATIONSHIP_TYPE_SERVICE_PRINCIPAL: 4,
        },
      },
    ],
  },
  capability: "identity",
  events: {
    created: "dev.chainguard.api.iam.identity.created.v1",
    updated: "dev.chainguard.api.iam.identity.updated.v1",
    deleted: "dev.chainguard.api.iam.identity.deleted.v1",
  },
  description: "An identity that workloads or services assume. Changing its relationship type replaces it.",
  exactlyOne: RELATIONSHIP_TYPES,
  example: {
    name: "release-ci",
    inputs: {
      groupUid: "${group}",
      name: "release-ci",
      description: "GitHub Actions jobs on acme/product's main branch",
      claimMatch: { issuer: "https://token.actions.githubusercontent.com", subject: "repo:acme/product:ref:refs/heads/main" },
    },
    notes: [
      "Changing which relationship type an identity takes replaces it.",
      "Patterns (`issuerPattern`, `subjectPattern`, ...) are RE2, the platform's syntax: no backreferences or lookaround.",
    ],
  },
  fields: () => ({
    groupUid: common.groupUid("The owning group's uid."),
    name: common.name("The identity's name: 3 to 63 characters.", 2, f.shortName()),
    description: numbered.description(3),
    // Masked as whole blocks: their members constrain each other (issuer or issuerPattern, ...),
    // and the API updates an identity's type block as a unit.
    claimMatch: named({
      description: "Who may assume it: an external OIDC token's issuer and subject (exact or pattern).",
      input: true,
      proto: { number: 20, type: "Identity.ClaimMatch", oneof: "relationship" },
      schema: claimMatch().optional(),
      read: read().claimMatch.optional(),
    }),
    staticKeys: named({
      description: "Tokens signed by the given keys.",
      input: true,
      proto: { number: 21, type: "Identity.StaticKeys", oneof: "relationship" },
      computedMembers: ["expirationTime"],
      schema: staticKeys().optional(),
      read: read().staticKeys.optional(),
    }),
    awsIdentity: named({
      description: "An AWS principal.",
      input: true,
      proto: { number: 22, type: "Identity.AWSIdentity", oneof: "relationship" },
      schema: awsIdentity().optional(),
      read: read().awsIdentity.optional(),
    }),
    servicePrincipal: named({
      description: "A platform service (`SERVICE_PRINCIPAL_COSIGNED`, ...; `COSIGNED`, as the Terraform provider writes it, is taken too).",
      input: true,
      proto: { number: 23, type: "ServicePrincipal", oneof: "relationship" },
      codec: servicePrincipalCodec,
      schema: servicePrincipal().optional(),
      read: z.string().optional(),
    }),
    company: scalar(
      { number: 6, type: "string", behavior: ["OPTIONAL"] },
      {
        description: "The company it belongs to, free text (the platform sets a person's from their sign-up).",
        input: true,
        default: "",
        schema: f.description().optional(),
      },
    ),
    email: scalar(
      { number: 4, type: "string", behavior: ["OUTPUT_ONLY"] },
      {
        description: "Its verified email, if any: a person's, from their sign-in.",
        read: z.string().default(""),
      },
    ),
    emailUnverified: scalar(
      { number: 5, type: "string", behavior: ["OUTPUT_ONLY"] },
      {
        description: "An email its sign-in reported without verifying it, if any: a person's.",
        read: z.string().default(""),
      },
    ),
    lastSeenTime: scalar(
      { number: 8, type: "google.protobuf.Timestamp", behavior: ["OUTPUT_ONLY"] },
      {
        description: "When it last federated (RFC 3339): its last token exchange or sign-in; its creation time until then.",
        read: z.string().optional(),
      },
    ),
    createTime: numbered.createTime(9),
    updateTime: numbered.updateTime(10),
  }),
});
