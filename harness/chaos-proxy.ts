/**
 * A chaos proxy for tests and the soak bench: an HTTP proxy on 127.0.0.1 (port 0) in front of a
 * live irv-server that breaks requests the way real networks and gateways do, independently of
 * the server's own fault hooks.
 *
 * Fault kinds:
 * - `unavailable`: 503 UNAVAILABLE with `Retry-After`; the server never sees the request.
 * - `exhausted`:   429 RESOURCE_EXHAUSTED with `Retry-After`; the server never sees the request.
 * - `reset`:       the client's connection is destroyed before anything is forwarded.
 * - `drop`:        the request is forwarded, the server's whole answer is read (so the server has
 *                  applied it), then the client's connection is destroyed unanswered.
 * - `slow`:        the request is forwarded at once but its answer is held for `slowMs`, longer
 *                  than the client's per-attempt timeout, so the client gives up on a request
 *                  the server has applied.
 *
 * Faults come two ways: `arm()` breaks the next matching requests with one kind (deterministic,
 * for matrix tests), and `chaos()` breaks a share of matching requests with kinds drawn from a
 * seeded PRNG (soak runs). `counts` says how many faults of each kind were injected.
 *
 * `hold()` is not a fault: it keeps matching requests at the proxy, before anything is forwarded,
 * until the test lets them through one at a time, so a test can act between a client's attempts
 * however slowly it runs (no racing a client's backoff on a loaded machine). A held request whose
 * client gives up meanwhile is dropped, never forwarded.
 *
 * `rewrite()` is not a fault either: it edits the answers to matching requests, so a test can
 * play a server that sends less than irv-server does (an error without a detail).
 */
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { Prng } from "../server/sample/prng";

/** The ways the proxy breaks a request. */
export const FAULT_KINDS = ["unavailable", "exhausted", "reset", "drop", "slow"] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/** Which requests a fault applies to: a method (any when omitted) and a path test. */
export interface Match {
  method?: string;
  /** A prefix of the path (query excluded), or a RegExp tested against it. */
  path?: string | RegExp;
}

/** Random faults: `rate` of the matching requests fail with a kind drawn from `kinds`. */
export interface ChaosSettings extends Match {
  seed: number;
  rate: number;
  kinds?: readonly FaultKind[];
}

export interface ChaosProxyOptions {
  /** `Retry-After` seconds on 429 and 503 (default 1). */
  retryAfterSeconds?: number;
  /** How long a `slow` answer is held (default 3000 ms). */
  slowMs?: number;
}

/** Requests held at the proxy (see `ChaosProxy.hold`). */
export interface Hold {
  /** How many matching requests have reached the proxy so far. */
  readonly arrived: number;
  /** How many are held now: a held request whose client goes away is dropped, never forwarded. */
  readonly held: number;
  /** Resolves once `n` matching requests have reached the proxy. */
  until(n: number): Promise<void>;
  /** Lets the oldest held request through (or the next one to arrive). */
  release(): void;
  /** Lets every held request through and holds no more. */
  stop(): void;
}

export interface ChaosProxy {
  /** The proxy's base URL with the upstream's path (use it as the API URL). */
  readonly url: string;
  /** Faults injected so far, by kind. */
  readonly counts: Record<FaultKind, number>;
  /** Requests seen so far (faulted or not). */
  readonly seen: number;
  /** Breaks the next `times` (default 1) requests matching `match` with `kind`; `used` counts them. */
  arm(kind: FaultKind, match?: Match & { times?: number }): { readonly used: number };
  /** Turns random faults on (or off with undefined). Armed faults go first. */
  chaos(settings: ChaosSettings | undefined): void;
  /** Holds every request matching `match` before forwarding it, until `release()`d, one per call. */
  hold(match: Match): Hold;
  /** Edits the answer (status and body) to every later request matching `match`. */
  rewrite(match: Match, edit: (status: number, body: Buffer) => Buffer): void;
  /** Disarms everything and zeroes the counts. */
  reset(): void;
  close(): Promise<void>;
}

function matches(m: Match, method: string, path: string): boolean {
  if (m.method && m.method.toUpperCase() !== method) return false;
  if (m.path === undefined) return true;
  return m.path instanceof RegExp ? m.path.test(path) : path.startsWith(m.path);
}

/** Starts a chaos proxy forwarding to `upstreamUrl` (an irv-server's url or any URL on its origin). */
export async function startChaosProxy(upstreamUrl: string, o: ChaosProxyOptions = {}): Promise<ChaosProxy> {
  const upstream = new URL(upstreamUrl);
  const retryAfter = String(o.retryAfterSeconds ?? 1);
  const slowMs = o.slowMs ?? 3000;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const counts = Object.fromEntries(FAULT_KINDS.map((k) => [k, 0])) as Record<FaultKind, number>;
  let armed: (Match & { kind: FaultKind; left: number; used: number })[] = [];
  let random: { settings: ChaosSettings; next: () => number } | undefined;
  let seen = 0;
  let rewrites: { match: Match; edit: (status: number, body: Buffer) => Buffer }[] = [];
  const holds: {
    match: Match;
    arrived: number;
    released: number;
    gone: number;
    stopped: boolean;
    waiting: (() => void)[];
    watchers: { n: number; done: () => void }[];
  }[] = [];
  /**
   * Waits while a hold keeps this request; false when its client went away meanwhile (a client
   * that gave up): such a request is never forwarded, as it would change the server unasked.
   */
  async function held(method: string, path: string, socket: Socket): Promise<boolean> {
    for (const h of holds) {
      if (h.stopped || !matches(h.match, method, path)) continue;
      const mine = ++h.arrived;
      for (const w of h.watchers.filter((w) => h.arrived >= w.n)) (h.watchers.splice(h.watchers.indexOf(w), 1), w.done());
      // Requests that left unreleased do not count against the releases of those after them.
      if (mine - h.gone <= h.released) continue;
      const stayed = await new Promise<boolean>((resolve) => {
        const go = () => (socket.off("close", leave), resolve(true));
        const leave = () => (h.waiting.splice(h.waiting.indexOf(go), 1), h.gone++, resolve(false));
        h.waiting.push(go);
        socket.once("close", leave);
      });
      if (!stayed) return false;
    }
    return true;
  }
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();

  function pick(method: string, path: string): FaultKind | undefined {
    const i = armed.findIndex((a) => matches(a, method, path));
    if (i >= 0) {
      const a = armed[i];
      a.used++;
      if (--a.left <= 0) armed.splice(i, 1);
      return a.kind;
    }
    if (!random || !matches(random.settings, method, path)) return undefined;
    // Two draws per request whatever the outcome, so a seed replays the same fault sequence.
    const hit = random.next() < random.settings.rate;
    const kinds = random.settings.kinds ?? FAULT_KINDS;
    const kind = kinds[Math.floor(random.next() * kinds.length)];
    return hit ? kind : undefined;
  }

  function forward(req: http.IncomingMessage, body: Buffer): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
    return new Promise((resolve, reject) => {
      const up = http.request(
        { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: { ...req.headers, host: upstream.host }, agent },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => resolve({ status: res.statusCode ?? 502, headers: res.headers, body: Buffer.concat(chunks) }));
          res.on("error", reject);
        },
      );
      up.on("error", reject);
      up.end(body);
    });
  }

  function answer(res: http.ServerResponse, status: number, headers: http.IncomingHttpHeaders, body: Buffer): void {
    if (res.destroyed) return;
    const h = { ...headers };
    delete h["transfer-encoding"];
    delete h.connection;
    delete h["keep-alive"];
    h["content-length"] = String(body.length);
    res.writeHead(status, h);
    res.end(body);
  }

  function refuse(res: http.ServerResponse, kind: "unavailable" | "exhausted"): void {
    const [status, code, name] = kind === "unavailable" ? [503, 14, "UNAVAILABLE"] : [429, 8, "RESOURCE_EXHAUSTED"];
    const body = Buffer.from(JSON.stringify({ code, message: `chaos proxy: ${name}`, details: [] }));
    answer(res, status, { "content-type": "application/json", "retry-after": retryAfter }, body);
  }

  const server = http.createServer((req, res) => {
    seen++;
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const path = (req.url ?? "/").split("?")[0];
      if (!(await held(req.method ?? "GET", path, req.socket))) return;
      const kind = pick(req.method ?? "GET", path);
      if (kind) counts[kind]++;
      if (kind === "reset") return req.socket.destroy();
      if (kind === "unavailable" || kind === "exhausted") return refuse(res, kind);
      let r: Awaited<ReturnType<typeof forward>>;
      try {
        r = await forward(req, Buffer.concat(chunks));
      } catch {
        return req.socket.destroy();
      }
      if (kind === "drop") return req.socket.destroy();
      for (const w of rewrites) if (matches(w.match, req.method ?? "GET", path)) r.body = w.edit(r.status, r.body);
      if (kind === "slow") {
        const t = setTimeout(() => {
          timers.delete(t);
          answer(res, r.status, r.headers, r.body);
        }, slowMs);
        timers.add(t);
        return;
      }
      answer(res, r.status, r.headers, r.body);
    });
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const url = new URL(upstreamUrl);
  url.host = `127.0.0.1:${port}`;

  return {
    url: url.toString().replace(/\/$/, ""),
    counts,
    get seen() {
      return seen;
    },
    arm(kind, match = {}) {
      const a = { ...match, kind, left: match.times ?? 1, used: 0 };
      armed.push(a);
      return {
        get used() {
          return a.used;
        },
      };
    },
    chaos(settings) {
      if (!settings) random = undefined;
      else {
        const prng = new Prng(settings.seed);
        random = { settings, next: () => prng.next() };
      }
    },
    hold(match) {
      const h = { match, arrived: 0, released: 0, gone: 0, stopped: false, waiting: [] as (() => void)[], watchers: [] as { n: number; done: () => void }[] };
      holds.push(h);
      return {
        get arrived() {
          return h.arrived;
        },
        get held() {
          return h.waiting.length;
        },
        until: (n) => (h.arrived >= n ? Promise.resolve() : new Promise<void>((done) => h.watchers.push({ n, done }))),
        release() {
          h.released++;
          h.waiting.shift()?.();
        },
        stop() {
          h.stopped = true;
          for (const go of h.waiting.splice(0)) go();
        },
      };
    },
    rewrite(match, edit) {
      rewrites.push({ match, edit });
    },
    reset() {
      rewrites = [];
      for (const h of holds.splice(0)) ((h.stopped = true), h.waiting.splice(0).forEach((go) => go()));
      armed = [];
      random = undefined;
      for (const k of FAULT_KINDS) counts[k] = 0;
    },
    async close() {
      for (const t of timers) clearTimeout(t);
      for (const s of sockets) s.destroy();
      agent.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
