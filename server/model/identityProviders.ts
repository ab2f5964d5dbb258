/** Identity providers: OIDC sign-in for a group. The client secret is write-only. */
import { createHash } from "node:crypto";
import { isDeepStrictEqual } from "node:util";
import { IdentityProviderCreate, IdentityProviderUpdate, Oidc } from "../../api/bodies";
import { correlationRuleOf } from "../../api/kinds/identityProviders";
import { parentOf } from "../../api/uid";
import { timestamp, type ServerContext } from "../context";
import { applyPatch, maskPaths } from "../masks";
import type { IdentityProviderRecord } from "../store";
import { parseBody } from "../validate";
import { invalidField } from "../errors";
import { changed, freshUid, grantableRole, requireGroup, requireItem } from "./common";

export const identityProviderMaskPaths = maskPaths(IdentityProviderUpdate, ["oidc"]);

/** A stored IdP validated as a whole; the secret may be empty once a mask cleared it. */
const IdentityProviderState = IdentityProviderCreate.extend({ oidc: Oidc.omit({ clientSecret: true }) });

const hash = (secret: string) => createHash("sha256").update(secret).digest("hex");

function withoutSecret<T>(body: T): T {
  const b = structuredClone(body) as { oidc?: { clientSecret?: string } };
  if (b.oidc) delete b.oidc.clientSecret;
  return b as T;
}

/** The connection as the record keeps it: every member but the secret (kept as a hash beside it). */
function stored(o: Oidc): IdentityProviderRecord["oidc"] {
  const { clientSecret: _s, ...rest } = o;
  return { ...rest, additionalScopes: o.additionalScopes ?? [] };
}

/** What the API reports of SCIM provisioning: irv-server has none (its methods are not served). */
const SCIM_OFF = { enabled: false, credentialState: "CREDENTIAL_STATE_NOT_ISSUED" } as const;

/** Creates an identity provider in group `groupUid`. */
export function createIdentityProvider(ctx: ServerContext, groupUid: string, body: unknown, caller: string): IdentityProviderRecord {
  requireGroup(ctx, groupUid);
  const input = parseBody(IdentityProviderCreate, body);
  // Everyone who signs in through it gets the default role: only what the caller holds.
  grantableRole(ctx, caller, input.defaultRole, groupUid, "defaultRole");
  const now = timestamp(ctx);
  const r: IdentityProviderRecord = {
    uid: freshUid(ctx.store.identityProviders, groupUid),
    name: input.name,
    description: input.description ?? "",
    defaultRole: input.defaultRole,
    oidc: stored(input.oidc),
    // A public client (PKCE) has no secret: the hash of "" stands for none.
    clientSecretHash: hash(input.oidc.clientSecret ?? ""),
    createTime: now,
    updateTime: now,
  };
  ctx.store.identityProviders.insert(r);
  return r;
}

/**
 * Updates an identity provider. The secret changes only when a non-empty one is sent without a
 * mask, or when the mask names `oidc` or `oidc.clientSecret` (then an empty one clears it).
 */
export function updateIdentityProvider(
  ctx: ServerContext,
  uid: string,
  body: unknown,
  mask: string[] | undefined,
  caller: string,
): IdentityProviderRecord {
  const old = requireItem(ctx.store.identityProviders, uid, "identity provider");
  const patch = parseBody(IdentityProviderUpdate, body);
  const sent = patch.oidc?.clientSecret;
  const secretMasked = mask?.some((p) => p === "oidc" || p === "oidc.clientSecret") ?? false;
  const clientSecretHash = mask ? (secretMasked ? hash(sent ?? "") : old.clientSecretHash) : sent ? hash(sent) : old.clientSecretHash;

  const current = { name: old.name, description: old.description, defaultRole: old.defaultRole || undefined, oidc: old.oidc };
  const merged = applyPatch(current, withoutSecret(patch), mask?.filter((p) => p !== "oidc.clientSecret"), ["oidc"]);
  const next = parseBody(IdentityProviderState, withoutSecret(merged));
  // The rule that maps a login to a provisioned user is fixed: another would let claims capture accounts.
  if (correlationRuleOf(next.oidc.correlationRule) !== correlationRuleOf(old.oidc.correlationRule)) throw invalidField("oidc.correlationRule", "cannot change once the identity provider is created: create a new one");
  if (!next.oidc.pkceEnabled && clientSecretHash === hash(""))
    throw invalidField("oidc.clientSecret", "is required unless pkceEnabled is true (a public client)");
  const r: IdentityProviderRecord = {
    ...old,
    name: next.name,
    description: next.description ?? "",
    defaultRole: next.defaultRole,
    oidc: stored(next.oidc),
    clientSecretHash,
    updateTime: timestamp(ctx),
  };
  if (!changed(old, r)) return old;
  // Who signs in (issuer, client) decides who gets the default role: changing either is granting it.
  const signIn = (p: IdentityProviderRecord) => [p.defaultRole, p.oidc.issuer, p.oidc.clientId, p.clientSecretHash];
  if (r.defaultRole && !isDeepStrictEqual(signIn(r), signIn(old))) grantableRole(ctx, caller, r.defaultRole, parentOf(uid)!, "defaultRole");
  ctx.store.identityProviders.replace(r);
  return r;
}

/** Deletes an identity provider. */
export function deleteIdentityProvider(ctx: ServerContext, uid: string): void {
  requireItem(ctx.store.identityProviders, uid, "identity provider");
  ctx.store.identityProviders.remove(uid);
}

/** The wire shape: never the secret. */
export function renderIdentityProvider(r: IdentityProviderRecord): Record<string, unknown> {
  const { clientSecretHash: _s, ...wire } = r;
  return { ...wire, scim: SCIM_OFF };
}
