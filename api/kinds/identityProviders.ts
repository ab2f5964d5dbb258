import { z } from "zod";
import * as f from "../fields";
import { common, numbered, scalar, named } from "./common";
import { once } from "../once";
import { defineKind, IAM_PACKAGE } from "./definition";
import type { Known } from "./derive";

/** How an OIDC login is matched to the user SCIM provisioned (`OIDC.CorrelationRule`); fixed once created. */
export const CORRELATION_RULES = {
  CORRELATION_RULE_UNSPECIFIED: 0,
  CORRELATION_RULE_SUB_EQUALS_EXTERNAL_ID: 1,
  CORRELATION_RULE_OID_EQUALS_EXTERNAL_ID: 2,
} as const;
/** The rule a value means: unset is `CORRELATION_RULE_SUB_EQUALS_EXTERNAL_ID` (the protos say so). */
export function correlationRuleOf(v: unknown): string {
  return typeof v !== "string" || v === "" || v === "CORRELATION_RULE_UNSPECIFIED" ? "CORRELATION_RULE_SUB_EQUALS_EXTERNAL_ID" : v;
}

const correlationRule = once(() =>
  z.enum(Object.keys(CORRELATION_RULES) as [keyof typeof CORRELATION_RULES, ...(keyof typeof CORRELATION_RULES)[]]).meta({
    id: "CorrelationRule",
    description: "How an OIDC login is matched to a SCIM-provisioned user: the OIDC `sub` (or Entra's `oid`) equals the SCIM externalId.",
  }),
);

/** SCIM provisioning status, as the API reports it. */
export const scim = once(() =>
  z
    .looseObject({
      enabled: z.boolean().default(false).describe("Whether SCIM provisioning is on."),
      endpointUrl: z.string().optional().describe("The SCIM endpoint for this identity provider."),
      tokenExpireTime: z.string().optional().describe("When the current SCIM token stops working (RFC 3339)."),
      previousTokenExpireTime: z.string().optional().describe("When the previous token stops working, during a rotation (RFC 3339)."),
      credentialState: z.string().optional().describe("The SCIM token's state: `CREDENTIAL_STATE_LIVE`, `CREDENTIAL_STATE_NOT_ISSUED`, ..."),
      etag: z.string().optional().describe("A version for concurrent changes."),
    })
    .meta({ id: "IdentityProviderScim", description: "An identity provider's SCIM provisioning status." }),
);
export type Scim = Known<z.output<ReturnType<typeof scim>>>;

/** The OIDC connection as requests carry it. */
export const oidc = once(() =>
  z.strictObject({
    issuer: f.issuerUrl().describe("The OIDC issuer URL (https; plain http only on a loopback host)."),
    clientId: z.string().min(1, "must not be empty").describe("The OAuth client id registered with the issuer."),
    /** Write-only: never returned. On update, empty keeps the old secret unless the mask names it. */
    clientSecret: z
      .string()
      .describe("The OAuth client secret: write-only on the API, never read back. A public client (`pkceEnabled`) may have none.")
      .optional(),
    additionalScopes: z.array(z.string().min(1)).optional().describe("Scopes to request besides `openid`."),
    groupsClaim: z.string().optional().describe("The token claim that carries the user's group memberships (`groups`), for group-based role mapping."),
    correlationRule: correlationRule()
      .optional()
      .describe("How a login is matched to a SCIM-provisioned user; fixed once created (changing it replaces the identity provider)."),
    pkceEnabled: z.boolean().optional().describe("Use PKCE when exchanging authorization codes (a public client needs no client secret)."),
  }),
);
export type Oidc = z.infer<ReturnType<typeof oidc>>;

/** The connection as a create body carries it: the client secret is required. */
export type OidcInput = z.input<(typeof identityProviders)["fields"]["oidc"]["schema"]>;
/** The connection as outputs show it: the API's members, and the client secret the program set. */
export type OidcOutput = Known<z.output<(typeof identityProviders)["fields"]["oidc"]["read"]>> & { clientSecret?: string };

export const identityProviders = defineKind({
  kind: "identityProviders",
  module: "iam",
  className: "IdentityProvider",
  label: "identity provider",
  description: "An OIDC identity provider people sign in with.",
  parentField: "groupUid",
  proto: {
    package: IAM_PACKAGE,
    service: "IdentityProvidersService",
    message: "IdentityProvider",
    uid: 1,
    list: { filters: { name: { number: 2, type: "string" } }, paging: [10, 11, 12, 13] },
    messages: [
      {
        name: "IdentityProvider.OIDC",
        fields: {
          issuer: { number: 1, type: "string", behavior: ["REQUIRED"] },
          clientId: { number: 2, type: "string", behavior: ["REQUIRED"] },
          clientSecret: { number: 3, type: "string" },
          additionalScopes: { number: 4, type: "string", repeated: true },
          groupsClaim: { number: 5, type: "string" },
          correlationRule: { number: 6, type: "IdentityProvider.OIDC.CorrelationRule", behavior: ["OPTIONAL", "IMMUTABLE"] },
          pkceEnabled: { number: 7, type: "bool" },
        },
      },
      {
        name: "IdentityProvider.SCIM",
        fields: {
          enabled: { number: 1, type: "bool", behavior: ["OUTPUT_ONLY"] },
          endpointUrl: { number: 3, type: "string", behavior: ["OUTPUT_ONLY"] },
          tokenExpireTime: { number: 4, type: "google.protobuf.Timestamp", behavior: ["OUTPUT_ONLY"] },
          previousTokenExpireTime: { number: 5, type: "google.protobuf.Timestamp", behavior: ["OUTPUT_ONLY"] },
          credentialState: { number: 6, type: "IdentityProvider.SCIM.CredentialState", behavior: ["OUTPUT_ONLY"] },
          etag: { number: 7, type: "string", behavior: ["OUTPUT_ONLY"] },
        },
      },
    ],
    enums: [
      { name: "IdentityProvider.OIDC.CorrelationRule", values: CORRELATION_RULES },
      {
        name: "IdentityProvider.SCIM.CredentialState",
        values: {
          CREDENTIAL_STATE_UNSPECIFIED: 0,
          CREDENTIAL_STATE_NOT_ISSUED: 1,
          CREDENTIAL_STATE_LIVE: 2,
          CREDENTIAL_STATE_EXPIRED: 3,
          CREDENTIAL_STATE_REVOKED: 4,
          CREDENTIAL_STATE_ROTATING: 5,
        },
      },
    ],
  },
  capability: "identity_providers",
  events: {
    created: "dev.chainguard.api.iam.identity_providers.created.v1",
    updated: "dev.chainguard.api.iam.identity_providers.updated.v1",
    deleted: "dev.chainguard.api.iam.identity_providers.deleted.v1",
  },
  example: {
    name: "sso",
    inputs: {
      groupUid: "${group}",
      name: "acme-sso",
      description: "Company single sign-on",
      defaultRoleUid: "${role}",
      oidc: { issuer: "https://login.acme.example", clientId: "irv-platform", clientSecret: "${ssoClientSecret}", additionalScopes: ["email", "profile"] },
    },
    notes: [
      "`oidc.clientSecret` is write-only on the API: it is never read back, so its drift cannot be seen. Creating an identity provider needs it.",
      "The dynamic classes (`pulumi-irv`) keep the whole `oidc` block secret in state; the resource plugin keeps only `clientSecret` secret.",
    ],
    importNotes: [
      "The client secret is not imported (the API never returns it). A program without one previews no change; once the program states one, the next `pulumi up` writes it.",
    ],
  },
  fields: () => ({
    groupUid: common.groupUid("The group it lives in."),
    name: common.name("The identity provider's name: 3 to 63 characters.", 2, f.shortName()),
    description: numbered.description(3),
    defaultRoleUid: scalar(
      { number: 6, name: "default_role", type: "string", behavior: ["REQUIRED"] },
      {
        description: "The role users get on their first sign-in (uid).",
        input: true,
        refersTo: "roles",
        schema: f.uid(),
        read: z.string().default(""),
      },
    ),
    // `clientSecret` (write-only on the API) is secret; the plugin keeps issuer, clientId and
    // additionalScopes readable, the dynamic classes keep the whole block secret.
    oidc: named({
      argType: "pulumi.Input<OidcArgs>",
      description: "The OIDC connection: issuer, clientId, clientSecret (write-only), additionalScopes.",
      input: true,
      block: true,
      proto: { number: 20, type: "IdentityProvider.OIDC", oneof: "configuration" },
      secretMembers: ["clientSecret"],
      writeOnlyMembers: ["clientSecret"],
      // A create needs a secret unless the client is public (PKCE); an update names only what changes.
      schema: oidc()
        .extend({ clientSecret: oidc().shape.clientSecret.unwrap().min(1, "must not be empty").optional() })
        .superRefine((o, ctx) => {
          if (o.clientSecret === undefined && !o.pkceEnabled)
            ctx.addIssue({ code: "custom", path: ["clientSecret"], message: "is required unless pkceEnabled is true (a public client)" });
        })
        .meta({ id: "Oidc", description: "An identity provider's OIDC connection." }),
      update: oidc().partial(),
      /** The client secret is write-only: never here (the gateway writes an empty string). */
      read: z.looseObject({
        issuer: z.string(),
        clientId: z.string(),
        additionalScopes: z.array(z.string()).default([]),
        groupsClaim: z.string().optional(),
        correlationRule: z.string().optional(),
        pkceEnabled: z.boolean().optional(),
      }),
    }),
    scim: {
      type: "Scim",
      description: "SCIM provisioning status, as the API reports it; managed by its own methods, not by this resource.",
      proto: { number: 21, type: "IdentityProvider.SCIM", behavior: ["OUTPUT_ONLY"] },
      read: scim().optional(),
    },
    createTime: numbered.createTime(4),
    updateTime: numbered.updateTime(5),
  }),
});
