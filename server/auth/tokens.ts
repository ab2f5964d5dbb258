/**
 * The server's own token issuer: an ES256 key made at start-up signs API tokens
 * (iss = authUrl, aud = url, sub = identity uid, exp), and verifies them on every request.
 * Its public key is served as the JWKS of `${authUrl}/.well-known/openid-configuration`.
 */
import { randomUUID } from "node:crypto";
import { SignJWT, exportJWK, generateKeyPair, importJWK, jwtVerify, type JWK, type KeyLike } from "jose";
import { errors as joseErrors } from "jose";
import { isStrings } from "../../api/guards";
import { unauthenticated } from "../errors";
import { callerFor, type Narrowing } from "../authz";

/** The audience of webhook delivery tokens: the SDK's receiver verifies with `ClientID: "customer"`. */
export const WEBHOOK_AUDIENCE = "customer";

/** Where the issuer lives; known only once the server listens. */
export interface IssuerUrls {
  url: string;
  authUrl: string;
  /** The container registry host: the audience of registry tokens (audience.ts). */
  registryHost: string;
}

/** Signs and verifies this server's API tokens. */
export class TokenIssuer {
  private constructor(
    private privateKey: KeyLike,
    private publicKey: KeyLike,
    private jwk: JWK,
    private urls: IssuerUrls,
    private clock: () => number,
  ) {}

  /**
   * Makes a fresh key pair, or uses `signingKey` (a private ES256 JWK from `newSigningKey`, kept
   * in a data directory). `urls` is read at each use (it is filled in after listen).
   */
  static async create(urls: IssuerUrls, clock: () => number, signingKey?: JWK): Promise<TokenIssuer> {
    if (signingKey) {
      const { d: _d, ...pub } = signingKey;
      const privateKey = (await importJWK(signingKey, "ES256")) as KeyLike;
      const publicKey = (await importJWK(pub, "ES256")) as KeyLike;
      return new TokenIssuer(privateKey, publicKey, { ...pub, alg: "ES256", use: "sig" }, urls, clock);
    }
    const { privateKey, publicKey } = await generateKeyPair("ES256");
    const jwk = { ...(await exportJWK(publicKey)), kid: randomUUID(), alg: "ES256", use: "sig" };
    return new TokenIssuer(privateKey, publicKey, jwk, urls, clock);
  }

  /** A new private ES256 signing key with its kid, for `create` now and after restarts. */
  static async newSigningKey(): Promise<JWK> {
    const { privateKey } = await generateKeyPair("ES256", { extractable: true });
    const { kty, crv, x, y, d } = await exportJWK(privateKey);
    return { kty, crv, x, y, d, kid: randomUUID() };
  }

  /**
   * A token whose subject is the identity `subject`, valid `ttlSeconds`, for `audience` (default:
   * this API), narrowed as an exchange asked (claims `cap` and `scp`).
   */
  issue(subject: string, ttlSeconds: number, audience = this.urls.url, narrowing?: Narrowing): Promise<string> {
    const now = Math.floor(this.clock() / 1000);
    const claims = { ...(narrowing?.capabilities ? { cap: [...narrowing.capabilities] } : {}), ...(narrowing?.scopes ? { scp: [...narrowing.scopes] } : {}) };
    return new SignJWT(claims)
      .setProtectedHeader({ alg: "ES256", kid: this.jwk.kid, typ: "JWT" })
      .setIssuer(this.urls.authUrl)
      .setAudience(audience)
      .setSubject(subject)
      .setIssuedAt(now)
      .setExpirationTime(now + ttlSeconds)
      .setJti(randomUUID())
      .sign(this.privateKey);
  }

  /**
   * The token that authenticates one webhook delivery, as the SDK's `events/receiver` verifies it:
   * audience `customer`, subject `webhook:<group>` (the subscription's group), and the claim
   * `webhook.digest`, the `sha256:<hex>` digest of the body. Never an API token: its audience is
   * not this API's, so `verify` refuses it.
   */
  issueWebhook(group: string, digest: string, ttlSeconds: number): Promise<string> {
    const now = Math.floor(this.clock() / 1000);
    return new SignJWT({ webhook: { digest } })
      .setProtectedHeader({ alg: "ES256", kid: this.jwk.kid, typ: "JWT" })
      .setIssuer(this.urls.authUrl)
      .setAudience(WEBHOOK_AUDIENCE)
      .setSubject(`webhook:${group}`)
      .setIssuedAt(now)
      .setExpirationTime(now + ttlSeconds)
      .setJti(randomUUID())
      .sign(this.privateKey);
  }

  /**
   * The caller a token for `audience` (default: this API) was issued to: its identity uid, with
   * the narrowing it carries (authz.ts, callerFor); UNAUTHENTICATED for anything else, a token for
   * the other audience included.
   */
  async verify(token: string, audience = this.urls.url): Promise<{ uid: string; caller: string }> {
    try {
      const { payload } = await jwtVerify(token, this.publicKey, {
        issuer: this.urls.authUrl,
        audience,
        algorithms: ["ES256"],
        currentDate: new Date(this.clock()),
        requiredClaims: ["sub", "exp"],
      });
      const strings = (v: unknown) => (isStrings(v) ? v : undefined);
      // jose checked that `sub` is there and is a string (requiredClaims).
      const uid = String(payload.sub);
      return { uid, caller: callerFor(uid, { capabilities: strings(payload.cap), scopes: strings(payload.scp) }) };
    } catch (e) {
      if (e instanceof joseErrors.JWTClaimValidationFailed && e.claim === "aud")
        throw unauthenticated(`the bearer token is not for this audience: ${audience} accepts only tokens exchanged with aud=${audience}`);
      throw unauthenticated(describe(e));
    }
  }

  /** The public JWKS. */
  jwks(): { keys: JWK[] } {
    return { keys: [this.jwk] };
  }
}

/** Why a token was refused, in words that never quote the token. */
export function describe(e: unknown): string {
  if (e instanceof joseErrors.JWTExpired) return "the bearer token has expired";
  if (e instanceof joseErrors.JWTClaimValidationFailed) return `the bearer token's "${e.claim}" claim is not accepted`;
  if (e instanceof joseErrors.JWSSignatureVerificationFailed) return "the bearer token's signature does not verify";
  if (e instanceof joseErrors.JWKSNoMatchingKey) return "the bearer token is signed by a key its issuer does not publish";
  if (e instanceof joseErrors.JOSEAlgNotAllowed) return "the bearer token's algorithm is not accepted";
  if (e instanceof joseErrors.JWKSTimeout || e instanceof joseErrors.JWKSInvalid) return "the token issuer's keys could not be fetched";
  return "the bearer token is not a valid JWT";
}
