import * as f from "../fields";
import { common, scalar } from "./common";
import { defineKind, EVENTS_PACKAGE } from "./definition";

/**
 * An events subscription (the platform's `chainguard.platform.events.v2beta1.Subscription`, and
 * `chainguard_subscription` in its Terraform provider): a webhook the platform sends its group's
 * events to. The service has Get, List, Create and Delete, no Update: a changed input replaces it.
 *
 * The sink is not secret. The platform authenticates each delivery with a token it signs in the
 * request's Authorization header (the SDK's events receiver verifies it), so a sink needs no
 * credential of its own; the API returns it to every caller that may list subscriptions, and the
 * Terraform provider keeps it in plain state and logs it. Marked secret, it would be masked in
 * every diff, drift report and review, and `irv export` could not write it back. A program whose
 * receiver does take a token in the URL passes the sink as a secret (`pulumi.secret(...)`,
 * `pulumi config set --secret`), and the state keeps it encrypted.
 */
export const subscriptions = defineKind({
  kind: "subscriptions",
  module: "events",
  className: "Subscription",
  label: "subscription",
  description: "An events subscription: a webhook to which the platform delivers the events of its group, as CloudEvents.",
  parentField: "parentUid",
  proto: {
    package: EVENTS_PACKAGE,
    service: "SubscriptionsService",
    message: "Subscription",
    uid: 1,
    list: { filters: {}, paging: [2, 3, 4, 5] },
    noUpdate: true,
  },
  capability: "subscriptions",
  events: { created: "dev.chainguard.api.events.subscription.created.v1", deleted: "dev.chainguard.api.events.subscription.deleted.v1" },
  example: {
    name: "deploy-hook",
    inputs: { parentUid: "${group}", sink: "https://hooks.acme.example/chainguard" },
    notes: [
      "Subscriptions cannot be updated: changing the group or the sink replaces the subscription (the new one is made before the old one is deleted).",
      "The sink is not secret: the API returns it to whoever may list subscriptions. If your receiver takes a token in the URL, pass the sink as a secret (`pulumi config set --secret`) to keep it encrypted in state.",
      "Each create, update and delete in the group or below it is delivered to the sink as a CloudEvent with a token from the platform's issuer (subject `webhook:<group>`, the body's digest): verify it with the SDK's `events/receiver`. irv-server delivers them too ([event delivery](../irv-server.md#event-delivery)).",
    ],
  },
  fields: () => ({
    parentUid: common.groupUid("The group the subscription lives in, which sets the scope of the events it receives."),
    sink: scalar(
      { number: 2, type: "string", behavior: ["REQUIRED"] },
      {
        description: `The https URL the events are delivered to (at most ${f.SINK_MAX} characters).`,
        input: true,
        replace: true,
        schema: f.sinkUrl(),
      },
    ),
  }),
});
