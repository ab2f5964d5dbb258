import { z } from "zod";
import * as f from "../fields";
import { common, defineKind } from "./definition";

export const groups = defineKind({
  kind: "groups",
  className: "Group",
  label: "group",
  description: "A group in the organization's hierarchy.",
  parentField: "parentUid",
  capability: "groups",
  example: {
    name: "engineering",
    inputs: { parentUid: "${organization}", name: "engineering", description: "Everyone who builds the product" },
    notes: ["Deleting a group that still holds anything fails with the API's reason; Pulumi deletes a group's contents first when the program declares them."],
  },
  fields: {
    parentUid: { type: "string", description: "The parent group's uid (the organization's uid for a top-level group).", input: true, replace: true, refersTo: "groups" },
    name: { ...common.name("The name: lowercase letters, digits, space, `.`, `_` and `-`."), schema: f.groupName },
    description: common.description,
    verified: { type: "boolean", description: "Whether the platform has verified the group.", read: z.boolean().default(false) },
    resourceLimits: { type: "Record<string, unknown>", description: "Resource limits as the API reports them.", read: z.record(z.string(), z.unknown()).default({}) },
    createTime: common.createTime,
    updateTime: common.updateTime,
  },
});
