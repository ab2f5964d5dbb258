/**
 * Token exchange: `GET|POST {authUrl}/sts/exchange?aud=<api url or registry host>&identity=<uid>`
 * with an external OIDC token as the bearer; the answer is `{token}`, a token for the identity and
 * the requested audience (the API, or the registry host), valid one hour.
 * The steps are ordered so that nothing an unauthenticated caller sees depends on which identity
 * uids exist:
 * 1. the token alone: a JWT, claims of the right types, a sane `exp`/`iat`/`nbf`
 *    (UNAUTHENTICATED, see external-token.ts);
 * 2. its issuer must be trusted by some identity of the organization: a claimMatch identity's
 *    issuer rule (keys then come by OIDC discovery under the outbound rules; nothing is fetched
 *    from an issuer nobody trusts) or a staticKeys identity's issuer (keys from the identities'
 *    key sets, parsed at write). This check on the still unverified `iss` costs a bounded amount
 *    of work whatever the organization holds (trusted-issuers.ts);
 * 3. the signature must verify under those keys (UNAUTHENTICATED otherwise; a failed fetch is
 *    one message whatever went wrong, and never quotes what came back);
 * 4. only then the requested identity, matched against the verified claims only. A claimMatch
 *    identity accepts only a token verified by its issuer's discovered keys, a staticKeys
 *    identity only one verified by its own keys. An unknown uid, an identity of another kind and
 *    a token that breaks its rules all get the same PERMISSION_DENIED (the precise reason goes to
 *    the server log).
 * No message quotes the token.
 */
import { decodeJwt, decodeProtectedHeader, errors as joseErrors, jwtVerify, type JWTPayload, type ProtectedHeaderParameters } from "jose";
import { EXCHANGED_TOKEN_TTL_SECONDS } from "../../api/collections";
import { UID } from "../../api/uid";
import { keysExpired } from "../../api/kinds/identities";
import type { ServerContext } from "../context";
import { invalidField, permissionDenied, unauthenticated } from "../errors";
import type { IdentityRecord } from "../store";
import { requestedAudience } from "./audience";
import { claimMismatch } from "./claim-match";
import type { IssuerKeys } from "./discovery";
import { OutboundError } from "./outbound";
import { trustedIssuers, type StaticIssuer } from "./trusted-issuers";
import { tokenProblem } from "./external-token";
import { describe } from "./tokens";

/** Parameters of an exchange, from the query (or a form body). */
export interface ExchangeParams {
  aud?: unknown;
  identity?: unknown;
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
const ktyOf = (alg: unknown) => (typeof alg !== "string" ? "" : alg.startsWith("ES") ? "EC" : alg.startsWith("EdDSA") || alg === "Ed25519" ? "OKP" : /^(RS|PS)/.test(alg) ? "RSA" : "");

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
async function verifyToken(ctx: ServerContext, keys: IssuerKeys, token: string, iss: string, log: (reason: string) => void, deny: () => Error): Promise<Verified> {
  const trusted = trustedIssuers(ctx.store.identities);
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
    return claimMismatch(identity.claimMatch, verified.discovered, ctx.urls.url);
  }
  const sk = identity.staticKeys;
  if (sk) {
    const claims = verified.byStaticKeys.get(identity.uid);
    if (!claims) return "the token was not signed by the identity's static keys";
    if (keysExpired(sk, ctx.clock())) return "the identity's static keys have expired";
    if (claims.sub !== sk.subject) return "the token's subject does not match the identity's staticKeys";
    const want = sk.audiences?.length ? sk.audiences : [ctx.urls.url];
    const aud = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
    if (!aud.some((a) => typeof a === "string" && want.includes(a))) return "the token's audience does not match the identity's staticKeys";
    return undefined;
  }
  return "the identity cannot be assumed by token exchange";
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
  const { aud, identity } = params;
  const audience = requestedAudience(ctx.urls, aud);
  if (typeof identity !== "string" || !UID.test(identity)) throw invalidField("identity", "must be the uid of the identity to assume");
  let claims: JWTPayload;
  try {
    claims = decodeJwt(token);
  } catch {
    throw unauthenticated("the bearer token is not a valid JWT");
  }
  const problem = tokenProblem(claims, ctx.clock());
  if (problem) throw unauthenticated(problem);
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
  return { token: await ctx.tokens.issue(identity, EXCHANGED_TOKEN_TTL_SECONDS, audience) };
}
