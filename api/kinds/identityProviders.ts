import { common, defineKind } from "./definition";

export const identityProviders = defineKind({
  kind: "identityProviders",
  className: "IdentityProvider",
  label: "identity provider",
  parentField: "groupUid",
  capability: "identity_providers",
  fields: {
    groupUid: common.groupUid("The group it lives in."),
    name: common.name("The identity provider's name."),
    description: common.description,
    defaultRoleUid: { type: "string", description: "The role new users get (uid).", input: true, wire: "defaultRole", default: "", refersTo: "roles" },
    // `clientSecret` (write-only on the API) is secret; the plugin keeps issuer, clientId and
    // additionalScopes readable, the dynamic classes keep the whole block secret.
    oidc: { type: "Oidc", description: "The OIDC connection: issuer, clientId, clientSecret (write-only), additionalScopes.", input: true, block: true, secretMembers: ["clientSecret"], writeOnlyMembers: ["clientSecret"] },
    createTime: common.createTime,
    updateTime: common.updateTime,
  },
});
