import { defineKind } from "./definition";

export const identityProviders = defineKind({
  kind: "identityProviders",
  className: "IdentityProvider",
  label: "identity provider",
  parentField: "groupUid",
  capability: "identity_providers",
  fields: {
    groupUid: { type: "string", description: "The group it lives in.", input: true, replace: true, refersTo: "groups" },
    name: { type: "string", description: "The identity provider's name.", input: true },
    description: { type: "string", description: "Free text.", input: true, default: "" },
    defaultRoleUid: { type: "string", description: "The role new users get (uid).", input: true, wire: "defaultRole", default: "", refersTo: "roles" },
    // Secret as a whole: Pulumi cannot mark one member of an object secret, and `clientSecret`
    // (write-only on the API) lives in it.
    oidc: { type: "Oidc", description: "The OIDC connection: issuer, clientId, clientSecret (write-only), additionalScopes.", input: true, block: true, secret: true },
    createTime: { type: "string", description: "When it was created (RFC 3339)." },
    updateTime: { type: "string", description: "When it last changed (RFC 3339)." },
  },
});
