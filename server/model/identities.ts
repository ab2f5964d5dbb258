/** Identities: who may act, and how an external token may assume them (one of four relationship types). */
import { RELATIONSHIP_TYPES, IdentityCreate, IdentityUpdate, type StaticKeys } from "../../api/bodies";
import { isDeepStrictEqual } from "node:util";
import { defaultKeysExpiration, staticKeysIssues } from "../../api/kinds/identities";
import { parentOf } from "../../api/uid";
import { timestamp, type ServerContext } from "../context";
import { trustedIssuers } from "../auth/trusted-issuers";
import { invalidField, permissionDenied } from "../errors";
import { applyPatch, maskPaths } from "../masks";
import type { IdentityRecord } from "../store";
import { parseBody } from "../validate";
import { changed, definedOnly, freshUid, pick, requireGroup, requireItem } from "./common";

export const identityMaskPaths = maskPaths(IdentityUpdate);

const SPEC_KEYS = ["name", "description", "company", ...RELATIONSHIP_TYPES];

/**
 * A static-keys identity expires: by default, and at the latest, STATIC_KEYS_MAX_DAYS after its
 * creation (`createTime`), as the platform says; never in the past. Returns the keys with their
 * expiration set.
 */
function checkStaticKeys(ctx: ServerContext, sk: StaticKeys | undefined, createTime: string): StaticKeys | undefined {
  if (!sk) return sk;
  for (const issue of staticKeysIssues({ staticKeys: sk }, ctx.clock(), undefined, Date.parse(createTime)))
    throw invalidField(issue.path.join("."), issue.message);
  return sk.expirationTime === undefined ? { ...sk, expirationTime: defaultKeysExpiration(createTime) } : sk;
}

function record(base: Omit<IdentityRecord, keyof IdentityCreate>, input: IdentityCreate): IdentityRecord {
  const { name, description, company, ...relationship } = input;
  return { ...base, name, description: description ?? "", company: company ?? "", ...definedOnly(relationship) };
}

/** Creates an identity in group `groupUid`. */
export function createIdentity(ctx: ServerContext, groupUid: string, body: unknown): IdentityRecord {
  requireGroup(ctx, groupUid);
  const parsed = parseBody(IdentityCreate, body);
  const now = timestamp(ctx);
  const input = { ...parsed, ...(parsed.staticKeys ? { staticKeys: checkStaticKeys(ctx, parsed.staticKeys, now) } : {}) };
  const r = record(
    // lastSeenTime: its creation time until it first federates (the create response shows it so).
    { uid: freshUid(ctx.store.identities, groupUid), email: "", emailUnverified: "", lastSeenTime: now, createTime: now, updateTime: now },
    input,
  );
  trustedIssuers(ctx.store).checkBounds(r);
  ctx.store.identities.insert(r);
  return r;
}

/**
 * Whoever may change how an identity is assumed can become it: the caller must already hold
 * every capability the identity's role bindings grant, on each binding's group.
 */
function requireDominates(ctx: ServerContext, caller: string, uid: string, what: string): void {
  for (const b of ctx.store.bindingsOf(uid)) {
    const role = ctx.store.roles.get(b.roleUid);
    if (role) ctx.authz.requireAll(caller, role.capabilities, parentOf(b.uid)!, what);
  }
}

/**
 * Updates an identity. Setting one relationship type replaces the identity's (it has exactly one).
 * Changing how it is assumed needs everything its bindings grant (requireDominates).
 */
export function updateIdentity(ctx: ServerContext, uid: string, body: unknown, mask: string[] | undefined, caller: string): IdentityRecord {
  const old = requireItem(ctx.store.identities, uid, "identity");
  const patch = parseBody(IdentityUpdate, body);
  const current = pick(old, SPEC_KEYS);
  const inMask = (k: string) => !mask || mask.some((p) => p === k || p.startsWith(`${k}.`));
  const newKind = RELATIONSHIP_TYPES.find((k) => inMask(k) && patch[k] !== undefined);
  if (newKind) for (const k of RELATIONSHIP_TYPES) if (k !== newKind) delete current[k];
  const merged = parseBody(IdentityCreate, applyPatch(current, patch, mask));
  const next = newKind === "staticKeys" ? { ...merged, staticKeys: checkStaticKeys(ctx, merged.staticKeys, old.createTime) } : merged;
  const r = record(
    { uid, email: old.email, emailUnverified: old.emailUnverified, lastSeenTime: old.lastSeenTime, createTime: old.createTime, updateTime: timestamp(ctx) },
    next,
  );
  if (!changed(old, r)) return old;
  if (RELATIONSHIP_TYPES.some((k) => !isDeepStrictEqual(r[k], old[k]))) requireDominates(ctx, caller, uid, `changing how identity ${uid} is assumed`);
  trustedIssuers(ctx.store).checkBounds(r);
  ctx.store.identities.replace(r);
  return r;
}

/**
 * Deletes an identity and, with it, every role binding naming it: the caller must be allowed to
 * delete each of those bindings (else PERMISSION_DENIED and nothing changes).
 */
export function deleteIdentity(ctx: ServerContext, uid: string, caller: string): void {
  requireItem(ctx.store.identities, uid, "identity");
  const bindings = ctx.store.bindingsOf(uid);
  const held = bindings.filter((b) => !ctx.authz.can(caller, "role_bindings.delete", parentOf(b.uid)!)).length;
  if (held > 0)
    throw permissionDenied(
      `identity ${uid} has ${held} role binding${held === 1 ? "" : "s"} on groups where the caller may not delete role bindings; deleting it would delete them`,
    );
  for (const b of ctx.store.bindingsOf(uid)) ctx.store.removeBinding(b.uid);
  ctx.store.identities.remove(uid);
}

/**
 * The wire shape: the record as it is, its emails included (the API's `Identity.email` and
 * `email_unverified`, output only), less how a person signs in (the API's Identity has no such
 * field).
 */
export function renderIdentity(r: IdentityRecord): Record<string, unknown> {
  const { person: _p, ...wire } = r;
  // Records from a data directory written before these fields lack them.
  return { ...wire, emailUnverified: wire.emailUnverified ?? "", company: wire.company ?? "" };
}

/** A record's federation: `lastSeenTime` set to now, nothing else changed (no new updateTime). */
export function federated(ctx: ServerContext, uid: string): void {
  const r = ctx.store.identities.get(uid);
  if (r) ctx.store.identities.replace({ ...r, lastSeenTime: timestamp(ctx) });
}
