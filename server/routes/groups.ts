/** /iam/v2beta1/groups */
import { exact } from "../list";
import { createGroup, deleteGroup, fields, groupMaskPaths, updateGroup } from "../model";
import type { GroupRecord } from "../store";
import { kindFacts, type CollectionRoutes } from "./collection";

export const groupRoutes: CollectionRoutes<GroupRecord> = {
  ...kindFacts("groups"),
  items: (ctx) => ctx.store.groups,
  // A group is governed by bindings on itself and its ancestors.
  groupOf: (uid) => uid,
  list: {
    name: "groups",
    sortable: fields<GroupRecord>("uid", "name", "description", "verified", "createTime", "updateTime"),
    filters: { name: exact((g) => g.name) },
    groupOf: (g) => g.uid,
  },
  render: (_ctx, g) => g,
  create: createGroup,
  update: { maskPaths: groupMaskPaths, run: updateGroup },
  remove: deleteGroup,
};
