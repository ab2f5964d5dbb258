/**
 * What an external token must be before anything else is looked at, whoever it claims to be:
 * registered claims of the right JSON types, an `exp` that is neither past nor far ahead, and
 * `iat`/`nbf` not in the future. These checks need no keys and no identity, so their answer
 * (UNAUTHENTICATED) tells an unauthenticated caller nothing about the organization.
 */
import type { JWTPayload } from "jose";

/** The longest remaining lifetime accepted: a day (workload tokens live minutes to an hour). */
export const EXTERNAL_TOKEN_MAX_LIFETIME_SECONDS = 24 * 3600;
/** The longest `iss` looked at (an issuer is a URL; this bounds the work of matching it). */
export const ISSUER_MAX = 2048;
/** Clock skew allowed on `iat` and `nbf`. */
export const CLOCK_SKEW_SECONDS = 60;

const isNumber = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);

/** Why `claims` (unverified or verified) are not acceptable at time `nowMs`, or undefined. */
export function tokenProblem(claims: JWTPayload, nowMs: number): string | undefined {
  const now = Math.floor(nowMs / 1000);
  if (typeof claims.iss !== "string" || claims.iss === "") return `the bearer token's "iss" claim must be a non-empty string`;
  if (claims.iss.length > ISSUER_MAX) return `the bearer token's "iss" claim is longer than ${ISSUER_MAX} characters`;
  if (typeof claims.sub !== "string" || claims.sub === "") return `the bearer token's "sub" claim must be a non-empty string`;
  const aud = claims.aud;
  const audOk = typeof aud === "string" || (Array.isArray(aud) && aud.length > 0 && aud.every((a) => typeof a === "string"));
  if (!audOk) return `the bearer token's "aud" claim must be a string or an array of strings`;
  if (!isNumber(claims.exp)) return `the bearer token has no "exp" claim: tokens without an expiry are not accepted`;
  if (claims.exp <= now) return "the bearer token has expired";
  if (claims.exp > now + EXTERNAL_TOKEN_MAX_LIFETIME_SECONDS)
    return `the bearer token expires too far ahead: at most ${EXTERNAL_TOKEN_MAX_LIFETIME_SECONDS}s of lifetime is accepted`;
  for (const name of ["iat", "nbf"] as const) {
    const t = claims[name];
    if (t === undefined) continue;
    if (!isNumber(t)) return `the bearer token's "${name}" claim must be a number`;
    if (t > now + CLOCK_SKEW_SECONDS) return `the bearer token's "${name}" claim is in the future`;
  }
  return undefined;
}
