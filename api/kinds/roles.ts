import { z } from "zod";
import * as f from "../fields";
import { common, numbered, named } from "./common";
import { defineKind, IAM_PACKAGE } from "./definition";

export type { Capability } from "../capabilities";

export const roles = defineKind({
  kind: "roles",
  module: "iam",
  className: "Role",
  label: "role",
  description: "A custom role: a named set of capabilities.",
  parentField: "groupUid",
  proto: {
    package: IAM_PACKAGE,
    service: "RolesService",
    message: "Role",
    uid: 1,
    list: { filters: { name: { number: 2, type: "string" } }, paging: [3, 4, 5, 6] },
  },
  capability: "roles",
  events: {
    created: "dev.chainguard.api.iam.roles.created.v1",
    updated: "dev.chainguard.api.iam.roles.updated.v1",
    deleted: "dev.chainguard.api.iam.roles.deleted.v1",
  },
  example: {
    name: "releaser",
    inputs: {
      groupUid: "${group}",
      name: "releaser",
      description: "Publishes release tags",
      capabilities: ["repo.list", "tag.list", "tag.create", "tag.update"],
    },
    notes: [
      "Capabilities are compared as a set: reordering them is no change.",
      "The credentials Pulumi runs with must hold every capability they put in a role.",
    ],
  },
  fields: () => ({
    groupUid: common.groupUid("The group the role lives in."),
    name: common.name("The role's name.", 2),
    description: numbered.description(3),
    capabilities: named({
      description:
        "Capability names (`groups.list`, `identity.create`, ...), compared as a set; the API's enum names (`CAP_IAM_GROUPS_LIST`) are accepted too.",
      input: true,
      proto: { number: 4, type: "chainguard.capabilities.Capability", repeated: true },
      // Programs keep the friendly names; the API carries the enum's.
      codec: f.capabilitiesCodec,
      schema: z.array(f.capability()).min(1, "must name at least one capability"),
      read: z.array(z.string()).default([]),
    }),
    createTime: numbered.createTime(5),
    updateTime: numbered.updateTime(6),
  }),
});
