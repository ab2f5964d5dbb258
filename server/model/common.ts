/** Helpers every model shares: fresh uids, existence checks, role visibility, sort fields. */
import { isSelfOrAncestor, newChildUid, parentOf } from "../../api/uid";
import type { ServerContext } from "../context";
import { invalidField, notFound } from "../errors";
import type { SortValue } from "../list";
import type { Collection, GroupRecord, Keyed, RoleRecord } from "../store";

/** A new uid under `parent`, unique in `coll` (8 random bytes; a collision is retried). */
export function freshUid(coll: { has(uid: string): boolean }, parent: string): string {
  for (;;) {
    const uid = newChildUid(parent);
    if (!coll.has(uid)) return uid;
  }
}

/** The group `uid`, or NOT_FOUND. */
export function requireGroup(ctx: ServerContext, uid: string): GroupRecord {
  const g = ctx.store.groups.get(uid);
  if (!g) throw notFound(`group ${uid}`);
  return g;
}

/** An item of `coll`, or NOT_FOUND naming its kind. */
export function requireItem<T extends Keyed>(coll: Collection<T>, uid: string, kind: string): T {
  const item = coll.get(uid);
  if (!item) throw notFound(`${kind} ${uid}`);
  return item;
}

/**
 * The role `roleUid` if a binding, invite or default role on `group` may use it: a built-in role,
 * or a custom role of `group` or one of its ancestors. INVALID_ARGUMENT on `field` otherwise.
 */
export function usableRole(ctx: ServerContext, roleUid: string, group: string, field: string): RoleRecord {
  const role = ctx.store.roles.get(roleUid);
  if (!role) throw invalidField(field, `role ${roleUid} does not exist`);
  const home = parentOf(role.uid);
  if (!role.builtin && (home === undefined || !isSelfOrAncestor(home, group)))
    throw invalidField(field, `role ${roleUid} belongs to group ${home}, which is not ${group} or one of its ancestors`);
  return role;
}

/** Sort getters reading the named top-level fields of an item. */
export function fields<T>(...names: (keyof T & string)[]): Record<string, (item: T) => SortValue> {
  const out: Record<string, (item: T) => SortValue> = {};
  for (const n of names) out[n] = (item) => item[n] as SortValue;
  return out;
}

/** Picks the keys of `obj` that are set. */
export function pick<T extends object>(obj: T, keys: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of keys) {
    const v = (obj as Record<string, unknown>)[k];
    if (v !== undefined) out[k] = v;
  }
  return out;
}
