/**
 * A throwaway OIDC issuer for tests: an http server on 127.0.0.1 (port 0) that serves
 * `/.well-known/openid-configuration` and its JWKS, and signs tokens with its ES256 key.
 *
 *   const issuer = await startOidcIssuer();
 *   const jwt = await issuer.sign({ sub: "repo:acme/infra", aud: server.url });
 *   const forged = await issuer.signForeign({ sub: "repo:acme/infra", aud: server.url });
 *   await issuer.close();
 *
 * A server fetches it only when started with `allowPrivateIssuers: true` (`--allow-private-issuers`):
 * by default issuers must be https on public addresses.
 */
import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { SignJWT, exportJWK, generateKeyPair, type JWTPayload, type KeyLike } from "jose";

/** Options for one signed token. */
export interface SignOptions {
  /** Lifetime in seconds from now; negative makes a token that has already expired. Default 300. */
  expiresIn?: number;
  /** The `kid` header. Default: the kid this issuer publishes. */
  kid?: string;
}

/** A running throwaway issuer. */
export interface OidcIssuer {
  /** The issuer URL, `http://127.0.0.1:<port>`: the `iss` of every token it signs. */
  url: string;
  /** The kid of the published key. */
  kid: string;
  /** Signs `claims` with the published key. `iss`, `iat` and `exp` are filled in unless given. */
  sign(claims: JWTPayload, opts?: SignOptions): Promise<string>;
  /** Signs with a key this issuer does NOT publish (same kid by default): a forged signature. */
  signForeign(claims: JWTPayload, opts?: SignOptions): Promise<string>;
  /** How many times discovery and the JWKS were fetched (to check caching). */
  hits: { discovery: number; jwks: number };
  close(): Promise<void>;
}

async function signWith(key: KeyLike, iss: string, kid: string, claims: JWTPayload, opts: SignOptions = {}) {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ iss, iat: now, exp: now + (opts.expiresIn ?? 300), ...claims })
    .setProtectedHeader({ alg: "ES256", kid: opts.kid ?? kid, typ: "JWT" })
    .sign(key);
}

/** Starts an issuer on 127.0.0.1 with a fresh ES256 key. */
export async function startOidcIssuer(): Promise<OidcIssuer> {
  const own = await generateKeyPair("ES256");
  const foreign = await generateKeyPair("ES256");
  // A fresh kid per issuer, so a server that cached another issuer's keys never confuses them.
  const kid = `test-${randomUUID()}`;
  const jwk = { ...(await exportJWK(own.publicKey)), kid, alg: "ES256", use: "sig" };
  const hits = { discovery: 0, jwks: 0 };
  let url = "";
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? "").split("?")[0];
    let body: unknown;
    if (path === "/.well-known/openid-configuration") {
      hits.discovery++;
      body = { issuer: url, jwks_uri: `${url}/keys`, id_token_signing_alg_values_supported: ["ES256"] };
    } else if (path === "/keys") {
      hits.jwks++;
      body = { keys: [jwk] };
    }
    res.writeHead(body ? 200 : 404, { "content-type": "application/json" });
    res.end(JSON.stringify(body ?? { error: "not found" }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    kid,
    hits,
    sign: (claims, opts) => signWith(own.privateKey, url, kid, claims, opts),
    signForeign: (claims, opts) => signWith(foreign.privateKey, url, kid, claims, opts),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
