/**
 * What every route and hook shares: the store, the clock, the server's urls and organization,
 * its token issuer, authorization, the page-token key, and the feed of changes.
 */
import type { PackageVersionMetadata } from "../api/versions";
import type { FastifyRequest } from "fastify";
import type { Authorizer } from "./authz";
import type { IssuerUrls, TokenIssuer } from "./auth/tokens";
import type { ChangeFeed } from "./model/changes";
import type { Store } from "./store";

/** The shared state of one running server. */
export interface ServerContext {
  store: Store;
  /** Current time in ms (injectable for tests of expiry). */
  clock: () => number;
  /** `url` and `authUrl`, filled in once the server listens. */
  urls: IssuerUrls;
  /** The organization: the root group's uid. */
  organization: string;
  tokens: TokenIssuer;
  authz: Authorizer;
  /** Key that seals page tokens: random per organization, kept in the data directory (if any), so tokens outlive a restart there. */
  pageSecret: Buffer;
  /** Whether issuers on private and loopback addresses may be fetched (the `allowPrivateIssuers` option). */
  allowPrivateIssuers: boolean;
  /** Every create, update and delete of an item of a kind, once committed (model/changes.ts). */
  changes: ChangeFeed;
  /** Package versions by package name (registry v1 GetPackageVersionMetadata): the platform's catalog, from the fixtures on every start. */
  packageVersions: ReadonlyMap<string, PackageVersionMetadata>;
}

/** The current time as the API writes it: RFC 3339 UTC with milliseconds. */
export function timestamp(ctx: Pick<ServerContext, "clock">): string {
  return new Date(ctx.clock()).toISOString();
}

declare module "fastify" {
  interface FastifyRequest {
    /** The authenticated caller's identity uid (set by the authentication hook). */
    caller: string;
  }
}

/** The authenticated caller's identity uid (set by the authentication hook). */
export function callerOf(request: FastifyRequest): string {
  return request.caller;
}
