/**
 * Anonymous reads of public registry repos (spec, Authentication 6): a request with no
 * Authorization header at all, to a route that opts in with `PUBLIC_READ`, proceeds as the
 * anonymous caller. Everything else still needs a token, and a token that is present is always
 * checked (a bad one is refused even on a public repo).
 */
import type { FastifyRequest } from "fastify";
import { unauthenticated } from "../errors";

/** The caller uid of an anonymous request (no identity uid is empty). */
export const ANONYMOUS = "";

/** Route options of a route that anonymous callers may read. */
export const PUBLIC_READ = { config: { publicRead: true } } as const;

/** True when `request` may proceed without a token: no Authorization header, a public-read GET. */
export function anonymousAllowed(request: FastifyRequest): boolean {
  if (request.headers.authorization !== undefined) return false;
  if (request.method !== "GET" && request.method !== "HEAD") return false;
  return (request.routeOptions.config as { publicRead?: boolean } | undefined)?.publicRead === true;
}

/** True for a request that authenticated as nobody. */
export function isAnonymous(request: FastifyRequest): boolean {
  return request.caller === ANONYMOUS;
}

/**
 * What an anonymous caller hears for an item it may not see, whether it is private or missing:
 * the same answer for both, so existence does not leak.
 */
export function notPublic(kind: string, uid: string) {
  return unauthenticated(`${kind} ${uid} is not public (or does not exist): send Authorization: Bearer <token> to read private ${kind}s`);
}
