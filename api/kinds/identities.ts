import { common, defineKind } from "./definition";

export const identities = defineKind({
  kind: "identities",
  className: "Identity",
  label: "identity",
  parentField: "groupUid",
  capability: "identity",
  fields: {
    groupUid: common.groupUid("The owning group's uid."),
    name: common.name("The identity's name."),
    description: common.description,
    // Masked as whole blocks: their members constrain each other (issuer or issuerPattern, ...),
    // and the API updates an identity's type block as a unit.
    claimMatch: { type: "ClaimMatch", description: "Who may assume it: an external OIDC token's issuer and subject (exact or pattern).", input: true },
    staticKeys: { type: "StaticKeys", description: "Tokens signed by the given keys.", input: true },
    awsIdentity: { type: "AwsIdentity", description: "An AWS principal.", input: true },
    servicePrincipal: { type: "ServicePrincipal", description: "A platform service.", input: true },
    lastSeenTime: { type: "string", description: "When it was last used (RFC 3339)." },
    createTime: common.createTime,
    updateTime: common.updateTime,
  },
});
