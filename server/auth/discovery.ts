/**
 * Finding an external issuer's keys: OIDC discovery (`<iss>/.well-known/openid-configuration`
 * -> `jwks_uri`), then jose's remote JWKS set, cached per issuer (jose refetches on an unknown
 * kid). Only https issuers are fetched, except plain http on loopback hosts (test issuers).
 */
import { createRemoteJWKSet, type JWTVerifyGetKey } from "jose";
import { isLoopbackHost } from "../../api/fields";
import type { TrustedIssuers } from "./trusted-issuers";

/** Why `url` may not be fetched, or undefined when it may. */
export function unfetchable(url: string): string | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return "is not a URL";
  }
  if (u.protocol === "https:") return undefined;
  if (u.protocol === "http:" && isLoopbackHost(u.hostname)) return undefined;
  return "must be https (plain http only on a loopback host)";
}

/** Issuer -> JWKS getter, cached for the life of the server; and which issuers may be asked. */
export class IssuerKeys {
  private cache = new Map<string, Promise<JWTVerifyGetKey>>();

  constructor(readonly trusted: TrustedIssuers) {}

  /** The key getter for `issuer`, discovering it once. Throws an Error with a safe message. */
  async forIssuer(issuer: string): Promise<JWTVerifyGetKey> {
    let hit = this.cache.get(issuer);
    if (!hit) {
      hit = this.discover(issuer);
      this.cache.set(issuer, hit);
      // A failed discovery is not cached: the issuer may come up later.
      hit.catch(() => this.cache.delete(issuer));
    }
    return hit;
  }

  private async discover(issuer: string): Promise<JWTVerifyGetKey> {
    const bad = unfetchable(issuer);
    if (bad) throw new Error(`the token's issuer ${bad}`);
    const where = `${issuer.replace(/\/$/, "")}/.well-known/openid-configuration`;
    let doc: { jwks_uri?: unknown };
    try {
      const res = await fetch(where, { signal: AbortSignal.timeout(5000), redirect: "error" });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      doc = (await res.json()) as { jwks_uri?: unknown };
    } catch (e) {
      throw new Error(`OIDC discovery at ${where} failed: ${(e as Error).message}`);
    }
    if (typeof doc.jwks_uri !== "string") throw new Error(`OIDC discovery at ${where} has no jwks_uri`);
    const badJwks = unfetchable(doc.jwks_uri);
    if (badJwks) throw new Error(`the issuer's jwks_uri ${badJwks}`);
    return createRemoteJWKSet(new URL(doc.jwks_uri), { timeoutDuration: 5000 });
  }
}
