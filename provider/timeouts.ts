/**
 * Per-resource customTimeouts, honoured by the provider itself: the dynamic provider host does
 * not pass the engine's timeouts to a dynamic provider, so the SDK copies the resource's
 * `customTimeouts` into the hidden input `__timeouts`, and the provider turns it into a deadline
 * for that one operation. The deadline bounds everything the operation does: HTTP retries and
 * their backoff, the permission-propagation wait after a new group, create recovery, and each
 * request (aborted when the budget is spent). `create` bounds create (and adoption), `update`
 * bounds update, `delete` bounds delete. Reads, checks and diffs use the default budget.
 */
export interface Timeouts {
  create?: string;
  update?: string;
  delete?: string;
}

/** The budget of an operation when no customTimeout is set. */
export const DEFAULT_OPERATION_MS = 5 * 60_000;

const UNIT_MS: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/**
 * Milliseconds of a Go-style duration as Pulumi writes customTimeouts ("90s", "1h30m", "500ms").
 * Undefined when the string is not one.
 */
export function parseDuration(s: string): number | undefined {
  const re = /(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/gy;
  let total = 0;
  let matched = 0;
  for (let m = re.exec(s); m; m = re.exec(s)) {
    total += Number(m[1]) * UNIT_MS[m[2]];
    matched = re.lastIndex;
  }
  return matched === s.length && s.length > 0 ? total : undefined;
}

/** The deadline (ms since epoch) of operation `op` under `timeouts`. */
export function deadlineFor(timeouts: Timeouts | undefined, op: keyof Timeouts, now = Date.now()): number {
  const raw = timeouts?.[op];
  const ms = raw ? parseDuration(raw) : undefined;
  return now + (ms && ms > 0 ? ms : DEFAULT_OPERATION_MS);
}
