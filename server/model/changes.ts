/**
 * The changes the API makes, as the platform announces them: one `ItemChange` per successful
 * create, update or delete of an item of any kind, whichever door it came through (v2beta1, v1,
 * gRPC), once its write is committed. The routes announce them (routes/collection.ts); what
 * delivers events to subscriptions listens here, and nothing else needs to know where writes
 * happen. Writes the API makes on its own (fixtures, a token exchange's `lastSeenTime`) are no
 * method of a kind and are never announced, as the platform emits no event for them.
 */
import { definitionOf, eventGroupOf, eventTypeOf, secretPaths, wireNameOf, type ChangeAction, type Kind, type KindDefinition } from "../../api/kinds";

/** One item changed by one method. */
export interface ItemChange {
  kind: Kind;
  action: ChangeAction;
  /** The event's CloudEvents type, from the kind's definition: `dev.chainguard.api.iam.group.created.v1`. */
  type: string;
  /** The item's uid: the event's subject. */
  uid: string;
  /** The group the event names (its `group` extension; see `EventGroup`). */
  group: string;
  /**
   * The item as the method answered it, in its v2beta1 shape, without the kind's secret values
   * (an invite's code), and only the members its definition's `events.keep` names, if any: a create's or update's answer. Absent for a delete, which answers nothing.
   */
  item?: Record<string, unknown>;
  /** The caller's identity uid: who made the change (the event's actor). */
  subject: string;
  /** When the change was committed (RFC 3339). */
  time: string;
}

/** Hears changes. Called synchronously after the commit and before the answer: enqueue work, never wait or throw. */
export type ChangeListener = (change: ItemChange) => void;

/** The changes of one server: listeners subscribe, the routes emit. */
export class ChangeFeed {
  private readonly listeners = new Map<ChangeListener, (() => boolean) | undefined>();

  /** Whether anyone listens now: a change nobody hears is not even made. */
  get heard(): boolean {
    for (const wants of this.listeners.values()) if (!wants || wants()) return true;
    return false;
  }

  /**
   * Calls `listener` with every change from now on (only while `wants()`, when given: deliveries
   * want changes only while a subscription exists); returns what stops it.
   */
  subscribe(listener: ChangeListener, wants?: () => boolean): () => void {
    this.listeners.set(listener, wants);
    return () => void this.listeners.delete(listener);
  }

  /**
   * Hands `change` to every listener. The write is committed and its answer is owed to the caller:
   * a listener that throws is reported, never allowed to fail the request.
   */
  emit(change: ItemChange): void {
    for (const [l, wants] of this.listeners) {
      if (wants && !wants()) continue;
      try {
        l(change);
      } catch (e) {
        process.stderr.write(`irv-server: a change listener failed on ${change.type} ${change.uid}: ${(e as Error).message}\n`);
      }
    }
  }
}

/**
 * The change `action` made to item `uid` of `kind`, or undefined when the kind's service has no
 * such method (no event type for it). `answer` is the method's answer (v2beta1 shape).
 */
export function changeOf(kind: Kind, action: ChangeAction, uid: string, answer: unknown, subject: string, time: string): ItemChange | undefined {
  const d: KindDefinition = definitionOf(kind);
  const type = eventTypeOf(d, action);
  if (!type) return undefined;
  const change: ItemChange = { kind, action, type, uid, group: eventGroupOf(d, action, uid), subject, time };
  if (action !== "deleted" && answer && typeof answer === "object") {
    const item = withoutSecrets(d, answer as Record<string, unknown>);
    const keep = d.events?.keep;
    change.item = keep ? Object.fromEntries(Object.entries(item).filter(([k]) => keep.includes(k))) : item;
  }
  return change;
}

/** `item` (wire names) without the values `d` keeps secret, member by member: `code`, `oidc.clientSecret`. */
function withoutSecrets(d: KindDefinition, item: Record<string, unknown>): Record<string, unknown> {
  const out = structuredClone(item);
  for (const [field, ...members] of secretPaths(d)) {
    const path = [wireNameOf(field, d.fields[field]), ...members];
    let at: unknown = out;
    for (const p of path.slice(0, -1)) at = at && typeof at === "object" ? (at as Record<string, unknown>)[p] : undefined;
    if (at && typeof at === "object") delete (at as Record<string, unknown>)[path[path.length - 1]];
  }
  return out;
}
