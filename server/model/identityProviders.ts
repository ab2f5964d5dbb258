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
 * Updates an identity provider, as the protos say: an empty `clientSecret` keeps the stored one
 * unless the mask names `oidc.client_secret` explicitly (then it clears it); without a mask, REST
 * names what the body holds, so a secret in the body, even empty, is named (gRPC clients send no
 * empty string, so theirs keeps it). A `correlationRule` left unset, or restated, is no change;
 * another is refused (it is immutable).
 */
export function updateIdentityProvider(ctx: ServerContext, uid: string, body: unknown, mask: string[] | undefined, caller: string): IdentityProviderRecord {
  const old = requireItem(ctx.store.identityProviders, uid, "identity provider");
  const patch = parseBody(IdentityProviderUpdate, body);
  const sent = patch.oidc?.clientSecret;
  const named = mask ? mask.includes("oidc.clientSecret") : sent !== undefined;
  const clientSecretHash = named || sent ? hash(sent ?? "") : old.clientSecretHash;

  const current = { name: old.name, description: old.description, defaultRole: old.defaultRole || undefined, oidc: old.oidc };
  const merged = applyPatch(
    current,
    withoutSecret(patch),
    mask?.filter((p) => p !== "oidc.clientSecret"),
    ["oidc"],
  );
  const parsed = parseBody(IdentityProviderState, withoutSecret(merged));
  // The rule that maps a login to a provisioned user is fixed: another would let claims capture
  // accounts. Unset (or UNSPECIFIED, proto3's unset) keeps it; restating it changes nothing.
  const rule = parsed.oidc.correlationRule;
  const unset = rule === undefined || rule === "CORRELATION_RULE_UNSPECIFIED";
  if (!unset && correlationRuleOf(rule) !== correlationRuleOf(old.oidc.correlationRule))
    throw invalidField("oidc.correlationRule", "cannot change once the identity provider is created: create a new one");
  const { correlationRule: _rule, ...oidcRest } = parsed.oidc;
  // Past that check the rule is the stored one, whichever way the request spelled it.
  const kept = old.oidc.correlationRule as typeof rule;
  const next = { ...parsed, oidc: { ...oidcRest, ...(kept === undefined ? {} : { correlationRule: kept }) } };
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
