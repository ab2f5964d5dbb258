/**
 * The registry host's side of registry-audience tokens: `GET /v2/`, the OCI distribution API's
 * version check, which a registry client calls first. It accepts only a token exchanged for the
 * registry host (`aud=<registryHost>`), refusing API tokens, just as the API refuses registry
 * tokens. Without a token it answers 401 with the challenge that tells a client where to get one.
 */
import type { FastifyInstance } from "fastify";
import { STS_EXCHANGE_PATH } from "../../api/collections";
import { bearerOf } from "../auth/sts";
import type { ServerContext } from "../context";
import { unauthenticated } from "../errors";

/** Registers `/v2/` (outside the API's authentication hook: it checks its own audience). */
export function registerRegistryHost(app: FastifyInstance, ctx: ServerContext): void {
  app.get("/v2/", async (req, reply) => {
    const { authUrl, registryHost } = ctx.urls;
    reply.header("docker-distribution-api-version", "registry/2.0");
    if (req.headers.authorization === undefined) {
      reply.header("www-authenticate", `Bearer realm="${authUrl}${STS_EXCHANGE_PATH}",service="${registryHost}"`);
      throw unauthenticated(`the registry needs a token exchanged with aud=${registryHost}`);
    }
    const { uid } = await ctx.tokens.verify(bearerOf(req.headers.authorization), registryHost);
    if (!ctx.store.identities.has(uid)) throw unauthenticated(`the token's identity ${uid} no longer exists`);
    return {};
  });
}
