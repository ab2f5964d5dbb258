/** Tokens for the server's exchange (`/sts/exchange`): asking it, and the tokens a test makes by hand. */
import { STS_EXCHANGE_PATH } from "../../api";
import { apiFor, type ApiResponse, type TestServer } from "./server";

/** Exchanges `token` (sent as the bearer, none when null) for a token of `identity`, for audience `aud`. */
export function exchange(srv: TestServer, token: string | null, identity: string, aud = srv.server.url, method = "GET"): Promise<ApiResponse> {
  return apiFor(srv.server.authUrl, null).request(method, STS_EXCHANGE_PATH, { query: { aud, identity }, token });
}

/**
 * The audience an external token must carry for an identity whose claimMatch names none: the host
 * of the server's issuer (`authUrl`), as the platform's is its issuer's host name.
 */
export const defaultAudience = (server: { authUrl: string }): string => new URL(server.authUrl).host;

/** An unsigned token (`alg: none` unless `header` says otherwise): anyone can make one. */
export const unsigned = (claims: unknown, header: object = { alg: "none", typ: "JWT" }) =>
  `${Buffer.from(JSON.stringify(header)).toString("base64url")}.${Buffer.from(JSON.stringify(claims)).toString("base64url")}.`;

/** An expiry five minutes from now, in seconds since the epoch. */
export const soon = () => Math.floor(Date.now() / 1000) + 300;
