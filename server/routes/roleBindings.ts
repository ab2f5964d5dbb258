/** /iam/v2beta1/roleBindings */
import { UID, parentOf } from "../../api/uid";
import { roleBindings } from "../../api/kinds";
import { createRoleBinding, deleteRoleBinding, renderRoleBinding, roleBindingMaskPaths, scalarFields, updateRoleBinding } from "../model";
import type { ListFilter } from "../list";
import type { RoleBindingRecord } from "../store";
import { kindRoutes, parentGroup } from "./collection";

const byUid = (get: (b: RoleBindingRecord) => string): ListFilter<RoleBindingRecord> => ({
  check: (v) => (UID.test(v) ? undefined : "must be a uid"),
  match: (b, values) => values.includes(get(b)),
});

/** Role bindings' body fields: v2beta1 name -> v1 name (v1 says `identity` and `role`). */
export const V1_BODY_NAMES: Record<string, string> = { identityUid: "identity", roleUid: "role" };

export const roleBindingRoutes = kindRoutes<RoleBindingRecord>("roleBindings", {
  items: (ctx) => ctx.store.roleBindings,
  groupOf: parentGroup,
  list: {
    sortable: {
      ...scalarFields<RoleBindingRecord>(roleBindings),
      identityUid: (b) => b.identityUid,
      roleUid: (b) => b.roleUid,
      groupUid: (b) => parentOf(b.uid),
    },
    aliases: { identity: "identityUid", role: "roleUid", group: "groupUid" },
    filters: {
      identity: byUid((b) => b.identityUid),
      role: byUid((b) => b.roleUid),
      group: byUid((b) => parentOf(b.uid)!),
    },
    groupOf: (b) => parentOf(b.uid),
  },
  render: renderRoleBinding,
  create: (ctx, parent, body, caller) => renderRoleBinding(ctx, createRoleBinding(ctx, parent, body, caller), caller),
  update: { maskPaths: roleBindingMaskPaths, run: updateRoleBinding },
  remove: deleteRoleBinding,
});
