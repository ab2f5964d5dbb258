import { defineKind } from "./definition";

export const groups = defineKind({
  kind: "groups",
  className: "Group",
  label: "group",
  parentField: "parentUid",
  capability: "groups",
  fields: {
    parentUid: { type: "string", description: "The parent group's uid (the organization's uid for a top-level group).", input: true, replace: true, refersTo: "groups" },
    name: { type: "string", description: "The name: lowercase letters, digits, space, `.`, `_` and `-`.", input: true },
    description: { type: "string", description: "Free text.", input: true, default: "" },
    verified: { type: "boolean", description: "Whether the platform has verified the group." },
    resourceLimits: { type: "Record<string, unknown>", description: "Resource limits as the API reports them." },
    createTime: { type: "string", description: "When it was created (RFC 3339)." },
    updateTime: { type: "string", description: "When it last changed (RFC 3339)." },
  },
});
