import { common, defineKind } from "./definition";

export const roleBindings = defineKind({
  kind: "roleBindings",
  className: "RoleBinding",
  label: "role binding",
  parentField: "groupUid",
  capability: "role_bindings",
  fields: {
    groupUid: common.groupUid("The group the grant applies to (and everything below it)."),
    identityUid: { type: "string", description: "The identity granted the role; changes in place.", input: true, refersTo: "identities" },
    roleUid: { type: "string", description: "The role granted; changes in place.", input: true, refersTo: "roles" },
    identity: { type: "BoundIdentity", description: "The bound identity as the API hydrates it." },
    group: { type: "BoundRef", description: "The group as the API hydrates it." },
    role: { type: "BoundRef", description: "The role as the API hydrates it." },
    createTime: common.createTime,
  },
});
