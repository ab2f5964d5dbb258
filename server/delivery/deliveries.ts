/**
 * Delivers every committed change to the subscriptions that should hear it, as the platform does:
 * to each subscription whose group is the change's group or one of its ancestors, one CloudEvent
 * per change (event.ts), POSTed to its sink with a fresh token from this server's own issuer in
 * the Authorization header (TokenIssuer.issueWebhook).
 *
 * Nothing here can slow or fail the API: a change is queued synchronously (ChangeFeed's contract)
 * and sent later. Each subscription has its own queue, sent in order, one request at a time; a
 * failed attempt (no connection, a timeout, 404, 408, 409, 429 or 5xx) is retried with
 * exponential backoff and jitter up to `maxAttempts`, any other answer (a redirect, which is never
 * followed, 400, 401, 403, ...) gives the event up at once. Everything is bounded: each queue and
 * all queues together, requests in flight, each request's time, and the answer, which is read
 * only up to ANSWER_READ_BYTES and never logged. Queues live in memory; with a data directory,
 * what is queued at a graceful stop is kept there and queued again at the next start (saved.ts). A sink is reached over https (http only on loopback hosts
 * with `allowPrivateSinks`), and by default only at public addresses: a member who may create a
 * subscription must not make this server POST into its own network.
 */
import { createHash } from "node:crypto";
import { rootCertificates } from "node:tls";
import { Agent, request } from "undici";
import { isSelfOrAncestor, parentOf } from "../../api/uid";
import { checkedLookup, discard, outboundPolicy, type OutboundPolicy } from "../auth/outbound";
import type { TokenIssuer } from "../auth/tokens";
import type { ChangeFeed, ItemChange } from "../model/changes";
import type { Store } from "../store";
import { EXTENSION, eventOf, type DeliveredEvent } from "./event";
import type { QueuedDelivery } from "./saved";

/** How deliveries are made, retried and bounded (server option `delivery`; CLI `--delivery-*`). */
export interface DeliveryOptions {
  /** Deliver to sinks on private, loopback and link-local addresses, and over plain http to loopback hosts. Default false. */
  allowPrivateSinks?: boolean;
  /** PEM certificates trusted for sinks, beside the system's roots (a test receiver's self-signed certificate). */
  ca?: string;
  /** The wait before the first retry, doubled for each further one (with jitter). Default 1000 ms. */
  initialBackoffMs?: number;
  /** The longest wait between two attempts. Default 60 000 ms. */
  maxBackoffMs?: number;
  /** Attempts per event and subscription, the first included. Default 8. */
  maxAttempts?: number;
  /** One attempt's bound, connection to answer. Default 10 000 ms. */
  requestTimeoutMs?: number;
  /** Events queued for one subscription; past it, new events for it are dropped. Default 1000. */
  maxQueuedPerSink?: number;
  /** Events queued for all subscriptions together; past it, new events are dropped. Default 10 000. */
  maxQueued?: number;
  /** Requests in flight to all sinks together. Default 32. */
  maxInFlight?: number;
}

/** What happened to deliveries so far (for tests, benchmarks and the operator). */
export interface DeliveryStats {
  /** Events accepted by a sink (2xx). */
  delivered: number;
  /** Attempts that failed and were retried. */
  retried: number;
  /** Events given up: refused by the sink, out of attempts, or their subscription deleted. */
  failed: number;
  /** Events never queued: a queue was full. */
  dropped: number;
  /** Events waiting now (in flight included). */
  queued: number;
}

/** How much of a sink's answer is read (then the rest is dropped with the connection). */
export const ANSWER_READ_BYTES = 4096;
/** A delivery token's lifetime: each attempt gets a fresh one. */
export const DELIVERY_TOKEN_TTL_SECONDS = 300;

const DEFAULTS = {
  initialBackoffMs: 1000,
  maxBackoffMs: 60_000,
  maxAttempts: 8,
  requestTimeoutMs: 10_000,
  maxQueuedPerSink: 1000,
  maxQueued: 10_000,
  maxInFlight: 32,
} satisfies Required<Omit<DeliveryOptions, "allowPrivateSinks" | "ca">>;

/** `options`' numbers, each checked, with the defaults for those not given. */
export function boundsOf(options: DeliveryOptions): typeof DEFAULTS {
  const out = { ...DEFAULTS };
  for (const k of Object.keys(DEFAULTS) as (keyof typeof DEFAULTS)[]) {
    const v = options[k];
    if (v === undefined) continue;
    if (!Number.isSafeInteger(v) || v < 1) throw new Error(`delivery.${k} must be a positive integer, not ${v}`);
    out[k] = v;
  }
  if (out.maxBackoffMs < out.initialBackoffMs)
    throw new Error(`delivery.maxBackoffMs (${out.maxBackoffMs}) must not be below delivery.initialBackoffMs (${out.initialBackoffMs})`);
  return out;
}

/** Answers worth another attempt: the sink may not be there yet, or is overloaded or failing. */
const RETRIED = new Set([404, 408, 409, 429]);

/** One subscription's queue. */
interface SinkQueue {
  uid: string;
  sink: string;
  events: { event: DeliveredEvent; attempts: number }[];
  sending: boolean;
  timer?: NodeJS.Timeout;
  /** Whether the last event offered was dropped (to log an overflow once, not per event). */
  overflowing: boolean;
}

/** The outcome of one attempt. */
type Outcome = { ok: true } | { ok: false; retry: boolean; after?: number; why: string };

/** Delivers one server's changes to its subscriptions. */
export class Deliveries {
  private readonly opts: typeof DEFAULTS;
  private readonly policy: OutboundPolicy;
  private readonly agent: Agent;
  private readonly queues = new Map<string, SinkQueue>();
  private readonly ready: SinkQueue[] = [];
  private readonly inFlight = new Set<AbortController>();
  private readonly stop: () => void;
  private closed = false;
  /** Set by `pause`: nothing more is sent, and what is queued stays (to be saved). */
  private paused = false;
  /** Called when the last request in flight ends, while paused; `pause`'s promise, once asked. */
  private settled?: () => void;
  private pausing?: Promise<void>;
  private queued = 0;
  private readonly counts = { delivered: 0, retried: 0, failed: 0, dropped: 0 };

  constructor(
    private readonly store: Store,
    private readonly tokens: TokenIssuer,
    private readonly source: () => string,
    changes: ChangeFeed,
    options: DeliveryOptions = {},
    private readonly log: (line: string) => void = (l) => process.stderr.write(`irv-server: ${l}\n`),
  ) {
    this.opts = boundsOf(options);
    this.policy = outboundPolicy(options.allowPrivateSinks ?? false);
    this.agent = new Agent({
      connect: { lookup: checkedLookup(this.policy), timeout: this.opts.requestTimeoutMs, ...(options.ca ? { ca: [...rootCertificates, options.ca] } : {}) },
      headersTimeout: this.opts.requestTimeoutMs,
      bodyTimeout: this.opts.requestTimeoutMs,
      connections: 4,
    });
    this.stop = changes.subscribe(
      (c) => this.offer(c),
      () => store.subscriptions.size > 0,
    );
  }

  stats(): DeliveryStats {
    return { ...this.counts, queued: this.queued };
  }

  /** Queues `change` for every subscription that hears it. Synchronous, never throws. */
  private offer(change: ItemChange): void {
    if (this.closed) return;
    let event: DeliveredEvent | undefined;
    for (const sub of this.store.subscriptions.all()) {
      const group = parentOf(sub.uid);
      if (!group || !isSelfOrAncestor(group, change.group)) continue;
      event ??= eventOf(change, this.source());
      this.enqueue(sub.uid, sub.sink, event);
    }
  }

  private enqueue(uid: string, sink: string, event: DeliveredEvent): void {
    let q = this.queues.get(uid);
    if (!q) this.queues.set(uid, (q = { uid, sink, events: [], sending: false, overflowing: false }));
    if (q.events.length >= this.opts.maxQueuedPerSink || this.queued >= this.opts.maxQueued) {
      this.counts.dropped++;
      if (!q.overflowing) this.log(`deliveries to subscription ${uid} are backing up: dropping new events until its queue drains`);
      q.overflowing = true;
      // A queue made just now for a full server holds nothing: keep no empty queues.
      if (!q.events.length && !q.sending && !q.timer) this.queues.delete(uid);
      return;
    }
    q.overflowing = false;
    q.events.push({ event, attempts: 0 });
    this.queued++;
    if (!q.sending && !q.timer) this.schedule(q);
  }

  /** Marks `q` ready to send its head, and sends what the bound on requests in flight allows. */
  private schedule(q: SinkQueue): void {
    q.sending = true;
    this.ready.push(q);
    this.pump();
  }

  private pump(): void {
    while (!this.closed && !this.paused && this.inFlight.size < this.opts.maxInFlight && this.ready.length) void this.send(this.ready.shift()!);
  }

  private async send(q: SinkQueue): Promise<void> {
    const head = q.events[0];
    // A deleted subscription hears nothing more, including what was queued for it.
    if (!this.store.subscriptions.has(q.uid)) return this.forget(q);
    head.attempts++;
    const abort = new AbortController();
    this.inFlight.add(abort);
    let outcome: Outcome;
    try {
      outcome = await this.attempt(q, head.event, abort.signal);
    } catch (e) {
      outcome = { ok: false, retry: true, why: (e as Error).message };
    } finally {
      this.inFlight.delete(abort);
      if (!this.inFlight.size) this.settled?.();
    }
    if (this.closed) return;
    if (outcome.ok) {
      this.counts.delivered++;
      this.next(q);
    } else if (outcome.retry && head.attempts < this.opts.maxAttempts) {
      this.counts.retried++;
      q.sending = false;
      q.timer = setTimeout(
        () => {
          q.timer = undefined;
          this.schedule(q);
        },
        outcome.after ?? this.backoff(head.attempts),
      );
      q.timer.unref();
    } else {
      this.counts.failed++;
      this.log(`gave up delivering event ${head.event.id} (${head.event.type}) to subscription ${q.uid} after ${head.attempts} attempt(s): ${outcome.why}`);
      this.next(q);
    }
    this.pump();
  }

  /** Drops the head of `q` and goes on with the next event, if any. */
  private next(q: SinkQueue): void {
    q.events.shift();
    this.queued--;
    q.sending = false;
    if (q.events.length) this.schedule(q);
    else this.queues.delete(q.uid);
  }

  private forget(q: SinkQueue): void {
    this.counts.failed += q.events.length;
    this.queued -= q.events.length;
    q.events = [];
    q.sending = false;
    this.queues.delete(q.uid);
    this.pump();
  }

  /** The wait before attempt `attempts + 1`: doubling from initialBackoffMs, capped, with jitter in its upper half. */
  private backoff(attempts: number): number {
    const d = Math.min(this.opts.maxBackoffMs, this.opts.initialBackoffMs * 2 ** (attempts - 1));
    return Math.round(d / 2 + (Math.random() * d) / 2);
  }

  /** One POST of `event` to `q`'s sink. */
  private async attempt(q: SinkQueue, event: DeliveredEvent, signal: AbortSignal): Promise<Outcome> {
    const url = URL.parse(q.sink);
    if (!url || url.username || url.password || !(url.protocol === "https:" || (url.protocol === "http:" && this.policy.httpAllowed(url))))
      return { ok: false, retry: false, why: "the sink is not an https URL this server may deliver to" };
    const digest = `sha256:${createHash("sha256").update(event.body).digest("hex")}`;
    const token = await this.tokens.issueWebhook(parentOf(q.uid)!, digest, DELIVERY_TOKEN_TTL_SECONDS);
    const timeout = AbortSignal.timeout(this.opts.requestTimeoutMs);
    const res = await request(url, {
      method: "POST",
      dispatcher: this.agent,
      signal: AbortSignal.any([signal, timeout]),
      headers: { ...event.headers, [`ce-${EXTENSION.subscription}`]: q.uid, authorization: `Bearer ${token}` },
      body: event.body,
    }).catch((e: unknown) => {
      const code = (e as { code?: string }).code ?? (e as { cause?: { code?: string } }).cause?.code;
      throw new Error(
        timeout.aborted ? "no answer in time" : code === "EADDRNOTALLOWED" ? "the sink's address is not public" : "the sink could not be reached",
      );
    });
    await readSome(res.body, ANSWER_READ_BYTES);
    const s = res.statusCode;
    if (s >= 200 && s < 300) return { ok: true };
    const retry = RETRIED.has(s) || s >= 500;
    return { ok: false, retry, after: retry ? retryAfter(res.headers["retry-after"], this.opts.maxBackoffMs) : undefined, why: `the sink answered ${s}` };
  }

  /** What waits now, in each subscription's order (to keep across a restart; see saved.ts). */
  queuedNow(): QueuedDelivery[] {
    return [...this.queues.values()].flatMap((q) => q.events.map((e) => ({ subscription: q.uid, sink: q.sink, event: e.event, attempts: e.attempts })));
  }

  /** Queues again what `queuedNow` returned before a restart, for the subscriptions that still exist. */
  resume(queued: QueuedDelivery[]): void {
    for (const q of queued) {
      if (!this.store.subscriptions.has(q.subscription)) continue;
      this.enqueue(q.subscription, q.sink, q.event);
      const last = this.queues.get(q.subscription)?.events.at(-1);
      if (last?.event === q.event) last.attempts = Math.max(0, Math.min(q.attempts, this.opts.maxAttempts - 1));
    }
  }

  /**
   * Sends nothing more; what is queued, and what changes from now on, stays queued (for `queuedNow`).
   * Resolves once no request is in flight: a receiver verifies a delivery with this server's keys,
   * so the server must still answer while one is on its way (each request ends at the request timeout).
   */
  pause(): Promise<void> {
    this.paused = true;
    this.pausing ??= this.inFlight.size ? new Promise<void>((resolve) => (this.settled = resolve)) : Promise.resolve();
    return this.pausing;
  }

  /** Stops hearing changes and drops what is queued; requests in flight are aborted. */
  async close(): Promise<void> {
    this.closed = true;
    this.stop();
    for (const q of this.queues.values()) clearTimeout(q.timer);
    this.queues.clear();
    for (const a of this.inFlight) a.abort();
    await this.agent.destroy().catch(() => {});
  }
}

/** Reads at most `limit` bytes of an answer, then drops the rest (and with it, the connection). */
async function readSome(body: NodeJS.ReadableStream & AsyncIterable<Buffer> & { destroy(): void }, limit: number): Promise<void> {
  let size = 0;
  try {
    for await (const chunk of body) {
      size += chunk.length;
      if (size > limit) return discard(body);
    }
  } catch {
    // The answer's status is all that counts.
  }
}

/** A `Retry-After` of delay-seconds, in ms, capped at `max`; undefined for anything else. */
function retryAfter(value: string | string[] | undefined, max: number): number | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  return v && /^\d{1,9}$/.test(v) ? Math.min(max, Number(v) * 1000) : undefined;
}
