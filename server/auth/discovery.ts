/**
 * Finding an external issuer's keys: OIDC discovery (`<iss>/.well-known/openid-configuration`,
 * whose `issuer` must be `iss`, -> `jwks_uri`), both fetched under the outbound rules
 * (outbound.ts). Both caches are bounded: a found key set is kept for KEYS_TTL_MS (refetched
 * sooner, at most once per KEYS_REFRESH_MS, when a token names a kid it lacks); a failure is kept
 * for FAILURE_TTL_MS, so a failing issuer is asked at most once per window however often
 * strangers send its tokens. Concurrent exchanges for one issuer share one fetch.
 */
import { createLocalJWKSet, type JSONWebKeySet, type JWTVerifyGetKey } from "jose";
import { OutboundError, type OutboundFetcher } from "./outbound";

/** A JWK Set's outline (RFC 7517 section 5): a list of objects; createLocalJWKSet checks each key. */
const isKeySet = (v: Record<string, unknown>): v is Record<string, unknown> & JSONWebKeySet =>
  Array.isArray(v.keys) && v.keys.every((k) => typeof k === "object" && k !== null && !Array.isArray(k));

/** How many issuers' keys (and failures) are remembered: the oldest is forgotten first. */
export const ISSUERS_CACHED = 256;
/** How long a found key set is used before it is fetched again. */
export const KEYS_TTL_MS = 60 * 60 * 1000;
/** The shortest time between two fetches of one issuer's keys for an unknown kid. */
export const KEYS_REFRESH_MS = 60 * 1000;
/** How long a failed discovery is remembered (no fetch for that issuer until it passes). */
export const FAILURE_TTL_MS = 60 * 1000;

/** What is known of one issuer: its keys (when ever found) and its last failure, with times. */
interface Entry {
  getKey?: JWTVerifyGetKey;
  fetchedAt: number;
  failure?: OutboundError;
  triedAt: number;
}

/** Issuer -> key getter, discovered under the outbound rules, cached with bounds. */
export class IssuerKeys {
  private cache = new Map<string, Entry>();
  private pending = new Map<string, Promise<JWTVerifyGetKey>>();

  constructor(
    private fetcher: OutboundFetcher,
    private clock: () => number,
  ) {}

  /** The key getter of `issuer` if it is cached and fresh: no fetch. */
  cached(issuer: string): JWTVerifyGetKey | undefined {
    const e = this.cache.get(issuer);
    return e?.getKey && this.clock() - e.fetchedAt < KEYS_TTL_MS ? e.getKey : undefined;
  }

  /** The key getter for `issuer`, discovering it when not cached. Throws OutboundError. */
  async forIssuer(issuer: string): Promise<JWTVerifyGetKey> {
    if (!this.fetcher.schemeAllowed(issuer)) throw new OutboundError("insecure");
    const fresh = this.cached(issuer);
    if (fresh) return fresh;
    const e = this.cache.get(issuer);
    if (e?.failure && this.clock() - e.triedAt < FAILURE_TTL_MS) throw e.failure;
    return this.fetch(issuer);
  }

  /**
   * After a token named a kid the cached set lacks: a fresh key getter when the issuer was last
   * asked more than KEYS_REFRESH_MS ago (it may have rotated its keys), else undefined.
   */
  async refreshed(issuer: string): Promise<JWTVerifyGetKey | undefined> {
    const e = this.cache.get(issuer);
    if (e && this.clock() - e.triedAt < KEYS_REFRESH_MS) return undefined;
    return this.fetch(issuer).catch(() => undefined);
  }

  private fetch(issuer: string): Promise<JWTVerifyGetKey> {
    let p = this.pending.get(issuer);
    if (!p) {
      p = this.discover(issuer).then(
        (getKey) => {
          const now = this.clock();
          this.remember(issuer, { getKey, fetchedAt: now, triedAt: now });
          return getKey;
        },
        (e: unknown) => {
          const failure = e instanceof OutboundError ? e : new OutboundError("not-json");
          // Keys found before stay usable until they age out; the failure only holds off refetches.
          const prev = this.cache.get(issuer);
          this.remember(issuer, { getKey: prev?.getKey, fetchedAt: prev?.fetchedAt ?? 0, failure, triedAt: this.clock() });
          throw failure;
        },
      );
      this.pending.set(issuer, p);
      const done = () => this.pending.delete(issuer);
      p.then(done, done);
    }
    return p;
  }

  private remember(issuer: string, entry: Entry): void {
    this.cache.delete(issuer);
    this.cache.set(issuer, entry);
    if (this.cache.size > ISSUERS_CACHED) this.cache.delete(this.cache.keys().next().value!);
  }

  private async discover(issuer: string): Promise<JWTVerifyGetKey> {
    const doc = await this.fetcher.json(`${issuer.replace(/\/$/, "")}/.well-known/openid-configuration`);
    // OIDC Discovery 4.3: the document speaks for exactly this issuer.
    if (doc.issuer !== issuer || typeof doc.jwks_uri !== "string") throw new OutboundError("not-json");
    const jwks = await this.fetcher.json(doc.jwks_uri);
    if (!isKeySet(jwks)) throw new OutboundError("not-json");
    try {
      return createLocalJWKSet(jwks);
    } catch {
      throw new OutboundError("not-json");
    }
  }
}
