/** /iam/v2beta1/accountAssociations: keyed by group uid (create at, get, patch and delete `<group uid>`). */
import { accountAssociations } from "../../api/kinds";
import { exact } from "../list";
import { accountAssociationMaskPaths, createAccountAssociation, deleteAccountAssociation, scalarFields, updateAccountAssociation } from "../model";
import type { AccountAssociationRecord } from "../store";
import { kindRoutes } from "./collection";

export const accountAssociationRoutes = kindRoutes<AccountAssociationRecord>("accountAssociations", {
  items: (ctx) => ctx.store.accountAssociations,
  groupOf: (uid) => uid,
  list: {
    sortable: scalarFields<AccountAssociationRecord>(accountAssociations),
    // The default order is `group`: the association's uid is its group's.
    aliases: { group: "uid", groupUid: "uid" },
    filters: { name: exact((a) => a.name) },
    groupOf: (a) => a.uid,
  },
  render: (_ctx, a) => a,
  create: createAccountAssociation,
  update: { maskPaths: accountAssociationMaskPaths, run: updateAccountAssociation },
  remove: deleteAccountAssociation,
});
