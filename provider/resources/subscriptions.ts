import { parentOf } from "../../api/uid";
import type { Item } from "../../client/shapes";
import { type Inputs, type Outputs, type KindSpec } from "./spec";
import { factsOf } from "./facts";

/** Inputs of a Subscription, as its definition (api/kinds) types them. */
export type SubscriptionInputs = Inputs<"subscriptions">;
/** Outputs of a Subscription: the inputs as they are live, and the API's fields. */
export type SubscriptionOutputs = Outputs<"subscriptions">;

/** True for a subscription of the inputs' group and sink. */
const like = (i: Inputs<"subscriptions">) => (s: Item<"subscriptions">) => parentOf(s.uid) === i.parentUid && s.sink === i.sink;
/** The group's subscriptions. */
const underParent = (i: Inputs<"subscriptions">) => ({ "uidp.children_of": i.parentUid });

const spec = (): KindSpec<"subscriptions"> => ({
  ...factsOf("subscriptions"),
  // A subscription has no name and no creation time: what a lost create made is the one of the
  // same group and sink that was not there before it.
  async existing(ctx, i) {
    return new Set((await ctx.client().collect("subscriptions", underParent(i), ctx.call)).filter(like(i)).map((s) => s.uid));
  },
  async recover(ctx, i, _since, existing) {
    for await (const s of ctx.client().list("subscriptions", underParent(i), ctx.call)) if (like(i)(s) && !existing?.has(s.uid)) return s;
    return undefined;
  },
});

/** The kind's spec, made on each call (./index.ts `specs` makes it once, on first use). */
export const subscriptionSpec = spec;
