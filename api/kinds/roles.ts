import { z } from "zod";
import * as f from "../fields";
import { common, defineKind } from "./definition";

export type { Capability } from "../capabilities";

export const roles = defineKind({
  kind: "roles",
  className: "Role",
  label: "role",
  description: "A custom role: a named set of capabilities.",
  parentField: "groupUid",
  capability: "roles",
  example: {
    name: "releaser",
    inputs: { groupUid: "${group}", name: "releaser", description: "Publishes release tags", capabilities: ["repo.list", "tag.list", "tag.create", "tag.update"] },
    notes: ["Capabilities are compared as a set: reordering them is no change.", "The credentials Pulumi runs with must hold every capability they put in a role."],
  },
  fields: {
    groupUid: common.groupUid("The group the role lives in."),
    name: common.name("The role's name."),
    description: common.description,
    capabilities: {
      type: "Capability[]",
      description: "Capability names (`groups.list`, `identity.create`, ...), compared as a set.",
      input: true,
      schema: z.array(f.capability).min(1, "must name at least one capability"),
      read: z.array(z.string()).default([]),
    },
    createTime: common.createTime,
    updateTime: common.updateTime,
  },
});
