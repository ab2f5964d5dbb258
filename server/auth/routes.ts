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

/** Registers discovery, JWKS and exchange routes (call inside a scope prefixed by AUTH_PREFIX). */
export function registerAuthRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const fetcher = new OutboundFetcher(outboundPolicy(ctx.allowPrivateIssuers));
  const keys = new IssuerKeys(fetcher, ctx.clock);
  app.addHook("onClose", () => fetcher.close());
  // Exchange parameters may also come as a form body.
  app.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string" }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
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

  const handler = async (req: FastifyRequest) => {
    const body = typeof req.body === "object" && req.body !== null ? (req.body as ExchangeParams) : {};
    return exchange(ctx, keys, { ...body, ...(req.query as ExchangeParams) }, req.headers.authorization, (reason) =>
      req.log.info({ reason }, "token exchange denied"),
    );
  };
  app.get(STS_EXCHANGE_PATH, handler);
  app.post(STS_EXCHANGE_PATH, handler);
}
