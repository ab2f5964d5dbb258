import type { RetryHandler } from "undici";

/**
 * The retry policy plugged into undici's retry interceptor. The interceptor re-dispatches; this
 * decides whether and when. It is a policy, not a loop.
 *
 * - 429 RESOURCE_EXHAUSTED and 503 UNAVAILABLE are retried for every method: the server did not
 *   apply the request. `Retry-After` is honoured.
 * - Connection errors (reset, closed) are retried only for idempotent requests (GET, DELETE, and
 *   PATCH with an explicit updateMask): a POST that lost its response may have been applied, so
 *   the client looks the resource up instead (see `createRecovering`).
 * - Nothing answering at all (a refused connection, a host name that does not resolve) is an
 *   answer: usually a mistyped `irv:apiUrl`. The request never left, so any method is tried again,
 *   but only `REFUSED_RETRIES` times, a second or two in all (each wait reported), then it fails
 *   naming the address, rather than waiting out the operation's budget in silence.
 * - `extraStatuses` lets one request retry more, e.g. 403 on a child create while a new group's
 *   permissions propagate.
 * - Every retry is bounded by `deadline`, the operation's one budget: 429 and 503 say the server
 *   did not apply the request, and an idempotent request is safe to repeat. A fixed count (eight
 *   once) made deletes and updates give up after about 26 s of a down server while creates waited
 *   out their whole budget. `maxRetries` can still cap connection errors for one call.
 * - A waiting retry keeps the process alive: a script or command must never end, let alone with
 *   success, while one of its requests is still pending.
 * - Backoff is exponential with jitter; a `Retry-After` gets up to half as long again of jitter
 *   (at most a second), so clients throttled together do not come back together. No wait runs
 *   past `deadline`.
 */
export interface RetryPolicy {
  /** Absolute time (ms since epoch) after which no retry is started. */
  deadline: number;
  /** Whether connection errors may be retried (the request is idempotent). */
  idempotent: boolean;
  /** HTTP statuses retried besides 429 and 503. */
  extraStatuses?: number[];
  /** Upper bound on attempts after the first, for connection errors (default: none but the deadline). */
  maxRetries?: number;
  /** First backoff step, ms. */
  minDelayMs?: number;
  /** Largest backoff step, ms. */
  maxDelayMs?: number;
  /** Hears each wait before it starts: how long, and why (`HTTP 503`, `ECONNREFUSED`). */
  onWait?(waitMs: number, why: string): void;
}

/** Statuses that mean "not applied, try again later". */
export const RETRY_STATUSES = [429, 503];
/** Connection failures worth another attempt. */
export const RETRY_ERROR_CODES = [
  "ECONNRESET",
  "ECONNREFUSED",
  "EPIPE",
  "ENOTFOUND",
  "ENETUNREACH",
  "EHOSTUNREACH",
  "UND_ERR_SOCKET",
  "UND_ERR_CLOSED",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
  "UND_ERR_CONNECT_TIMEOUT",
];

/** Connection failures that mean nothing answers at the address: the request was never sent. */
export const REFUSED_CODES = ["ECONNREFUSED", "ENOTFOUND"];

/** How many times a request nothing answered is tried again, and the first wait (doubling). */
export const REFUSED_RETRIES = 3;
const REFUSED_MIN_DELAY_MS = 250;

/** The delay before attempt `n` (1-based): exponential, with equal jitter (half fixed, half random). */
export function backoff(n: number, minDelayMs: number, maxDelayMs: number, random = Math.random): number {
  const step = Math.min(maxDelayMs, minDelayMs * 2 ** (n - 1));
  return Math.round(step / 2 + random() * (step / 2));
}

/** Parses a Retry-After header (seconds or an HTTP date) into ms; undefined when absent or bad. */
export function retryAfterMs(header: string | string[] | undefined, now = Date.now()): number | undefined {
  const v = Array.isArray(header) ? header[0] : header;
  if (!v) return undefined;
  const s = Number(v);
  if (Number.isFinite(s)) return Math.max(0, s * 1000);
  const t = Date.parse(v);
  return Number.isNaN(t) ? undefined : Math.max(0, t - now);
}

/** The wait for a `Retry-After` of `ms`: at least that, plus up to half again (at most 1 s) of jitter. */
export function retryAfterWait(ms: number, random = Math.random): number {
  return Math.round(ms + random() * Math.min(1000, ms / 2));
}

/** The `retry` callback for undici's RetryHandler implementing `policy`. */
export function retryFunction(policy: RetryPolicy): RetryHandler.RetryCallback {
  const { deadline, idempotent, extraStatuses = [], maxRetries = Infinity, minDelayMs = 200, maxDelayMs = 10_000, onWait } = policy;
  return (err, { state }, cb) => {
    const { statusCode, code, headers } = err as Error & {
      statusCode?: number;
      code?: string;
      headers?: Record<string, string | string[] | undefined>;
    };
    const byStatus = statusCode != null && (RETRY_STATUSES.includes(statusCode) || extraStatuses.includes(statusCode));
    const refused = statusCode == null && code != null && REFUSED_CODES.includes(code);
    const byError = statusCode == null && idempotent && code != null && RETRY_ERROR_CODES.includes(code);
    if (refused ? state.counter > Math.min(REFUSED_RETRIES, maxRetries) : (!byStatus && !byError) || (byError && state.counter > maxRetries)) return cb(err);
    const after = retryAfterMs(headers?.["retry-after"]);
    const wait =
      after !== undefined
        ? retryAfterWait(after)
        : refused
          ? backoff(state.counter, REFUSED_MIN_DELAY_MS, maxDelayMs)
          : backoff(state.counter, minDelayMs, maxDelayMs);
    if (Date.now() + wait > deadline) return cb(err);
    onWait?.(wait, statusCode != null ? `HTTP ${statusCode}` : code!);
    setTimeout(() => cb(null), wait);
  };
}
