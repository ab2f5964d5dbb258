/** Events subscriptions: a group's webhook sinks. No update: a changed sink replaces the subscription. */
import { SubscriptionCreate } from "../../api/bodies";
import type { ServerContext } from "../context";
import type { SubscriptionRecord } from "../store";
import { parseBody } from "../validate";
import { freshUid, requireGroup, requireItem } from "./common";

/** Creates a subscription under the group `parent`, with the sink as given (a sink is stored and returned as written). */
export function createSubscription(ctx: ServerContext, parent: string, body: unknown): SubscriptionRecord {
  requireGroup(ctx, parent);
  const input = parseBody(SubscriptionCreate, body);
  const r: SubscriptionRecord = { uid: freshUid(ctx.store.subscriptions, parent), sink: input.sink };
  ctx.store.subscriptions.insert(r);
  return r;
}

/** Deletes a subscription. */
export function deleteSubscription(ctx: ServerContext, uid: string): void {
  requireItem(ctx.store.subscriptions, uid, "subscription");
  ctx.store.subscriptions.remove(uid);
}
