/** Helpers every model shares: fresh uids, existence checks, role visibility, sort fields. */
import { isDeepStrictEqual } from "node:util";
import { isSelfOrAncestor, newChildUid, parentOf } from "../../api/uid";
import { wireNameOf, type KindDefinition } from "../../api/kinds";
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
 * Why `caller` may not name role `roleUid` on `group` (in a binding, an invite or an IdP's default
 * role), or undefined: it must be a built-in role, or a custom role of `group` or an ancestor
 * that the caller may read. The words are the same whether or not it exists, so the answer
 * names no group and reveals no uid.
 */
export function roleRefProblem(ctx: ServerContext, caller: string, roleUid: string, group: string): string | undefined {
  const role = ctx.store.roles.get(roleUid);
  const home = role && parentOf(role.uid);
  const usable = role && (role.builtin || (home !== undefined && isSelfOrAncestor(home, group) && ctx.authz.can(caller, "roles.list", home)));
  return usable ? undefined : `role ${roleUid} does not exist, or is not a built-in role nor a role of group ${group} or an ancestor that you may read`;
}

/**
 * The role `roleUid` if `caller` may grant it on `group`: a role it may name (roleRefProblem,
 * else INVALID_ARGUMENT on `field`) whose every capability the caller already holds on `group`
 * (else PERMISSION_DENIED): nobody hands out more than it has.
 */
export function grantableRole(ctx: ServerContext, caller: string, roleUid: string, group: string, field: string): RoleRecord {
  const problem = roleRefProblem(ctx, caller, roleUid, group);
  if (problem) throw invalidField(field, problem);
  const role = ctx.store.roles.get(roleUid)!;
  ctx.authz.requireAll(caller, role.capabilities, group, `granting role ${role.name}`);
  return role;
}

/**
 * Why `caller` may not bind identity `uid`, or undefined: a person (people belong to no group), or
 * an identity the caller can read (one it may not read is answered as if it did not exist). It may live in any group: what
 * keeps a binding above its group safe is that changing how the identity is assumed, or deleting
 * it, needs everything its bindings grant (see identities.ts).
 */
export function identityRefProblem(ctx: ServerContext, caller: string, uid: string): string | undefined {
  const home = parentOf(uid);
  // A root uid that is no group names a person: one who signed in, or one who will (the uid
  // LookupIdentity answers before their first sign-in), as the platform lets bindings name them.
  if (home === undefined && !ctx.store.groups.has(uid)) return undefined;
  if (!ctx.store.identities.has(uid) || home === undefined || !ctx.authz.can(caller, "identity.list", home)) return `identity ${uid} does not exist`;
  return undefined;
}

/**
 * Why `caller` may not name `uid` as a group or an identity (an account association's service
 * bindings name either), or undefined. One it may not list is answered as if it did not exist, so
 * a body never tells a caller what it could not read.
 */
export function memberRefProblem(ctx: ServerContext, caller: string, uid: string): string | undefined {
  if (ctx.store.groups.has(uid) && ctx.authz.can(caller, "groups.list", uid)) return undefined;
  return identityRefProblem(ctx, caller, uid) && `${uid} is not a group or an identity that exists`;
}

/** True when the new record differs from the old in anything but its update time. */
export function changed<T extends { updateTime: string }>(old: T, next: T): boolean {
  return !isDeepStrictEqual({ ...old, updateTime: "" }, { ...next, updateTime: "" });
}

/** Sort getters reading the named top-level fields of an item. */
export function fields<T>(...names: (keyof T & string)[]): Record<string, (item: T) => SortValue> {
  const out: Record<string, (item: T) => SortValue> = {};
  for (const n of names) out[n] = (item) => item[n] as SortValue;
  return out;
}

/** What a List of `d` may sort by: the uid and every scalar field an item carries (write-only ones never are), by wire name. */
export function scalarFields<T>(d: KindDefinition): Record<string, (item: T) => SortValue> {
  const names = Object.entries(d.fields).filter(([, f]) => f.read && !f.writeOnly && ["string", "boolean", "number"].includes(f.type));
  return fields<T>("uid" as keyof T & string, ...names.map(([n, f]) => wireNameOf(n, f) as keyof T & string));
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

/** `o` without its undefined members: a record holds no key for an absent value. */
export function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
