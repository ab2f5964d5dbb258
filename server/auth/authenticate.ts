/**
 * Authentication, in one hook: every API request carries `Authorization: Bearer <jwt>` that this
 * server signed for an identity that still exists; the identity's uid becomes `request.caller`.
 * A token is always required (the reference server has no anonymous public reads).
 */
import type { FastifyRequest } from "fastify";
import type { ServerContext } from "../context";
import { unauthenticated } from "../errors";
import { bearerOf } from "./sts";

/** The onRequest hook for the API scope. */
export function authenticate(ctx: ServerContext) {
  return async (request: FastifyRequest): Promise<void> => {
    const sub = await ctx.tokens.verify(bearerOf(request.headers.authorization));
    if (!ctx.store.identities.has(sub)) throw unauthenticated(`the token's identity ${sub} no longer exists`);
    request.caller = sub;
  };
}
