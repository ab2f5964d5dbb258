import type { subscriptions as definition, InputsOf, OutputsOf } from "../../api/kinds";
import { parentOf } from "../../api/uid";
import type { Item } from "../../client/shapes";
import { providerFor } from "./provider";
import { type CommonInputs, type KindSpec, type Rec } from "./spec";
import { factsOf } from "./facts";

/** Inputs of a Subscription, as its definition (api/kinds) types them. */
export type SubscriptionInputs = CommonInputs & InputsOf<typeof definition>;
/** Outputs of a Subscription: the inputs as they are live, and the API's fields. */
export type SubscriptionOutputs = CommonInputs & OutputsOf<typeof definition>;

/** True for a subscription of the inputs' group and sink. */
const like = (i: Rec) => (s: Item<"subscriptions">) => parentOf(s.uid) === i.parentUid && s.sink === i.sink;
/** The group's subscriptions. */
const underParent = (i: Rec) => ({ "uidp.children_of": i.parentUid as string });

const spec: KindSpec<"subscriptions"> = {
  ...factsOf("subscriptions"),
  // A subscription has no name and no creation time: what a lost create made is the one of the
  // same group and sink that was not there before it.
  async existing(client, i, call) {
    return new Set((await client.collect("subscriptions", underParent(i), call)).filter(like(i)).map((s) => s.uid));
  },
  async recover(client, i, _since, call, existing) {
    for await (const s of client.list("subscriptions", underParent(i), call)) if (like(i)(s) && !existing?.has(s.uid)) return s;
    return undefined;
  },
};

/** The provider of `events.Subscription`. */
export const subscriptions = providerFor<"subscriptions", SubscriptionInputs, SubscriptionOutputs>(spec);
/** The kind's spec. */
export const subscriptionSpec = spec;
