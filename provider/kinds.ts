/**
 * Every resource kind, once. The provider exports one dynamic provider per `kind`, the SDK builds
 * one resource class per entry (`iam.<className>`, type `pulumi-nodejs:dynamic/irv:<className>`),
 * and the tests walk this list so a new kind cannot go untested.
 */
export const KINDS = [
  { kind: "groups", className: "Group", label: "group", parentField: "parentUid", secretOutputs: [] },
  { kind: "identities", className: "Identity", label: "identity", parentField: "groupUid", secretOutputs: [] },
  { kind: "roles", className: "Role", label: "role", parentField: "groupUid", secretOutputs: [] },
  { kind: "roleBindings", className: "RoleBinding", label: "role binding", parentField: "groupUid", secretOutputs: [] },
  { kind: "identityProviders", className: "IdentityProvider", label: "identity provider", parentField: "groupUid", secretOutputs: ["oidc"] },
  { kind: "accountAssociations", className: "AccountAssociation", label: "account association", parentField: "groupUid", secretOutputs: [] },
  { kind: "groupInvites", className: "GroupInvite", label: "group invite", parentField: "groupUid", secretOutputs: ["code"] },
] as const;

/** A resource kind's name; also the name of its API collection. */
export type Kind = (typeof KINDS)[number]["kind"];

/** The entry of `kind`. */
export function kindInfo(kind: Kind): (typeof KINDS)[number] {
  return KINDS.find((k) => k.kind === kind)!;
}
