/**
 * Does a verified external token's claims satisfy an identity's `claimMatch`? Values are compared
 * by type, never by their string form: an exact rule or a pattern matches a claim only when the
 * claim is a JSON string (`["admins"]`, `"a,b"` vs an array, and a missing claim never match).
 * `aud` alone may be an array (RFC 7519): one of its strings must match. Patterns are RE2
 * (re2js, linear time) and must match the whole value.
 * Returns the first mismatch in words (never quoting the token), or undefined on a match.
 */
import type { JWTPayload } from "jose";
import { RE2JS } from "re2js";
import type { ClaimMatch } from "../../api/bodies";

const compiled = new Map<string, RE2JS | null>();

/** The anchored RE2 program of `pattern` (compiled once; null when it does not compile). */
export function program(pattern: string): RE2JS | null {
  let p = compiled.get(pattern);
  if (p === undefined) {
    try {
      p = RE2JS.compile(`^(?:${pattern})$`);
    } catch {
      p = null;
    }
    if (compiled.size > 10_000) compiled.clear();
    compiled.set(pattern, p);
  }
  return p;
}

/** True when `pattern` matches all of `value`, in time linear in `value`. */
export function fullMatch(pattern: string, value: string): boolean {
  return program(pattern)?.matcher(value).matches() ?? false;
}

/** True when `value` is a string equal to `exact`, or matching `pattern`. */
function matchesOne(value: unknown, exact?: string, pattern?: string): boolean {
  if (typeof value !== "string") return false;
  return exact !== undefined ? value === exact : fullMatch(pattern!, value);
}

function check(what: string, value: unknown, exact?: string, pattern?: string, many = false): string | undefined {
  if (exact === undefined && pattern === undefined) return undefined;
  const ok = many && Array.isArray(value) ? value.some((v) => matchesOne(v, exact, pattern)) : matchesOne(value, exact, pattern);
  return ok ? undefined : `the token's ${what} does not match the identity's claimMatch`;
}

/** The issuer rule alone. */
function issuerMismatch(cm: ClaimMatch, iss: unknown): string | undefined {
  return check("issuer", iss, cm.issuer, cm.issuerPattern);
}

/**
 * The first claimMatch rule `claims` break. `apiAudience` is what the token's `aud` must hold
 * when the identity names no audience: this API's url.
 */
export function claimMismatch(cm: ClaimMatch, claims: JWTPayload, apiAudience: string): string | undefined {
  const audience =
    cm.audience === undefined && cm.audiencePattern === undefined
      ? check("audience", claims.aud, apiAudience, undefined, true)
      : check("audience", claims.aud, cm.audience, cm.audiencePattern, true);
  const problem = issuerMismatch(cm, claims.iss) ?? check("subject", claims.sub, cm.subject, cm.subjectPattern) ?? audience;
  if (problem) return problem;
  const has = (name: string) => Object.hasOwn(claims, name);
  for (const [name, want] of Object.entries(cm.claims ?? {}))
    if (!has(name) || !matchesOne(claims[name], want)) return `the token's "${name}" claim does not match the identity's claimMatch`;
  for (const [name, pattern] of Object.entries(cm.claimPatterns ?? {}))
    if (!has(name) || !matchesOne(claims[name], undefined, pattern)) return `the token's "${name}" claim does not match the identity's claimMatch`;
  return undefined;
}
