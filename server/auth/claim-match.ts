/**
 * Does a verified external token's claims satisfy an identity's `claimMatch`? Exact fields
 * compare as strings; `*Pattern` fields are regular expressions that must match the whole value.
 * Returns the first mismatch in words (never quoting the token), or undefined on a match.
 */
import type { JWTPayload } from "jose";
import type { ClaimMatch } from "../../api/inputs";

/** True when `pattern` matches all of `value`. */
export function fullMatch(pattern: string, value: string): boolean {
  try {
    return new RegExp(`^(?:${pattern})$`).test(value);
  } catch {
    return false;
  }
}

function check(what: string, value: string | string[] | undefined, exact?: string, pattern?: string): string | undefined {
  if (exact === undefined && pattern === undefined) return undefined;
  const values = value === undefined ? [] : Array.isArray(value) ? value : [value];
  const ok = values.some((v) => (exact !== undefined ? v === exact : fullMatch(pattern!, v)));
  return ok ? undefined : `the token's ${what} does not match the identity's claimMatch`;
}

/** The first claimMatch rule the issuer alone breaks (checked before fetching its keys). */
export function issuerMismatch(cm: ClaimMatch, iss: string): string | undefined {
  return check("issuer", iss, cm.issuer, cm.issuerPattern);
}

/**
 * The first claimMatch rule `claims` break. `apiAudience` is what the token's `aud` must hold
 * when the identity names no audience: this API's url.
 */
export function claimMismatch(cm: ClaimMatch, claims: JWTPayload, apiAudience: string): string | undefined {
  const aud = claims.aud;
  const audience =
    cm.audience === undefined && cm.audiencePattern === undefined
      ? check("audience", aud, apiAudience)
      : check("audience", aud, cm.audience, cm.audiencePattern);
  const problem =
    issuerMismatch(cm, String(claims.iss ?? "")) ??
    check("subject", claims.sub, cm.subject, cm.subjectPattern) ??
    audience;
  if (problem) return problem;
  for (const [name, want] of Object.entries(cm.claims ?? {}))
    if (String(claims[name] ?? "") !== want) return `the token's "${name}" claim does not match the identity's claimMatch`;
  for (const [name, pattern] of Object.entries(cm.claimPatterns ?? {}))
    if (!fullMatch(pattern, String(claims[name] ?? ""))) return `the token's "${name}" claim does not match the identity's claimMatch`;
  return undefined;
}
