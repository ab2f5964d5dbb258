/**
 * One change as the platform delivers it to a webhook: a CloudEvent in HTTP binary mode (its
 * attributes as `ce-*` headers, its data as the body), as the SDK's `events/receiver` reads it
 * (`binding.ToEvent` of the request) and its `events` package decodes it (`Decode`, `Body`).
 *
 * The data is an `events.Occurrence`: `{"actor":{"subject":<caller>},"body":<message>}`, where the
 * body is the method's answer in protojson (an item without its secrets) for a create or update,
 * and the Delete request (`{"uid":...}`) for a delete, as the platform's generated `*.event.go`
 * files make each of those messages its event. The `bodytype` extension names that message's
 * full proto name, so `events.Body` resolves it without sniffing the shape.
 */
import { randomUUID } from "node:crypto";
import { definitionOf } from "../../api/kinds";
import type { ItemChange } from "../model/changes";

/** The CloudEvents extensions the platform sets (the SDK's `events/extensions.go`). */
export const EXTENSION = {
  group: "group",
  bodyType: "bodytype",
  audience: "audience",
  delivery: "chainguarddev1delivery",
  subscription: "chainguarddev1subscription",
} as const;

/** One event, ready to be sent to any number of sinks: its headers but Authorization, and its body. */
export interface DeliveredEvent {
  /** The CloudEvent id: the same on every attempt and every sink, so a receiver can drop repeats. */
  id: string;
  type: string;
  subject: string;
  group: string;
  /** `ce-*` headers and the content type; a subscription adds its own uid. */
  headers: Record<string, string>;
  /** The data, byte for byte what the token's digest covers. */
  body: Buffer;
}

/** The full proto name of the message the platform sends as the body of `change`. */
export function bodyTypeOf(change: Pick<ItemChange, "kind" | "action">): string {
  const { package: pkg, message } = definitionOf(change.kind).proto;
  return change.action === "deleted" ? `${pkg}.Delete${message}Request` : `${pkg}.${message}`;
}

/** The CloudEvent for `change`, from the API at `source`. */
export function eventOf(change: ItemChange, source: string): DeliveredEvent {
  const id = randomUUID();
  const body = change.action === "deleted" || !change.item ? { uid: change.uid } : change.item;
  const data = Buffer.from(JSON.stringify({ actor: { subject: change.subject }, body }));
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "ce-specversion": "1.0",
    "ce-id": id,
    "ce-source": source,
    "ce-type": change.type,
    "ce-subject": change.uid,
    "ce-time": change.time,
    [`ce-${EXTENSION.group}`]: change.group,
    [`ce-${EXTENSION.bodyType}`]: bodyTypeOf(change),
    [`ce-${EXTENSION.audience}`]: "customer",
    [`ce-${EXTENSION.delivery}`]: "webhook",
  };
  return { id, type: change.type, subject: change.uid, group: change.group, headers, body: data };
}
