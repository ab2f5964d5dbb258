import { createRequire } from "node:module";
import type { Dispatcher } from "undici";

/**
 * One keep-alive Pool per origin, with undici's retry interceptor composed on it. Shared by every
 * client in the process (the API and the token issuer may be one origin or two), so sockets are
 * reused across resources during an apply.
 */
const dispatchers = new Map<string, Dispatcher>();

/** How long one attempt waits for an answer before it counts as lost (and is retried or recovered). */
export const DEFAULT_ATTEMPT_TIMEOUT_MS = 60_000;

/** The per-attempt timeout: `IRV_REQUEST_TIMEOUT_MS` when set to a positive number, else the default. */
export function attemptTimeoutMs(env: NodeJS.ProcessEnv = process.env): number {
  const v = Number(env.IRV_REQUEST_TIMEOUT_MS);
  return Number.isFinite(v) && v > 0 ? v : DEFAULT_ATTEMPT_TIMEOUT_MS;
}

/** The retrying dispatcher for `origin` (e.g. `http://127.0.0.1:4000`), created on first use. */
export function dispatcherFor(origin: string): Dispatcher {
  let d = dispatchers.get(origin);
  if (!d) {
    // undici is loaded here, on the first request, not at start-up: the resource plugin starts
    // afresh for every operation, and a preview makes no request. Only the parts a pool with
    // retries needs: undici's index also loads fetch, WebSocket, cookies, caches and mocks, which
    // took two thirds of the first request's start-up in the plugin. The index gives every
    // dispatcher its request methods (`Object.assign(Dispatcher.prototype, api)`); so does this.
    const { Pool, retry } = undiciPool();
    const timeout = attemptTimeoutMs();
    const pool = new Pool(origin, {
      connections: 16,
      keepAliveTimeout: 30_000,
      keepAliveMaxTimeout: 120_000,
      headersTimeout: timeout,
      bodyTimeout: timeout,
    });
    // throwOnError: false hands the final error response (with its body) to the caller, so the
    // client can read the server's Status after the last retry. The retry decision itself comes
    // per request through `retryOptions.retry` (see retry.ts).
    d = pool.compose(retry({ throwOnError: false }));
    dispatchers.set(origin, d);
  }
  return d;
}

/**
 * undici's Pool and retry interceptor, loaded without the rest of undici (see dispatcherFor). These
 * are undici's own files, not its published entry point: an undici whose files moved is loaded
 * whole, as before, slower to start but the same.
 */
function undiciPool(): { Pool: typeof import("undici").Pool; retry: typeof import("undici").interceptors.retry } {
  try {
    const Dispatcher = require("undici/lib/dispatcher/dispatcher") as typeof import("undici").Dispatcher;
    const api = require("undici/lib/api") as object;
    const Pool = require("undici/lib/dispatcher/pool") as typeof import("undici").Pool;
    const retry = require("undici/lib/interceptor/retry") as typeof import("undici").interceptors.retry;
    Object.assign(Dispatcher.prototype, api);
    return { Pool, retry };
  } catch {
    // Through createRequire, which the plugin's bundler leaves alone: the bundle holds the files
    // above, so it never gets here, and need not carry all of undici for it.
    const { Pool, interceptors } = createRequire(__filename)("undici") as typeof import("undici");
    return { Pool, retry: interceptors.retry };
  }
}

/** Closes every pool (tests and short-lived processes; the provider host just exits). */
export async function closeAll(): Promise<void> {
  const all = [...dispatchers.values()];
  dispatchers.clear();
  await Promise.all(all.map((d) => d.close().catch(() => undefined)));
}
