/**
 * Token exchange: `GET|POST {authUrl}/sts/exchange` with an external OIDC token as the bearer and
 * the request's fields as query parameters or a form body (application/x-www-form-urlencoded, as
 * the platform's gateway reads them; a JSON body is not read): `aud` (the API's url or the
 * registry host), `identity` (the uid to assume), `cap`, `scope`/`scopes`, `identity_provider`.
 * The answer is `{token}`, valid one hour, for the identity and the requested audience, narrowed
 * to the capabilities asked (`cap`) and the groups asked (`scopes`, and an identity provider's
 * group), as far as the identity holds them (authz.ts, Narrowing).
 *
 * An exchange that names no identity signs a person in (people.ts): through the organization's
 * identity provider `identity_provider` (a token of its issuer for its client id; the first
 * sign-in registers the person and binds the provider's default role on its group), or, without
 * one, as a person who signed in before with the token's issuer (fixtures' people).
 *
 * The steps are ordered so that nothing an unauthenticated caller sees depends on which identity
 * uids exist:
 * 1. the request's fields and the token alone: a JWT, claims of the right types, a sane
 *    `exp`/`iat`/`nbf` (INVALID_ARGUMENT, UNAUTHENTICATED, see external-token.ts);
 * 2. its issuer must be trusted by some identity of the organization: a claimMatch identity's
 *    issuer rule (keys then come by OIDC discovery under the outbound rules; nothing is fetched
 *    from an issuer nobody trusts) or a staticKeys identity's issuer (keys from the identities'
 *    key sets, parsed at write); for a sign-in, the identity provider's issuer or a person's.
 *    This check on the still unverified `iss` costs a bounded amount of work whatever the
 *    organization holds (trusted-issuers.ts);
 * 3. the signature must verify under those keys (UNAUTHENTICATED otherwise; a failed fetch is
 *    one message whatever went wrong, and never quotes what came back);
 * 4. only then the requested identity, matched against the verified claims only. A claimMatch
 *    identity accepts only a token verified by its issuer's discovered keys, a staticKeys
 *    identity only one verified by its own keys. An unknown uid, an identity of another kind and
 *    a token that breaks its rules all get the same PERMISSION_DENIED (the precise reason goes to
 *    the server log).
 * A successful exchange is the identity's federation: its `lastSeenTime` moves. No message
 * quotes the token.
 */
import { decodeJwt, decodeProtectedHeader, errors as joseErrors, jwtVerify, type JWTPayload, type ProtectedHeaderParameters } from "jose";
import { EXCHANGED_TOKEN_TTL_SECONDS } from "../../api/collections";
import { UID, isSelfOrAncestor, parentOf } from "../../api/uid";
import { CAPABILITIES, capabilityNamed } from "../../api/capabilities";
import { withSuggestion } from "../../api/suggest";
import type { Narrowing } from "../authz";
import { federated, findPerson, signIn, type SignIn } from "../model";
import { keysExpired } from "../../api/kinds/identities";
import type { ServerContext } from "../context";
import { invalidField, permissionDenied, unauthenticated } from "../errors";
import type { IdentityRecord } from "../store";
import { allowedAudiences, defaultAudience, requestedAudience } from "./audience";
import { claimMismatch } from "./claim-match";
import type { IssuerKeys } from "./discovery";
import { OutboundError } from "./outbound";
import { trustedIssuers, type StaticIssuer } from "./trusted-issuers";
import { tokenProblem } from "./external-token";
import { describe } from "./tokens";

/** The fields of an exchange as sent, by name: every value of each, from the query and a form body. */
export type ExchangeParams = Record<string, string[]>;

/** The most groups one exchange may narrow a token to. */
export const EXCHANGE_SCOPES_MAX = 64;

/** An exchange's fields, checked. */
interface ExchangeRequest {
  audience: string;
  identity?: string;
  identityProvider?: string;
  narrowing: Narrowing;
}

/** The values of field `proto` (or its JSON name), from every place it was sent. */
function valuesOf(params: ExchangeParams, proto: string): string[] {
  const json = proto.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
  return [...(params[proto] ?? []), ...(json === proto ? [] : (params[json] ?? []))];
}

/** A single uid field: absent when empty (proto3's default), INVALID_ARGUMENT naming it otherwise. */
function uidField(params: ExchangeParams, proto: string, what: string): string | undefined {
  const values = valuesOf(params, proto).filter((v) => v !== "");
  if (values.length === 0) return undefined;
  if (new Set(values).size > 1) throw invalidField(proto, "must be given once");
  if (!UID.test(values[0])) throw invalidField(proto, `must be the uid of ${what}`);
  return values[0];
}

/** The exchange's fields, checked (INVALID_ARGUMENT naming the field): nothing here looks at the organization. */
function requestOf(ctx: ServerContext, params: ExchangeParams): ExchangeRequest {
  const audience = requestedAudience(ctx.urls, valuesOf(params, "aud"));
  const identity = uidField(params, "identity", "the identity to assume (or none, to sign a person in)");
  const identityProvider = uidField(params, "identity_provider", "the organization's identity provider to sign in through");
  const caps = valuesOf(params, "cap").filter((v) => v !== "");
  const capabilities = [
    ...new Set(
      caps.map((c) => {
        const named = capabilityNamed(c);
        if (!named)
          throw invalidField(
            "cap",
            withSuggestion(
              `${JSON.stringify(c.slice(0, 64))} is not a known capability (give names such as groups.list, or CAP_IAM_GROUPS_LIST)`,
              c,
              CAPABILITIES,
            ),
          );
        return named;
      }),
    ),
  ];
  const scopes = [...new Set([...valuesOf(params, "scope"), ...valuesOf(params, "scopes")].filter((v) => v !== ""))];
  if (scopes.length > EXCHANGE_SCOPES_MAX) throw invalidField("scopes", `must name at most ${EXCHANGE_SCOPES_MAX} groups`);
  for (const g of scopes) if (!UID.test(g)) throw invalidField("scopes", "must be group uids");
  return {
    audience,
    identity,
    identityProvider,
    narrowing: { ...(caps.length ? { capabilities } : {}), ...(scopes.length ? { scopes } : {}) },
  };
}

/** The bearer token of an Authorization header, or UNAUTHENTICATED. */
export function bearerOf(header: string | undefined): string {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header ?? "");
  if (!m) throw unauthenticated("missing bearer token: send Authorization: Bearer <token>");
  return m[1];
}

/** Who vouched for a token: its issuer's discovered keys, and/or these staticKeys identities' keys. */
interface Verified {
  discovered?: JWTPayload;
  byStaticKeys: Map<string, JWTPayload>;
}

/** The token's claims under its issuer's discovered keys, or UNAUTHENTICATED in the words verifyToken uses. */
async function discoveredClaims(keys: IssuerKeys, token: string, iss: string, currentDate: Date, log: (reason: string) => void): Promise<JWTPayload> {
  try {
    return await verifyDiscovered(keys, token, iss, currentDate);
  } catch (e) {
    if (e instanceof OutboundError) log(`the issuer's keys could not be fetched (${e.kind})`);
    throw unauthenticated(e instanceof OutboundError ? e.message : describe(e));
  }
}

/** The token's claims under `getKey`, retried once with refreshed keys when its kid is unknown. */
async function verifyDiscovered(keys: IssuerKeys, token: string, iss: string, currentDate: Date): Promise<JWTPayload> {
  const getKey = keys.cached(iss) ?? (await keys.forIssuer(iss));
  try {
    return (await jwtVerify(token, getKey, { issuer: iss, currentDate })).payload;
  } catch (e) {
    if (!(e instanceof joseErrors.JWKSNoMatchingKey)) throw e;
    const fresh = await keys.refreshed(iss);
    if (!fresh) throw e;
    return (await jwtVerify(token, fresh, { issuer: iss, currentDate })).payload;
  }
}

/** The kty a JWS algorithm needs. */
const ktyOf = (alg: unknown) =>
  typeof alg !== "string" ? "" : alg.startsWith("ES") ? "EC" : alg.startsWith("EdDSA") || alg === "Ed25519" ? "OKP" : /^(RS|PS)/.test(alg) ? "RSA" : "";

/**
 * The token under the organization's static keys for its issuer: each distinct key the header
 * can mean is tried once (at most STATIC_KEYS_PER_ISSUER), and a key that verifies vouches for
 * every identity holding it.
 */
async function verifyStatic(token: string, statics: StaticIssuer, iss: string, currentDate: Date, out: Verified): Promise<string | undefined> {
  let header: ProtectedHeaderParameters;
  try {
    header = decodeProtectedHeader(token);
  } catch {
    return "the bearer token is not a valid JWT";
  }
  const candidates = statics.keys.filter(
    (k) => k.kty === ktyOf(header.alg) && (header.kid === undefined || k.kid === header.kid) && (k.alg === undefined || k.alg === header.alg),
  );
  if (candidates.length === 0) return "the bearer token is signed by a key its issuer does not publish";
  let firstError: string | undefined;
  for (const k of candidates) {
    try {
      const { payload } = await jwtVerify(token, k.key, { issuer: iss, currentDate });
      for (const uid of statics.holders.get(k.id) ?? []) out.byStaticKeys.set(uid, payload);
      return undefined;
    } catch (e) {
      firstError ??= describe(e);
    }
  }
  return firstError;
}

/** Verifies `token` under every key source the organization trusts for its issuer (steps 2, 3). */
async function verifyToken(
  ctx: ServerContext,
  keys: IssuerKeys,
  token: string,
  iss: string,
  log: (reason: string) => void,
  deny: () => Error,
): Promise<Verified> {
  const trusted = trustedIssuers(ctx.store);
  const discover = trusted.discoverable(iss);
  const statics = trusted.staticKeysFor(iss);
  if (!discover && !statics) throw deny();
  const currentDate = new Date(ctx.clock());
  const out: Verified = { byStaticKeys: new Map() };
  let firstError: string | undefined;
  if (discover) {
    try {
      out.discovered = await verifyDiscovered(keys, token, iss, currentDate);
    } catch (e) {
      if (e instanceof OutboundError) log(`the issuer's keys could not be fetched (${e.kind})`);
      // Outbound errors say one thing whatever happened; jose's are described without the token.
      firstError = e instanceof OutboundError ? e.message : describe(e);
    }
  }
  if (statics) firstError = (await verifyStatic(token, statics, iss, currentDate, out)) ?? firstError;
  if (!out.discovered && out.byStaticKeys.size === 0) throw unauthenticated(firstError!);
  return out;
}

/** Why the verified token may not assume `identity` (step 4), or undefined when it may. */
function refusal(ctx: ServerContext, identity: IdentityRecord | undefined, verified: Verified): string | undefined {
  if (!identity) return "no such identity";
  if (identity.claimMatch) {
    if (!verified.discovered) return "the token was not verified by its issuer's published keys";
    return claimMismatch(identity.claimMatch, verified.discovered, defaultAudience(ctx.urls));
  }
  const sk = identity.staticKeys;
  if (sk) {
    const claims = verified.byStaticKeys.get(identity.uid);
    if (!claims) return "the token was not signed by the identity's static keys";
    if (keysExpired(sk, ctx.clock())) return "the identity's static keys have expired";
    if (claims.sub !== sk.subject) return "the token's subject does not match the identity's staticKeys";
    const want = sk.audiences?.length ? sk.audiences : allowedAudiences(ctx.urls);
    const aud = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
    if (!aud.some((a) => typeof a === "string" && want.includes(a))) return "the token's audience does not match the identity's staticKeys";
    return undefined;
  }
  return "the identity cannot be assumed by token exchange";
}

/** True when the token's `aud` holds `want`. */
const audienceHolds = (aud: JWTPayload["aud"], want: string) => (Array.isArray(aud) ? aud : [aud]).includes(want);

/**
 * A sign-in (an exchange naming no identity): who signs in, from the verified token. Through an
 * identity provider, a token of its issuer for its client id; without one, a token of the issuer
 * a person signed in with before, for this server's default audience, from that person.
 */
async function signInOf(
  ctx: ServerContext,
  keys: IssuerKeys,
  req: ExchangeRequest,
  token: string,
  iss: string,
  log: (reason: string) => void,
): Promise<SignIn> {
  const idpUid = req.identityProvider;
  const deny = (why: string) => {
    log(why);
    return permissionDenied(
      idpUid
        ? `the token may not sign in through identity provider ${idpUid}: no such identity provider, or the token is not its issuer's for its client id`
        : "the token may not sign a person in: an exchange that names no identity signs in a person who signed in before with the token's issuer and subject; name the identity to assume (identity), or the organization's identity provider the token comes from (identity_provider)",
    );
  };
  const currentDate = new Date(ctx.clock());
  if (idpUid) {
    const before = ctx.store.identityProviders.get(idpUid);
    if (before?.oidc.issuer !== iss) throw deny("no identity provider of that uid has the token's issuer");
    const claims = await discoveredClaims(keys, token, iss, currentDate, log);
    // Read it again after the await: it may have changed or gone while keys were fetched.
    const idp = ctx.store.identityProviders.get(idpUid);
    if (idp?.oidc.issuer !== iss) throw deny("the identity provider changed while its keys were fetched");
    if (!audienceHolds(claims.aud, idp.oidc.clientId)) throw deny("the token's audience is not the identity provider's client id");
    return signInClaims(claims, iss, idpUid);
  }
  if (!trustedIssuers(ctx.store).peopleIssuer(iss)) throw deny("nobody signed in with the token's issuer");
  const claims = await discoveredClaims(keys, token, iss, currentDate, log);
  if (!audienceHolds(claims.aud, defaultAudience(ctx.urls))) throw deny("the token's audience is not this server's default audience");
  const person = findPerson(ctx, iss, claims.sub!);
  if (!person || person.person.identityProvider !== undefined)
    throw deny("no person signed in with the token's issuer and subject, other than through an identity provider");
  return signInClaims(claims, iss);
}

/** What a verified sign-in token says of its person: subject, and the OIDC profile claims it carries. */
function signInClaims(claims: JWTPayload, issuer: string, identityProvider?: string): SignIn {
  const text = (v: unknown, max: number) => (typeof v === "string" && v !== "" && v.length <= max ? v : undefined);
  return {
    issuer,
    subject: claims.sub!,
    ...(identityProvider ? { identityProvider } : {}),
    name: text(claims.name, 256),
    email: text(claims.email, 256),
    emailVerified: claims.email_verified === true,
  };
}

/** The narrowing an identity provider adds: the token acts in its group (and below) only. */
function withProvider(ctx: ServerContext, n: Narrowing, idpUid: string | undefined, deny: () => Error): Narrowing {
  if (!idpUid) return n;
  const idp = ctx.store.identityProviders.get(idpUid);
  const group = idp && parentOf(idp.uid);
  if (!group) throw deny();
  const scopes = n.scopes ?? [group];
  if (scopes.some((s) => !isSelfOrAncestor(group, s))) throw deny();
  return { ...n, scopes };
}

/** Runs an exchange and returns the response body `{token}`. `log` hears the precise reason of a denial. */
export async function exchange(
  ctx: ServerContext,
  keys: IssuerKeys,
  params: ExchangeParams,
  authorization: string | undefined,
  log: (reason: string) => void = () => {},
): Promise<{ token: string }> {
  const token = bearerOf(authorization);
  const req = requestOf(ctx, params);
  let claims: JWTPayload;
  try {
    claims = decodeJwt(token);
  } catch {
    throw unauthenticated("the bearer token is not a valid JWT");
  }
  const problem = tokenProblem(claims, ctx.clock());
  if (problem) throw unauthenticated(problem);
  const identity = req.identity;
  if (identity === undefined) {
    const who = await signInOf(ctx, keys, req, token, claims.iss!, log);
    const denyScope = () =>
      permissionDenied(`the token may not sign in through identity provider ${req.identityProvider}: its scopes must lie in the identity provider's group`);
    const narrowing = withProvider(ctx, req.narrowing, req.identityProvider, denyScope);
    const person = ctx.store.transaction(() => signIn(ctx, who));
    return { token: await ctx.tokens.issue(person.uid, EXCHANGED_TOKEN_TTL_SECONDS, req.audience, narrowing) };
  }
  const deny = () =>
    permissionDenied(
      `the token may not assume identity ${identity}: no such identity, or the token's issuer, subject, audience or claims do not satisfy its rules`,
    );
  const verified = await verifyToken(ctx, keys, token, claims.iss!, log, () => {
    log("no identity of the organization trusts the token's issuer");
    return deny();
  });
  // Read the identity after the awaits: it may have changed or gone while keys were fetched.
  const why = refusal(ctx, ctx.store.identities.get(identity), verified);
  if (why) {
    log(why);
    throw deny();
  }
  const narrowing = withProvider(ctx, req.narrowing, req.identityProvider, () => {
    log("identity_provider names no identity provider of the organization, or scopes outside its group");
    return deny();
  });
  ctx.store.transaction(() => federated(ctx, identity));
  return { token: await ctx.tokens.issue(identity, EXCHANGED_TOKEN_TTL_SECONDS, req.audience, narrowing) };
}
