/** /iam/v2beta1/groupInvites: create, get, list, delete; no update (an invite is replaced). */
import { parentOf } from "../../api/uid";
import { exact } from "../list";
import { groupInvites } from "../../api/kinds";
import { createGroupInvite, deleteGroupInvite, renderGroupInvite, scalarFields } from "../model";
import type { GroupInviteRecord } from "../store";
import { kindRoutes, parentGroup } from "./collection";

export const groupInviteRoutes = kindRoutes<GroupInviteRecord>("groupInvites", {
  items: (ctx) => ctx.store.groupInvites,
  groupOf: parentGroup,
  list: {
    sortable: scalarFields<GroupInviteRecord>(groupInvites),
    filters: { key_id: exact((i) => i.keyId) },
    groupOf: (i) => parentOf(i.uid),
  },
  render: (ctx, i, caller) => renderGroupInvite(ctx, i, caller),
  create: (ctx, parent, body, caller) => {
    const { record, code } = createGroupInvite(ctx, parent, body, caller);
    // The only response that ever carries the code.
    return { ...renderGroupInvite(ctx, record, caller), code };
  },
  remove: deleteGroupInvite,
  readOnly: "group invites cannot be changed; delete the invite and create a new one",
});
