/**
 * The events services: v2beta1's `SubscriptionsService`, derived from the subscriptions kind's
 * definition (kinds.ts), and v1's `Subscriptions` (`chainguard.platform.events`), which the
 * platform's Terraform provider calls: Create, List and Delete over the same subscriptions, in
 * v1's shape (`id`, a List of every match under `items`, filtered by `id` and `uidp`). The v1
 * package's `Identities` service (the platform's sign-up hook) is not served.
 */
import { EVENTS_PACKAGE } from "../kinds";
import { kindsPackage, notServed } from "./kinds";
import type { ProtoPackage } from "./proto";

export const events: ProtoPackage = kindsPackage(EVENTS_PACKAGE);

export const eventsV1: ProtoPackage = {
  package: "chainguard.platform.events",
  services: {
    Subscriptions: {
      methods: {
        Create: {
          request: "CreateSubscriptionRequest",
          response: "Subscription",
          http: { method: "post", path: "/events/v1/subscriptions/{parent_id=**}", body: "subscription" },
        },
        List: { request: "SubscriptionFilter", response: "SubscriptionList", http: { method: "get", path: "/events/v1/subscriptions" } },
        Delete: {
          request: "DeleteSubscriptionRequest",
          response: "google.protobuf.Empty",
          http: { method: "delete", path: "/events/v1/subscriptions/{id=**}" },
        },
      },
    },
    Identities: {
      methods: {
        Create: notServed("post", "/iam/v1/identities", "*"),
        UpdateMetadata: notServed("patch", "/iam/v1/identities/metadata", "*"),
      },
    },
  },
  messages: {
    Subscription: { fields: { id: "1 string", sink: "2 string" } },
    SubscriptionList: { fields: { items: "1 repeated Subscription" } },
    SubscriptionFilter: { fields: { id: "1 string", uidp: "2 chainguard.platform.common.UIDPFilter" } },
    CreateSubscriptionRequest: { fields: { parent_id: "1 string", subscription: "2 Subscription" } },
    DeleteSubscriptionRequest: { fields: { id: "1 string" } },
  },
};
