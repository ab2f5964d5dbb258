/**
 * Authentication, in one hook: every API request carries `Authorization: Bearer <jwt>` that this
 * server signed for an identity that still exists; the identity's uid becomes `request.caller`.
 * Without any Authorization header, public registry reads proceed anonymously (anonymous.ts);
 * everything else needs a token.
 */
import type { FastifyRequest } from "fastify";
import type { ServerContext } from "../context";
import { unauthenticated } from "../errors";
import { ANONYMOUS, anonymousAllowed } from "./anonymous";
import { bearerOf } from "./sts";

/** The onRequest hook for the API scope. */
export function authenticate(ctx: ServerContext) {
  return async (request: FastifyRequest): Promise<void> => {
    if (anonymousAllowed(request)) {
      request.caller = ANONYMOUS;
      return;
    }
    const { uid, caller } = await ctx.tokens.verify(bearerOf(request.headers.authorization));
    // The platform's staff (staff.ts) is no identity of the store: it exists while declared.
    if (!ctx.store.identities.has(uid) && !ctx.authz.isStaff(caller)) throw unauthenticated(`the token's identity ${uid} no longer exists`);
    request.caller = caller;
  };
}
