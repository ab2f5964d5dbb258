/** /events/v2beta1/subscriptions: create, get, list, delete; no update (a changed sink replaces it). */
import { subscriptions } from "../../api/kinds";
import { parentOf } from "../../api/uid";
import { createSubscription, deleteSubscription, scalarFields } from "../model";
import type { SubscriptionRecord } from "../store";
import { kindRoutes, parentGroup } from "./collection";

export const subscriptionRoutes = kindRoutes<SubscriptionRecord>("subscriptions", {
  items: (ctx) => ctx.store.subscriptions,
  groupOf: parentGroup,
  list: {
    sortable: scalarFields<SubscriptionRecord>(subscriptions),
    filters: {},
    groupOf: (s) => parentOf(s.uid),
  },
  render: (_ctx, s) => s,
  create: (ctx, parent, body) => createSubscription(ctx, parent, body),
  remove: deleteSubscription,
  readOnly: "subscriptions cannot be changed; delete the subscription and create a new one",
});
