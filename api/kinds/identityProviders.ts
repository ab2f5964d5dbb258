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
    // Secret as a whole: Pulumi cannot mark one member of an object secret, and `clientSecret`
    // (write-only on the API) lives in it.
    oidc: { type: "Oidc", description: "The OIDC connection: issuer, clientId, clientSecret (write-only), additionalScopes.", input: true, block: true, secret: true },
    createTime: common.createTime,
    updateTime: common.updateTime,
  },
});
