/** /iam/v2beta1/groups */
import { groups } from "../../api/kinds";
import { exact } from "../list";
import { createGroup, deleteGroup, groupMaskPaths, scalarFields, updateGroup } from "../model";
import type { GroupRecord } from "../store";
import { kindRoutes } from "./collection";

export const groupRoutes = kindRoutes<GroupRecord>("groups", {
  items: (ctx) => ctx.store.groups,
  // A group is governed by bindings on itself and its ancestors.
  groupOf: (uid) => uid,
  list: {
    sortable: scalarFields<GroupRecord>(groups),
    filters: { name: exact((g) => g.name) },
    groupOf: (g) => g.uid,
  },
  render: (_ctx, g) => g,
  create: createGroup,
  update: { maskPaths: groupMaskPaths, run: updateGroup },
  remove: deleteGroup,
});
