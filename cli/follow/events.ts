/**
 * What a verified event says changed, and which of a stack's resources that may have changed:
 * the item the event names (its subject), what lies below it (a deleted group takes its
 * subtree), and what refers to it (a role's bindings, a binding's identity).
 */
import { KINDS, definitionOfTypeToken, eventTypeOf, type ChangeAction, type Kind, type KindDefinition } from "../../api/kinds";
import { isSelfOrAncestor } from "../../api/uid";
import type { VerifiedEvent } from "./verify";

/** One change an event announces. */
export interface Change {
  kind: Kind;
  action: ChangeAction;
  /** The item's uid. */
  uid: string;
  /** Who made it (the occurrence's actor), when the event says. */
  actor?: string;
}

/** Every event type the kinds' methods emit, to the kind and action. */
const TYPES = new Map<string, { kind: Kind; action: ChangeAction }>(
  KINDS.flatMap((d: KindDefinition) =>
    (["created", "updated", "deleted"] as const).flatMap((a) => {
      const type = eventTypeOf(d, a);
      return type ? [[type, { kind: d.kind as Kind, action: a }] as const] : [];
    }),
  ),
);

/** A uid as the platform writes them: hex segments joined by `/`. */
const UID = /^[0-9a-f]{1,64}(\/[0-9a-f]{1,64}){0,15}$/;

/** The change `e` announces, or undefined for an event about no kind a stack holds (registry tags, ...). */
export function changeOf(e: VerifiedEvent): Change | undefined {
  const known = TYPES.get(e.type);
  if (!known) return undefined;
  let body: { actor?: { subject?: unknown }; body?: { uid?: unknown } } | undefined;
  try {
    body = JSON.parse(e.data.toString("utf8"));
  } catch {
    body = undefined;
  }
  // The subject is the item's uid (the SDK's CloudEventsSubject); a delete's body may be empty.
  const uid = e.subject ?? (typeof body?.body?.uid === "string" ? body.body.uid : undefined);
  if (!uid || !UID.test(uid)) return undefined;
  const actor = typeof body?.actor?.subject === "string" ? body.actor.subject : undefined;
  return { ...known, uid, ...(actor ? { actor } : {}) };
}

/** A resource of a stack's state, as much as this reads. */
interface StateResource {
  urn: string;
  type: string;
  id?: string;
  inputs?: Record<string, unknown>;
}

/**
 * The ids of the stack's irv resources that `changes` may have changed: each named item, what
 * lies below it, and what names it in its inputs.
 */
export function affectedIds(resources: readonly StateResource[], uids: ReadonlySet<string>): Set<string> {
  const out = new Set<string>();
  for (const r of resources) {
    if (!r.id || !definitionOfTypeToken(r.type)) continue;
    for (const uid of uids) {
      if (isSelfOrAncestor(uid, r.id) || refersTo(r.inputs, uid)) {
        out.add(r.id);
        break;
      }
    }
  }
  return out;
}

/** Whether any string in `v` is `uid`. */
function refersTo(v: unknown, uid: string): boolean {
  if (typeof v === "string") return v === uid;
  if (Array.isArray(v)) return v.some((x) => refersTo(x, uid));
  if (v && typeof v === "object") return Object.values(v).some((x) => refersTo(x, uid));
  return false;
}
