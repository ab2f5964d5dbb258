/**
 * The Fastify app: error model, fault injection and recording around everything; the token
 * issuer's routes under /auth; every API collection in one scope whose single onRequest hook
 * authenticates.
 */
import Fastify, { type FastifyInstance, type FastifyReply } from "fastify";
import { AUTH_PREFIX, authenticate, registerAuthRoutes } from "./auth";
import type { ServerContext } from "./context";
import { invalidField } from "./errors";
import { clientErrorHandler, Faults, installErrors, installFaults, installJsonBody, installRecording, type RecordedRequest } from "./hooks";
import { registerApiRoutes } from "./routes";
import { registerRegistryHost } from "./routes/registry-host";
import { boundUnreadAnswers, type UnreadAnswers } from "./unread";

/** Bounds on connections (`ServerOptions.connections`). */
export interface ConnectionLimits {
  requestTimeoutMs?: number;
  keepAliveTimeoutMs?: number;
  maxConnections?: number;
}

/** Options of buildApp. */
export interface AppOptions {
  logger: boolean;
  /** Append every request to `requests`. */
  record: boolean;
  requests: RecordedRequest[];
  faults: Faults;
  connections: ConnectionLimits;
  /** Filled with every route as it is registered (method and URL pattern). */
  routes?: { method: string; url: string }[];
  /** Answers written and not yet read, bounded with gRPC's. */
  unread: UnreadAnswers;
}

/**
 * What the request log says of a request: method and path, and the query's parameter names (those
 * that look like one) with every value redacted. A client may put a token in the query (`?access_token=...`), and the log
 * must never hold one.
 */
export function logLine(req: { method: string; url: string }): { method: string; url: string } {
  const [path, query] = req.url.split(/\?(.*)/s, 2);
  if (query === undefined) return { method: req.method, url: path };
  // A name that does not look like a parameter (long, odd characters) may itself be a token.
  const names = [...new URLSearchParams(query).keys()].map((k) => `${/^[a-z][A-Za-z0-9_.]{0,31}$/.test(k) ? k : "[name]"}=[redacted]`);
  return { method: req.method, url: `${path}?${names.join("&")}` };
}

const REQUEST_TIMEOUT_MS = 30_000;
const KEEP_ALIVE_TIMEOUT_MS = 5_000;
const MAX_CONNECTIONS = 1024;

/** The largest request body (and gRPC request message). */
export const BODY_LIMIT = 1024 * 1024;

/** `limits` with every default filled in. */
export function connectionLimits(limits: ConnectionLimits): Required<ConnectionLimits> {
  return {
    requestTimeoutMs: limits.requestTimeoutMs ?? REQUEST_TIMEOUT_MS,
    keepAliveTimeoutMs: limits.keepAliveTimeoutMs ?? KEEP_ALIVE_TIMEOUT_MS,
    maxConnections: limits.maxConnections ?? MAX_CONNECTIONS,
  };
}

/** Builds (does not start) the app over `ctx`. */
export function buildApp(ctx: ServerContext, opts: AppOptions): FastifyInstance {
  const limits = connectionLimits(opts.connections);
  const requestTimeout = limits.requestTimeoutMs;
  const app = Fastify({
    // A request whose headers or body stall is cut (408) once this passes; Node checks
    // outstanding requests every connectionsCheckingInterval, so that follows the timeout.
    requestTimeout,
    // A connection that sends nothing at all has no request to time out: cut it when idle.
    connectionTimeout: 2 * requestTimeout,
    http: { connectionsCheckingInterval: Math.max(10, Math.min(30_000, Math.floor(requestTimeout / 4))) },
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    logger: opts.logger ? { level: "info", stream: process.stderr, serializers: { req: logLine } } : false,
    // Uids nest: a deep uid path is far longer than find-my-way's default limit of 100.
    routerOptions: { maxParamLength: 8192 },
    bodyLimit: BODY_LIMIT,
    // Closing waits for requests in flight (bounded by closeGracefully in shutdown.ts).
    forceCloseConnections: "idle",
    // What Node's parser refuses (431, 400) is answered in the error model too.
    clientErrorHandler,
    // Errors raised before routing (a malformed %-escape in the path) use the error model too.
    frameworkErrors: (_err, _req, reply) => {
      const e = invalidField("path", "is not a valid URL path");
      void (reply as FastifyReply).code(e.http).send(e.body);
    },
  });
  // Connections past the limit are closed by Node as they arrive.
  app.server.maxConnections = limits.maxConnections;
  app.addHook("onRoute", (r) => {
    for (const method of [r.method].flat()) opts.routes?.push({ method, url: r.url });
  });
  app.decorateRequest("caller", "");
  installErrors(app);
  installJsonBody(app);
  installFaults(app, opts.faults, opts.requests);
  if (opts.record) installRecording(app, opts.requests);
  boundUnreadAnswers(app, opts.unread);
  void app.register(async (auth) => registerAuthRoutes(auth, ctx), { prefix: AUTH_PREFIX });
  void app.register(async (registry) => registerRegistryHost(registry, ctx));
  void app.register(async (api) => {
    api.addHook("onRequest", authenticate(ctx));
    registerApiRoutes(api, ctx);
  });
  return app;
}
