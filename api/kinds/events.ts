/** The events a kind's methods emit: their types and the group each names. */
import { parentOf } from "../uid";
import type { ChangeAction, KindDefinition } from "./definition";

/** The type of the event `action` on an item of `d` emits, or undefined when the kind has no such method. */
export function eventTypeOf(d: Pick<KindDefinition, "events">, action: ChangeAction): string | undefined {
  return d.events?.[action];
}

/** The group an event about item `uid` of `d` names, for `action` (see `EventGroup`). */
export function eventGroupOf(d: Pick<KindDefinition, "events">, action: ChangeAction, uid: string): string {
  const rule = d.events?.group;
  const which = (typeof rule === "object" ? rule[action] : rule) ?? "parent";
  if (which === "root") return uid.split("/")[0];
  return (which === "parent" && parentOf(uid)) || uid;
}
