import { z } from "zod";
import * as f from "../fields";
import { common, defineKind } from "./definition";
import type { Known } from "./derive";

/** The OIDC connection as requests carry it. */
export const Oidc = z.strictObject({
  issuer: f.issuerUrl.describe("The OIDC issuer URL (https; plain http only on a loopback host)."),
  clientId: z.string().min(1, "must not be empty").describe("The OAuth client id registered with the issuer."),
  /** Write-only: never returned. On update, empty keeps the old secret unless the mask names it. */
  clientSecret: z.string().describe("The OAuth client secret: write-only on the API, never read back.").optional(),
  additionalScopes: z.array(z.string().min(1)).optional().describe("Scopes to request besides `openid`."),
});
export type Oidc = z.infer<typeof Oidc>;

/** The connection as a create body carries it: the client secret is required. */
export type OidcInput = z.input<(typeof identityProviders)["fields"]["oidc"]["schema"]>;
/** The connection as outputs show it: the API's members, and the client secret the program set. */
export type OidcOutput = Known<z.output<(typeof identityProviders)["fields"]["oidc"]["read"]>> & { clientSecret?: string };

export const identityProviders = defineKind({
  kind: "identityProviders",
  className: "IdentityProvider",
  label: "identity provider",
  description: "An OIDC identity provider people sign in with.",
  parentField: "groupUid",
  capability: "identity_providers",
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
    importNotes: ["The client secret is not imported (the API never returns it). A program without one previews no change; once the program states one, the next `pulumi up` writes it."],
  },
  fields: {
    groupUid: common.groupUid("The group it lives in."),
    name: common.name("The identity provider's name."),
    description: common.description,
    defaultRoleUid: {
      type: "string",
      description: "The role new users get (uid).",
      input: true,
      wire: "defaultRole",
      default: "",
      refersTo: "roles",
      schema: f.uid.optional(),
      read: z.string().default(""),
    },
    // `clientSecret` (write-only on the API) is secret; the plugin keeps issuer, clientId and
    // additionalScopes readable, the dynamic classes keep the whole block secret.
    oidc: {
      type: "Oidc",
      argType: "pulumi.Input<OidcArgs>",
      description: "The OIDC connection: issuer, clientId, clientSecret (write-only), additionalScopes.",
      input: true,
      block: true,
      secretMembers: ["clientSecret"],
      writeOnlyMembers: ["clientSecret"],
      // A create needs the secret; an update names only what changes.
      schema: Oidc.extend({ clientSecret: Oidc.shape.clientSecret.unwrap().min(1, "must not be empty") }).meta({
        id: "Oidc",
        description: "An identity provider's OIDC connection.",
      }),
      update: Oidc.partial(),
      /** The client secret is write-only and never appears here. */
      read: z.looseObject({ issuer: z.string(), clientId: z.string(), additionalScopes: z.array(z.string()).default([]) }),
    },
    createTime: common.createTime,
    updateTime: common.updateTime,
  },
});
