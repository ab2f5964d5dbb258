/** /iam/v2beta1/roles: built-in roles (global, read-only) and custom roles in groups. */
import { roles } from "../../api/kinds";
import { parentOf } from "../../api/uid";
import { exact } from "../list";
import { createRole, deleteRole, renderRole, roleMaskPaths, scalarFields, updateRole } from "../model";
import type { RoleRecord } from "../store";
import { kindRoutes } from "./collection";

export const roleRoutes = kindRoutes<RoleRecord>("roles", {
  items: (ctx) => ctx.store.roles,
  // Built-in roles have root uids: no group governs them, any authenticated caller reads them,
  // and the model refuses to change them.
  groupOf: parentOf,
  list: {
    sortable: scalarFields<RoleRecord>(roles),
    filters: { name: exact((r) => r.name) },
    groupOf: (r) => (r.builtin ? undefined : parentOf(r.uid)),
    globals: (roles) => roles.filter((r) => r.builtin),
  },
  render: (_ctx, r) => renderRole(r),
  create: (ctx, parent, body, caller) => renderRole(createRole(ctx, parent, body, caller)),
  update: { maskPaths: roleMaskPaths, run: updateRole },
  remove: deleteRole,
});
