/**
 * irv-server: a reference implementation of the v2beta1 API, in process.
 *
 *   const server = await startServer();          // 127.0.0.1, any free port, sample fixtures
 *   fetch(`${server.url}/iam/v2beta1/groups`, { headers: { authorization: `Bearer ${server.token}` } });
 *   await server.close();
 *
 * See server/README.md for the behaviour where the spec is silent.
 */
import { randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import { GROUP_NAME } from "../api/fields";
import { newRootUid } from "../api/uid";
import { buildApp } from "./app";
import { TokenIssuer, type IssuerUrls } from "./auth";
import { Authorizer } from "./authz";
import { bootstrap } from "./bootstrap";
import type { ServerContext } from "./context";
import { applyFixtures, readFixtures, type Fixtures } from "./fixtures";
import { Faults, type FaultSpec, type RecordedRequest } from "./plugins";
import { Store } from "./store";
import { closeGracefully, trackRequests } from "./shutdown";

export type { Fixtures, FaultSpec, RecordedRequest };
export { Faults, Store };
export { seedGroups, sampleFixtures } from "./fixtures";
export { builtinRoleUid } from "./model/roles";

/** How to start a server. */
export interface ServerOptions {
  /** Default 0: any free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** A fixtures JSON path or object (format: server/fixtures/schema.ts); default: the built-in sample. */
  fixtures?: string | Fixtures;
  /** Name of the root group (default: the fixtures' organizationName, else "acme"). */
  organizationName?: string;
  /** Log requests to stderr. Default false in process; the CLI logs. */
  logger?: boolean;
  /** Keep `requests` (default true). The CLI turns it off: a long-running server would grow it forever. */
  record?: boolean;
  /** The clock, ms since the epoch (default Date.now): tests move it to expire tokens. */
  clock?: () => number;
  /**
   * Seeding hook, run after fixtures and before listening: write straight into the store
   * (e.g. `seedGroups(store, organization, 100_000)` for benchmarks).
   */
  seed?: (store: Store, organization: string) => void;
}

/** A running server. */
export interface RunningServer {
  /** The API base URL, e.g. http://127.0.0.1:41234. */
  url: string;
  /** `${url}/auth`: the token issuer; exchange at `${authUrl}/sts/exchange`. */
  authUrl: string;
  /** The organization: the root group's uid. */
  organization: string;
  /** Admin token: the organization's owner (valid 30 days). */
  token: string;
  /** Every request answered, in order (bodies redacted). In memory only; never logged. */
  requests: RecordedRequest[];
  /** Test-only fault injection. */
  faults: Faults;
  /** An API token for any identity, valid `ttlSeconds` (default 3600). */
  issueToken(identityUid: string, ttlSeconds?: number): Promise<string>;
  /** Stops accepting and lets requests in flight finish (bounded; see shutdown.ts). */
  close(): Promise<void>;
}

const ADMIN_TOKEN_TTL_SECONDS = 30 * 24 * 3600;

/** Starts a server and resolves once it listens. */
export async function startServer(opts: ServerOptions = {}): Promise<RunningServer> {
  const clock = opts.clock ?? Date.now;
  const fixtures = readFixtures(opts.fixtures);
  const store = new Store();
  const organization = fixtures.organizationUid ?? newRootUid();
  const now = new Date(clock()).toISOString();
  const organizationName = opts.organizationName ?? fixtures.organizationName ?? "acme";
  // The root is a group like any other: a name the API would refuse would make every later
  // update of it fail validation, whatever field it changes.
  if (!GROUP_NAME.test(organizationName))
    throw new Error(`organization name ${JSON.stringify(organizationName)} must match ${GROUP_NAME.source}`);
  const { adminUid } = bootstrap(store, organization, organizationName, now);
  applyFixtures(store, organization, fixtures, now);
  opts.seed?.(store, organization);

  const urls: IssuerUrls = { url: "", authUrl: "" };
  const tokens = await TokenIssuer.create(urls, clock);
  const ctx: ServerContext = {
    store, clock, urls, organization, tokens,
    authz: new Authorizer(store),
    pageSecret: randomBytes(32),
  };
  const requests: RecordedRequest[] = [];
  const faults = new Faults();
  const app = buildApp(ctx, { logger: opts.logger ?? false, record: opts.record ?? true, requests, faults });
  const host = opts.host ?? "127.0.0.1";
  trackRequests(app.server);
  await app.listen({ port: opts.port ?? 0, host });
  const { port } = app.server.address() as AddressInfo;
  const shown = host === "0.0.0.0" ? "127.0.0.1" : host === "::" ? "[::1]" : host.includes(":") ? `[${host}]` : host;
  urls.url = `http://${shown}:${port}`;
  urls.authUrl = `${urls.url}/auth`;
  return {
    url: urls.url,
    authUrl: urls.authUrl,
    organization,
    token: await tokens.issue(adminUid, ADMIN_TOKEN_TTL_SECONDS),
    requests,
    faults,
    issueToken: (uid, ttl = 3600) => tokens.issue(uid, ttl),
    close: () => closeGracefully(app),
  };
}
