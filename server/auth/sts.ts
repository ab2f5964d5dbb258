/**
 * Token exchange: `GET|POST {authUrl}/sts/exchange?aud=<api url or registry host>&identity=<uid>` with an external
 * OIDC token as the bearer. The token must verify (signature, expiry) and satisfy the identity's
 * rules; the answer is `{token}`, an API token for the identity valid one hour.
 * - claimMatch identities: keys by OIDC discovery of the token's issuer (checked against the
 *   identity's issuer rule first, so we never fetch from an issuer the identity does not trust).
 * - staticKeys identities: keys from the identity's own JWKS; issuer, subject and audiences fixed.
 * - awsIdentity and servicePrincipal identities cannot be assumed by exchange here.
 * Failures: UNAUTHENTICATED (the token itself is bad) or PERMISSION_DENIED (a good token that may
 * not assume this identity). No message quotes the token.
 */
import { createLocalJWKSet, decodeJwt, jwtVerify, errors as joseErrors, type JWTPayload } from "jose";
import { EXCHANGED_TOKEN_TTL_SECONDS } from "../../api/collections";
import { UID } from "../../api/uid";
import type { ServerContext } from "../context";
import { invalidField, permissionDenied, unauthenticated } from "../errors";
import { requestedAudience } from "./audience";
import { claimMismatch, issuerMismatch } from "./claim-match";
import type { IssuerKeys } from "./discovery";
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

async function verifyExternal(ctx: ServerContext, keys: IssuerKeys, token: string, claims: JWTPayload, uid: string): Promise<void> {
  const identity = ctx.store.identities.get(uid);
  const denied = () => permissionDenied(`identity ${uid} does not exist or cannot be assumed by token exchange`);
  if (!identity) throw denied();
  const currentDate = new Date(ctx.clock());
  if (identity.claimMatch) {
    const cm = identity.claimMatch;
    const iss = typeof claims.iss === "string" ? claims.iss : "";
    const wrongIssuer = issuerMismatch(cm, iss);
    if (wrongIssuer) throw permissionDenied(wrongIssuer);
    let getKey;
    try {
      getKey = await keys.forIssuer(iss);
    } catch (e) {
      throw unauthenticated((e as Error).message);
    }
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, getKey, { issuer: iss, currentDate }));
    } catch (e) {
      throw unauthenticated(describe(e));
    }
    const mismatch = claimMismatch(cm, payload, ctx.urls.url);
    if (mismatch) throw permissionDenied(mismatch);
    return;
  }
  if (identity.staticKeys) {
    const sk = identity.staticKeys;
    if (Date.parse(sk.expirationTime) <= ctx.clock()) throw permissionDenied(`identity ${uid}'s static keys have expired`);
    try {
      await jwtVerify(token, createLocalJWKSet(JSON.parse(sk.issuerKeys)), {
        issuer: sk.issuer,
        subject: sk.subject,
        audience: sk.audiences?.length ? sk.audiences : ctx.urls.url,
        currentDate,
      });
    } catch (e) {
      if (e instanceof joseErrors.JWTClaimValidationFailed && e.claim !== "exp" && e.claim !== "nbf" && e.claim !== "iat")
        throw permissionDenied(`the token's ${e.claim} claim does not match the identity's staticKeys`);
      throw unauthenticated(describe(e));
    }
    return;
  }
  throw denied();
}

/** Runs an exchange and returns the response body `{token}`. */
export async function exchange(ctx: ServerContext, keys: IssuerKeys, params: ExchangeParams, authorization: string | undefined): Promise<{ token: string }> {
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
  await verifyExternal(ctx, keys, token, claims, identity);
  // The identity may have been deleted while we fetched keys.
  if (!ctx.store.identities.has(identity)) throw permissionDenied(`identity ${identity} does not exist`);
  return { token: await ctx.tokens.issue(identity, EXCHANGED_TOKEN_TTL_SECONDS, audience) };
}
