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
import { BODY_LIMIT, buildApp, connectionLimits, type ConnectionLimits } from "./app";
import { TokenIssuer, type IssuerUrls } from "./auth";
import { checkRegistryHost } from "./auth/audience";
import { Authorizer } from "./authz";
import { STAFF_UID } from "./staff";
import { bootstrap } from "./bootstrap";
import { ChangeFeed, type ChangeListener, type ItemChange } from "./model/changes";
import type { ServerContext } from "./context";
import { applyFixtures, packageVersionsOf, readFixtures, type Fixtures, type ReadFixtures } from "./sample";
import { retryLater } from "./errors";
import { Faults, type Fault, type RecordedRequest } from "./hooks";
import { Store } from "./store";
import { DataDir, SigningKey, type DurableState } from "./store/data-dir";
import { serveGrpc } from "./grpc";
import { UNREAD_LIMITS, UnreadAnswers } from "./unread";
import { closeGracefully, handedOff, trackRequests } from "./shutdown";
import { Deliveries, boundsOf, type DeliveryOptions, type DeliveryStats } from "./delivery";
import { saveQueued, takeQueued } from "./delivery/saved";
import type { WorkCounts } from "./work";

export type { ChangeListener, ConnectionLimits, DeliveryOptions, DeliveryStats, Fixtures, Fault, ItemChange, RecordedRequest, WorkCounts };
export { Faults, Store };
export { seedGroups, seedRegistry, sampleFixtures } from "./sample";
export { builtinRoleUid } from "./model/roles";

/** How to start a server. */
export interface ServerOptions {
  /** Default 0: any free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** A fixtures JSON path or object (format: server/sample/schema.ts); default: the built-in sample. */
  fixtures?: string | Fixtures;
  /**
   * The container registry host: the audience of registry tokens (exchange with `aud=<host>`),
   * served at `/v2/` (default: this server's own host:port).
   */
  registryHost?: string;
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
  /**
   * Keep everything in this directory and recover it on the next start: every write is flushed
   * to its journal before it is answered. Fixtures, `organizationName` and `seed` apply only
   * when the directory is new. Default: memory only.
   */
  dataDir?: string;
  /**
   * With `dataDir`: write a fresh snapshot (and start an empty journal) once the journal grows
   * past this many bytes. Default: max(8 MiB, the size of the last snapshot).
   */
  compactAfterBytes?: number;
  /**
   * With `dataDir`: start from the records before a damaged record in the middle of the journal
   * (a start refuses such a journal, since records after it hold acknowledged writes), keeping the
   * damaged journal byte for byte under a new name. Default false.
   */
  recoverJournal?: boolean;
  /**
   * Let token exchanges fetch OIDC discovery and keys from private, loopback and link-local
   * addresses, and over plain http from loopback hosts: for test issuers on this machine only.
   * Default false: issuers are fetched over https from public addresses only.
   */
  allowPrivateIssuers?: boolean;
  /**
   * Declares the platform's own staff (server/staff.ts): an identity outside the organization
   * whose callers hold the internal-only capabilities (changing or clearing a repo's deployment),
   * its token in `staffToken`. Off by default: an organization's callers can never hold them.
   */
  staff?: boolean;
  /**
   * Bounds on connections: a request (headers and body) must arrive within `requestTimeoutMs`
   * (default 30 s; then 408 and the connection closes), an idle keep-alive connection closes
   * after `keepAliveTimeoutMs` (default 5 s), and connections past `maxConnections` (default
   * 1024) are closed at once.
   */
  connections?: ConnectionLimits;
  /**
   * How events are delivered to subscriptions' sinks: retry timing, bounds, and (for tests) sinks
   * on private addresses and a certificate to trust. See server/delivery/deliveries.ts.
   */
  delivery?: DeliveryOptions;
}

/** A running server. */
export interface RunningServer {
  /** The API base URL, e.g. http://127.0.0.1:41234. */
  url: string;
  /** `${url}/auth`: the token issuer; exchange at `${authUrl}/sts/exchange`. */
  authUrl: string;
  /** The registry host: the audience of registry tokens. */
  registryHost: string;
  /** The organization: the root group's uid. */
  organization: string;
  /** Admin token: the organization's owner (valid 30 days). */
  token: string;
  /** With `staff`: a token of the platform's staff identity (server/staff.ts), valid 30 days. */
  staffToken?: string;
  /** Every request answered, in order (bodies redacted). In memory only; never logged. */
  requests: RecordedRequest[];
  /** Test-only fault injection. */
  faults: Faults;
  /** Every route served: method and URL pattern (`*` stands for a uid path), for tests that sweep them. */
  routes: { method: string; url: string }[];
  /** The changes the API makes to items of every kind, once committed: `changes.subscribe(listener)` returns what stops it. */
  changes: Pick<ChangeFeed, "subscribe">;
  /** What the deliveries of events to subscriptions did so far. */
  deliveryStats(): DeliveryStats;
  /** The work done for callers so far, counted (listings, exchanges, authorization; see server/work.ts). */
  work(): WorkCounts;
  /** The connections open now, as the server counts them against `connections.maxConnections`. */
  openConnections(): Promise<number>;
  /** A token for any identity, valid `ttlSeconds` (default 3600), for `audience` (default: the API's url). */
  issueToken(identity: string, ttlSeconds?: number, audience?: string): Promise<string>;
  /** Stops accepting and lets requests in flight finish (bounded; see shutdown.ts), then closes the data directory. */
  close(): Promise<void>;
}

const ADMIN_TOKEN_TTL_SECONDS = 30 * 24 * 3600;

/** The organization and its keys: made on a first start, read back from a data directory later. */
type Identity = Omit<DurableState, "format">;

/** Fills an empty store: bootstrap, fixtures, seed. */
async function populate(store: Store, opts: ServerOptions, fixtures: ReadFixtures, clock: () => number): Promise<Identity> {
  const organization = fixtures.organizationUid ?? newRootUid();
  const now = new Date(clock()).toISOString();
  const organizationName = opts.organizationName ?? fixtures.organizationName ?? "acme";
  // The root is a group like any other: a name the API would refuse would make every later
  // update of it fail validation, whatever field it changes.
  if (!GROUP_NAME.test(organizationName)) throw new Error(`organization name ${JSON.stringify(organizationName)} must match ${GROUP_NAME.source}`);
  const { adminUid } = bootstrap(store, organization, organizationName, now);
  applyFixtures(store, organization, fixtures, now);
  opts.seed?.(store, organization);
  return { organization, adminUid, signingKey: SigningKey.parse(await TokenIssuer.newSigningKey()), pageSecret: randomBytes(32).toString("base64") };
}

/** Opens the data directory (recovering it, or filling a new one) or fills a memory-only store. */
async function open(store: Store, opts: ServerOptions, fixtures: ReadFixtures, clock: () => number): Promise<{ id: Identity; dataDir?: DataDir }> {
  if (opts.dataDir === undefined) return { id: await populate(store, opts, fixtures, clock) };
  const { dataDir, state } = await DataDir.open(opts.dataDir, store, () => populate(store, opts, fixtures, clock), {
    compactAfterBytes: opts.compactAfterBytes,
    recoverJournal: opts.recoverJournal,
    // Nothing was applied: the client may simply retry.
    failure: (e) => retryLater("UNAVAILABLE", `the write could not be saved and was not applied: ${e.message}`, 1),
    warn: (m) => process.stderr.write(`irv-server: ${m}\n`),
  });
  return { id: state, dataDir };
}

/** Starts a server and resolves once it listens. */
export async function startServer(opts: ServerOptions = {}): Promise<RunningServer> {
  const clock = opts.clock ?? Date.now;
  const registryHost = opts.registryHost === undefined ? undefined : checkRegistryHost(opts.registryHost);
  // Bad delivery bounds fail the start before anything is opened.
  boundsOf(opts.delivery ?? {});
  const store = new Store();
  const fixtures = readFixtures(opts.fixtures);
  const { id, dataDir } = await open(store, opts, fixtures, clock);
  const { organization, adminUid } = id;

  const urls: IssuerUrls = { url: "", authUrl: "", registryHost: "" };
  const tokens = await TokenIssuer.create(urls, clock, id.signingKey);
  const ctx: ServerContext = {
    store,
    clock,
    urls,
    organization,
    tokens,
    allowPrivateIssuers: opts.allowPrivateIssuers ?? false,
    authz: new Authorizer(store, opts.staff ?? false),
    pageSecret: Buffer.from(id.pageSecret, "base64"),
    changes: new ChangeFeed(),
    packageVersions: packageVersionsOf(fixtures),
  };
  const deliveries = new Deliveries(store, tokens, () => urls.url, ctx.changes, opts.delivery);
  const requests: RecordedRequest[] = [];
  const faults = new Faults();
  const routes: { method: string; url: string }[] = [];
  // One count of unread answers for both doors; a connection closed for it is worth a line.
  const unread = new UnreadAnswers(UNREAD_LIMITS, (peer, held) =>
    process.stderr.write(
      `irv-server: closed the connection of ${peer}: it held ${(held / 1048576).toFixed(1)} MiB of answers not read, the most when all connections together held their ${UNREAD_LIMITS.total / 1048576} MiB\n`,
    ),
  );
  const app = buildApp(ctx, {
    logger: opts.logger ?? false,
    record: opts.record ?? true,
    requests,
    faults,
    connections: opts.connections ?? {},
    routes,
    unread,
  });
  const host = opts.host ?? "127.0.0.1";
  trackRequests(app.server);
  // gRPC on the same listener, within the same bounds.
  const limits = connectionLimits(opts.connections ?? {});
  const grpc = serveGrpc(
    app,
    { maxMessageBytes: BODY_LIMIT, requestTimeoutMs: limits.requestTimeoutMs, idleTimeoutMs: limits.keepAliveTimeoutMs, unread },
    (s) => handedOff(app.server, s),
  );
  try {
    await app.listen({ port: opts.port ?? 0, host });
  } catch (e) {
    await deliveries.close();
    dataDir?.close();
    throw e;
  }
  const { port } = app.server.address() as AddressInfo;
  const shown = host === "0.0.0.0" ? "127.0.0.1" : host === "::" ? "[::1]" : host.includes(":") ? `[${host}]` : host;
  urls.url = `http://${shown}:${port}`;
  urls.authUrl = `${urls.url}/auth`;
  urls.registryHost = registryHost ?? new URL(urls.url).host;
  // What waited at the last graceful stop, queued again now that the server listens.
  if (opts.dataDir) deliveries.resume(takeQueued(opts.dataDir, (m) => process.stderr.write(`irv-server: ${m}\n`)));
  return {
    url: urls.url,
    authUrl: urls.authUrl,
    registryHost: urls.registryHost,
    organization,
    token: await tokens.issue(adminUid, ADMIN_TOKEN_TTL_SECONDS),
    ...(opts.staff && { staffToken: await tokens.issue(STAFF_UID, ADMIN_TOKEN_TTL_SECONDS) }),
    requests,
    faults,
    routes,
    changes: ctx.changes,
    deliveryStats: () => deliveries.stats(),
    work: () => store.work.snapshot(),
    openConnections: () => new Promise((resolve, reject) => app.server.getConnections((e, n) => (e ? reject(e) : resolve(n)))),
    issueToken: (uid, ttl = 3600, audience) => tokens.issue(uid, ttl, audience),
    close: async () => {
      try {
        // Deliveries stop first, and those on their way end, while the server still answers: their
        // receivers fetch its keys to verify them. What waits is kept for the next start (below).
        await deliveries.pause();
        await closeGracefully(app, undefined, grpc);
      } finally {
        // Requests are done: nothing more is queued. What waits is kept for the next start.
        const left = deliveries.queuedNow();
        await deliveries.close();
        if (opts.dataDir) saveQueued(opts.dataDir, left);
        dataDir?.close();
      }
    },
  };
}
