import { defineKind } from "./definition";

export const roles = defineKind({
  kind: "roles",
  className: "Role",
  label: "role",
  parentField: "groupUid",
  capability: "roles",
  fields: {
    groupUid: { type: "string", description: "The group the role lives in.", input: true, replace: true, refersTo: "groups" },
    name: { type: "string", description: "The role's name.", input: true },
    description: { type: "string", description: "Free text.", input: true, default: "" },
    capabilities: { type: "Capability[]", description: "Capability names (`groups.list`, `identity.create`, ...), compared as a set.", input: true },
    createTime: { type: "string", description: "When it was created (RFC 3339)." },
    updateTime: { type: "string", description: "When it last changed (RFC 3339)." },
  },
});
