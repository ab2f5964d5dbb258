/** Identities: who may act, and how an external token may assume them (one of four kinds). */
import { IDENTITY_KINDS, IdentityCreate, IdentityUpdate, type StaticKeys } from "../../api/inputs";
import { STATIC_KEYS_MAX_DAYS } from "../../api/fields";
import { timestamp, type ServerContext } from "../context";
import { invalidField } from "../errors";
import { applyPatch, maskPaths } from "../masks";
import type { IdentityRecord } from "../store";
import { parseBody } from "../validate";
import { freshUid, pick, requireGroup, requireItem } from "./common";

export const identityMaskPaths = maskPaths(IdentityUpdate);

const SPEC_KEYS = ["name", "description", ...IDENTITY_KINDS];

/** A static-keys identity must expire in the future and at most 365 days ahead. */
function checkStaticKeys(ctx: ServerContext, sk: StaticKeys | undefined): void {
  if (!sk) return;
  const t = Date.parse(sk.expirationTime);
  const now = ctx.clock();
  if (t <= now) throw invalidField("staticKeys.expirationTime", "must be in the future");
  if (t > now + STATIC_KEYS_MAX_DAYS * 86_400_000)
    throw invalidField("staticKeys.expirationTime", `must be at most ${STATIC_KEYS_MAX_DAYS} days ahead`);
}

function record(base: Omit<IdentityRecord, keyof IdentityCreate>, input: IdentityCreate): IdentityRecord {
  const r: IdentityRecord = { ...base, name: input.name, description: input.description ?? "" };
  for (const k of IDENTITY_KINDS) if (input[k] !== undefined) (r as unknown as Record<string, unknown>)[k] = input[k];
  return r;
}

/** Creates an identity in group `groupUid`. */
export function createIdentity(ctx: ServerContext, groupUid: string, body: unknown): IdentityRecord {
  requireGroup(ctx, groupUid);
  const input = parseBody(IdentityCreate, body);
  checkStaticKeys(ctx, input.staticKeys);
  const now = timestamp(ctx);
  const r = record(
    { uid: freshUid(ctx.store.identities, groupUid), email: "", lastSeenTime: now, createTime: now, updateTime: now },
    input,
  );
  ctx.store.identities.insert(r);
  return r;
}

/** Updates an identity. Setting one kind replaces the identity's kind (it has exactly one). */
export function updateIdentity(ctx: ServerContext, uid: string, body: unknown, mask?: string[]): IdentityRecord {
  const old = requireItem(ctx.store.identities, uid, "identity");
  const patch = parseBody(IdentityUpdate, body);
  const current = pick(old, SPEC_KEYS);
  const inMask = (k: string) => !mask || mask.some((p) => p === k || p.startsWith(`${k}.`));
  const newKind = IDENTITY_KINDS.find((k) => inMask(k) && patch[k] !== undefined);
  if (newKind) for (const k of IDENTITY_KINDS) if (k !== newKind) delete current[k];
  const next = parseBody(IdentityCreate, applyPatch(current, patch, mask));
  if (newKind === "staticKeys") checkStaticKeys(ctx, next.staticKeys);
  const r = record(
    { uid, email: old.email, lastSeenTime: old.lastSeenTime, createTime: old.createTime, updateTime: timestamp(ctx) },
    next,
  );
  ctx.store.identities.replace(r);
  return r;
}

/** Deletes an identity and, with it, every role binding naming it. */
export function deleteIdentity(ctx: ServerContext, uid: string): void {
  requireItem(ctx.store.identities, uid, "identity");
  for (const b of ctx.store.bindingsOf(uid)) ctx.store.removeBinding(b.uid);
  ctx.store.identities.remove(uid);
}

/** The wire shape (the internal email stays out; bindings show it). */
export function renderIdentity(r: IdentityRecord): Record<string, unknown> {
  const { email: _email, ...wire } = r;
  return wire;
}

/** The kind of an identity, as the `relationshipType` filter names it (either spelling). */
export function kindOf(r: IdentityRecord): string {
  return IDENTITY_KINDS.find((k) => r[k] !== undefined) ?? "";
}
