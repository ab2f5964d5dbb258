/**
 * The token issuer's routes, under `/auth` (= authUrl): OIDC discovery of this server as an
 * issuer, its JWKS, and the token exchange.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { STS_EXCHANGE_PATH } from "../../api/collections";
import type { ServerContext } from "../context";
import { IssuerKeys } from "./discovery";
import { OutboundFetcher, outboundPolicy } from "./outbound";
import { exchange, type ExchangeParams } from "./sts";

/** The path prefix of authUrl. */
export const AUTH_PREFIX = "/auth";

/**
 * Every value of every field of an exchange: the query's, then a form body's. The gateway reads
 * no JSON body for the exchange (its mapping has no `body`), so neither does this server.
 */
function paramsOf(req: FastifyRequest): ExchangeParams {
  // No prototype: a field named `constructor` or `__proto__` is just a field.
  const out: ExchangeParams = Object.create(null) as ExchangeParams;
  const add = (k: string, v: unknown) => {
    if (typeof v === "string") (out[k] ??= []).push(v);
  };
  for (const [k, v] of Object.entries((req.query ?? {}) as Record<string, unknown>)) for (const one of [v].flat()) add(k, one);
  if (req.body instanceof URLSearchParams) for (const [k, v] of req.body) add(k, v);
  return out;
}

/** Registers discovery, JWKS and exchange routes (call inside a scope prefixed by AUTH_PREFIX). */
export function registerAuthRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const fetcher = new OutboundFetcher(outboundPolicy(ctx.allowPrivateIssuers), ctx.store.work);
  const keys = new IssuerKeys(fetcher, ctx.clock);
  app.addHook("onClose", () => fetcher.close());
  // The exchange's fields may also come as a form body, as the SDK's exchanger sends them over
  // HTTP/1 (each repeated field once per value).
  app.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string" }, (_req, body, done) => {
    done(null, new URLSearchParams(String(body)));
  });

  app.get("/.well-known/openid-configuration", async () => ({
    issuer: ctx.urls.authUrl,
    jwks_uri: `${ctx.urls.authUrl}/.well-known/jwks.json`,
    token_endpoint: `${ctx.urls.authUrl}${STS_EXCHANGE_PATH}`,
    response_types_supported: ["id_token"],
    subject_types_supported: ["public"],
    id_token_signing_alg_values_supported: ["ES256"],
  }));
  app.get("/.well-known/jwks.json", async () => ctx.tokens.jwks());

  const handler = async (req: FastifyRequest) =>
    exchange(ctx, keys, paramsOf(req), req.headers.authorization, (reason) => req.log.info({ reason }, "token exchange denied"));
  app.get(STS_EXCHANGE_PATH, handler);
  app.post(STS_EXCHANGE_PATH, handler);
}
