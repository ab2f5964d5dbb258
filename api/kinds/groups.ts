import { z } from "zod";
import * as f from "../fields";
import { common, enumeration, numbered, scalar } from "./common";
import { defineKind, IAM_PACKAGE } from "./definition";

/** The platform's organization kinds (`OrgKind`): a subgroup has its root's. */
export const ORG_KINDS = {
  ORG_KIND_UNSPECIFIED: 0,
  ORG_KIND_STARTER: 1,
  ORG_KIND_CUSTOMER: 2,
  ORG_KIND_DEV: 3,
  ORG_KIND_INFRA: 4,
  ORG_KIND_AWS_MARKETPLACE: 5,
} as const;
/** The platform's provisioning statuses (`OrgStatus`): a subgroup has its root's. */
export const ORG_STATUSES = { ORG_STATUS_UNSPECIFIED: 0, ORG_STATUS_INITIALIZING: 1, ORG_STATUS_READY: 2, ORG_STATUS_SUSPENDED: 3 } as const;

export const groups = defineKind({
  kind: "groups",
  module: "iam",
  className: "Group",
  label: "group",
  description: "A group in the organization's hierarchy.",
  parentField: "parentUid",
  proto: {
    package: IAM_PACKAGE,
    service: "GroupsService",
    message: "Group",
    uid: 1,
    list: { filters: { name: { number: 2, type: "string" } }, paging: [3, 4, 5, 6] },
    enums: [
      { name: "OrgKind", values: ORG_KINDS },
      { name: "OrgStatus", values: ORG_STATUSES },
    ],
  },
  capability: "groups",
  events: {
    created: "dev.chainguard.api.iam.group.created.v1",
    updated: "dev.chainguard.api.iam.group.updated.v1",
    deleted: "dev.chainguard.api.iam.group.deleted.v1",
    group: { created: "self", updated: "self" },
  },
  example: {
    name: "engineering",
    inputs: { parentUid: "${organization}", name: "engineering", description: "Everyone who builds the product" },
    notes: ["Deleting a group that still holds anything fails with the API's reason; Pulumi deletes a group's contents first when the program declares them."],
  },
  fields: () => ({
    parentUid: common.groupUid("The parent group's uid (the organization's uid for a top-level group)."),
    name: { ...common.name("The name: 3 to 63 characters, lowercase letters, digits, space, `.`, `_` and `-`.", 2), schema: f.groupName() },
    description: numbered.description(3),
    verified: scalar(
      { number: 5, type: "bool" },
      {
        description: "Whether the platform has verified the group.",
        read: z.boolean().default(false),
      },
    ),
    resourceLimits: {
      type: "Record<string, number>",
      description: "Resource limits as the API reports them.",
      proto: { number: 4, type: "int32", keyType: "string", behavior: ["OUTPUT_ONLY"] },
      read: z.record(z.string(), z.number()).default({}),
    },
    kind: enumeration(
      { number: 8, type: "OrgKind" },
      {
        description: "The organization's kind (`ORG_KIND_CUSTOMER`, ...): a subgroup has its root's.",
        read: z.string().default("ORG_KIND_UNSPECIFIED"),
      },
    ),
    status: enumeration(
      { number: 9, type: "OrgStatus", behavior: ["OUTPUT_ONLY"] },
      {
        description: "The organization's provisioning status (`ORG_STATUS_READY`, ...): a subgroup has its root's.",
        read: z.string().default("ORG_STATUS_UNSPECIFIED"),
      },
    ),
    createTime: numbered.createTime(6),
    updateTime: numbered.updateTime(7),
  }),
});
