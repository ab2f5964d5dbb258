/**
 * What answers may hold in memory while their callers do not read them, on both doors. An answer
 * stays in the server from the moment it is written until its last byte is handed to the
 * connection's socket: a caller that never reads (an unread socket, or on HTTP/2 a zero
 * flow-control window) keeps it there. HTTP/1.1 holds about one answer per connection (Node stops
 * reading a connection whose answer is not drained); HTTP/2 one per call, 100 calls at once. So the
 * bytes of answers written and not yet sent are counted, per connection and in all, and bounded:
 *
 * - a connection that already holds answers may hold at most `perConnection` bytes: an answer that
 *   would go past it is not sent, the request failing with RESOURCE_EXHAUSTED instead (on gRPC as
 *   trailers only, which flow control does not hold back), and a request made while its
 *   connection has no room for another answer as large as its largest is failed before its answer
 *   is computed;
 * - all connections together hold at most `total`: past it, the connection holding the most is
 *   closed (its requests fail; that caller is the slow reader), unless that is the caller's own,
 *   whose request is then failed;
 * - an answer larger than a bound still goes out on an idle connection of an idle server, so a
 *   large page can always be read by a caller that reads;
 * - at most `computing` answers are computed at once, gRPC and HTTP/1.1 alike, in the order their
 *   requests arrived: a burst of calls on one connection, or of connections each asking for a large
 *   page, cannot hold all their answers in memory before the bounds are checked (a hundred
 *   HTTP/1.1 connections each computing a 0.9 MB page ran a server with a 192 MiB heap out of it);
 * - what is counted is what is held: an HTTP/1.1 answer pipelined behind others waits with us, not
 *   in Node's queue, and a connection closed (or shed) drops its answers at once.
 */
import type { ServerResponse } from "node:http";
import { Socket } from "node:net";
import { Readable } from "node:stream";
import type { FastifyInstance } from "fastify";
import { AUTH_PREFIX } from "./auth/routes";
import { retryLater, type ApiError } from "./errors";

/** The bounds of unread answers. */
export interface UnreadLimits {
  /** Bytes one connection's unsent answers may hold. */
  perConnection: number;
  /** Bytes all connections' unsent answers may hold together. */
  total: number;
  /** Answers computed at once. */
  computing: number;
}

interface Connection {
  held: number;
  /** The largest answer it was given. */
  largest: number;
  socket?: Socket;
}

/** The key of a connection, as grpc-js's `getPeer()` writes it. */
export const peerOf = (s: { remoteAddress?: string; remotePort?: number }): string => `${s.remoteAddress}:${s.remotePort}`;

/** Answers written and not yet sent: at most 8 MiB per connection and 64 MiB in all; at most 8 answers computed at once. */
export const UNREAD_LIMITS: UnreadLimits = { perConnection: 8 * 1024 * 1024, total: 64 * 1024 * 1024, computing: 8 };

/**
 * True for the token exchange's routes, which take no turn: an exchange waits on another issuer's
 * keys (up to the fetch timeout) and answers little, so a stranger's slow issuers holding every
 * turn would stall every other answer.
 */
export const takesNoTurn = (path: string): boolean => path.startsWith(`${AUTH_PREFIX}/`);

/** The unsent answers of every connection, and the turns to compute new gRPC ones. */
export class UnreadAnswers {
  private readonly connections = new Map<string, Connection>();
  private all = 0;
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  /** What to drop when a connection is gone: the answers queued on it. */
  private readonly drops = new WeakMap<Socket, Set<() => void>>();

  constructor(
    readonly limits: UnreadLimits,
    /** Told of each connection closed for holding the most when all were full. */
    private readonly onShed: (peer: string, heldBytes: number) => void = () => {},
  ) {}

  /** The error of a request whose answer does not fit. */
  refusal(): ApiError {
    const mib = (n: number) => `${n / 1048576} MiB`;
    return retryLater(
      "RESOURCE_EXHAUSTED",
      `answers not read yet fill this connection's ${mib(this.limits.perConnection)}, or the server's ${mib(this.limits.total)}: read them, or make fewer requests at once`,
      1,
    );
  }

  /** Registers a connection (once), so that it can be closed when it holds too much. */
  attach(socket: Socket): void {
    const key = peerOf(socket);
    // A closed connection is not registered again: nothing would ever forget it.
    if (socket.destroyed || this.connections.get(key)?.socket === socket) return;
    this.connections.set(key, { held: 0, largest: 0, socket });
    socket.once("close", () => {
      this.gone(socket);
      const c = this.connections.get(key);
      if (c?.socket !== socket) return;
      this.all -= c.held;
      this.connections.delete(key);
    });
  }

  /**
   * Runs `drop` once `socket`'s connection is gone: when it closes, or at once when the server
   * closes it for holding the most (its 'close' event may come seconds later on a busy server, and
   * what it queued would be held until then). Returns what forgets it.
   */
  whenGone(socket: Socket, drop: () => void): () => void {
    const drops = this.drops.get(socket) ?? this.drops.set(socket, new Set()).get(socket)!;
    drops.add(drop);
    return () => drops.delete(drop);
  }

  private gone(socket: Socket): void {
    const drops = this.drops.get(socket);
    this.drops.delete(socket);
    for (const drop of drops ?? []) drop();
  }

  /**
   * True when `peer`'s connection has no room left for another answer as large as the largest it
   * was given: its next call is then failed before its answer is computed (computing answers only
   * to refuse them would cost as much memory, if briefly).
   */
  full(peer: string): boolean {
    const c = this.connections.get(peer);
    return c !== undefined && c.held > 0 && c.held + c.largest > this.limits.perConnection;
  }

  /** Runs `compute` in its turn: at most `computing` at once, first come first served. */
  async inTurn<T>(compute: () => Promise<T>): Promise<T> {
    const done = await this.turn();
    try {
      return await compute();
    } finally {
      done();
    }
  }

  /** Waits for a turn to compute an answer; returns what ends it (once, however often it is called). */
  async turn(): Promise<() => void> {
    if (this.running >= this.limits.computing) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running++;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      // The turn passes to the next call waiting, if any, on a later turn of the event loop: passed
      // as a promise settles, a queue of waiting calls was served in one run of microtasks, which
      // kept the loop (closing connections, other callers, signals) waiting for seconds, and the
      // answers of connections already closed in memory all that time.
      const next = this.waiting.shift();
      if (next) setImmediate(next);
      else this.running--;
    };
  }

  /**
   * Counts an answer of `bytes` about to be written on `peer`'s connection; false when it must not
   * be (the call is then failed). May close the connection holding the most to make room.
   */
  admit(peer: string, bytes: number): boolean {
    const own = this.connections.get(peer) ?? this.connections.set(peer, { held: 0, largest: 0 }).get(peer)!;
    if (own.held > 0 && own.held + bytes > this.limits.perConnection) return false;
    while (this.all > 0 && this.all + bytes > this.limits.total) {
      let victim: [string, Connection] | undefined;
      for (const e of this.connections) if (e[1].held > 0 && (!victim || e[1].held > victim[1].held)) victim = e;
      if (!victim || victim[1] === own) return false;
      this.shed(victim[0], victim[1]);
    }
    own.held += bytes;
    own.largest = Math.max(own.largest, bytes);
    this.all += bytes;
    return true;
  }

  /** An answer admitted on `peer` was sent, or its call ended. */
  release(peer: string, bytes: number): void {
    const c = this.connections.get(peer);
    if (!c) return;
    c.held -= bytes;
    this.all -= bytes;
  }

  /** Closes a connection and forgets what it held (its calls end as it closes). */
  private shed(key: string, c: Connection): void {
    this.all -= c.held;
    this.connections.delete(key);
    if (c.socket) {
      c.socket.destroy();
      this.gone(c.socket);
    }
    this.onShed(key, c.held);
  }
}

/**
 * Counts every HTTP/1.1 answer against the same bounds as gRPC's, from the moment Fastify is about
 * to write it until it is handed to the socket (or the connection is gone); one that does not fit
 * is answered RESOURCE_EXHAUSTED (HTTP 429) instead.
 */
export function boundUnreadAnswers(app: FastifyInstance, unread: UnreadAnswers): void {
  const turns = new WeakMap<object, () => void>();
  // gRPC's calls reach the routes in process, on no socket: they are counted, and take their turn
  // to be computed, as gRPC answers (taking a second turn here could wait on the caller's own).
  app.addHook("preHandler", async (req, reply) => {
    if (!(req.raw.socket instanceof Socket) || takesNoTurn(req.url)) return;
    // A caller gone (a connection closed for holding the most, with its pipelined requests) gets
    // no answer computed: computing them, outside any turn, is what outgrew the bounds.
    if (req.raw.socket.destroyed) return reply.code(499).send();
    const done = await unread.turn();
    if (req.raw.socket.destroyed) {
      done();
      return reply.code(499).send();
    }
    // As on gRPC: a connection with no room left for another answer as large as its largest gets
    // the refusal before its answer is computed (pipelined requests had large answers computed
    // only to be refused, garbage that outgrew the bounds on a loaded machine).
    if (unread.full(peerOf(req.raw.socket))) {
      done();
      const e = unread.refusal();
      return reply.code(e.http).headers(e.headers).send(e.body);
    }
    turns.set(req, done);
    reply.raw.once("close", done);
  });
  app.addHook("onSend", async (req, reply, payload) => {
    // The answer is computed: from here it is counted as held, not as being computed.
    turns.get(req)?.();
    const socket = req.raw.socket;
    if (!(socket instanceof Socket)) return payload;
    // Nothing goes out on a closed connection: its answer is neither kept nor counted.
    if (socket.destroyed) return "";
    const text = typeof payload === "string" || Buffer.isBuffer(payload) ? payload : undefined;
    if (text === undefined || text.length === 0) return payload;
    const bytes = Buffer.byteLength(text);
    unread.attach(socket);
    const peer = peerOf(socket);
    if (!unread.admit(peer, bytes)) {
      const e = unread.refusal();
      void reply.code(e.http).headers(e.headers);
      return JSON.stringify(e.body);
    }
    let held = true;
    const release = () => {
      if (held) unread.release(peer, bytes);
      held = false;
    };
    const res = reply.raw;
    res.once("finish", release);
    res.once("close", release);
    // Held as a Buffer, outside the JavaScript heap, as gRPC's answers are: a string answer waiting
    // for a slow reader stays in the heap (Node even copies it to prepend the headers), where a
    // few dozen connections' worth ran a server with a 256 MiB heap out of it. Only an admitted
    // answer is copied: copies of refused ones were garbage enough to grow the process by 500 MB.
    const answer = typeof text === "string" ? Buffer.from(text) : text;
    if (res.socket) return answer;
    // A pipelined answer waits for the answers before it in a stream of ours, not in Node's queue:
    // Node keeps a closed connection's queued answers until it collects the connection's parser,
    // seconds later on a busy server (ninety connections shed for holding the most kept 770 MiB in
    // use), where ours are dropped as the connection goes. (Waiting in this hook would keep the
    // answer's string as well.)
    void reply.header("content-length", String(bytes));
    return queued(unread, socket, res, answer, release);
  });
}

/**
 * `answer` as a stream that gives it once `res`, queued behind earlier answers on its connection,
 * gets the connection's socket, or ends empty (dropping it, and releasing its count) as soon as
 * the connection is gone.
 */
function queued(unread: UnreadAnswers, socket: Socket, res: ServerResponse, answer: Buffer, release: () => void): Readable {
  const body = new Readable({ read() {} });
  let waiting: Buffer | undefined = answer;
  const end = (writing: boolean) => {
    if (!waiting) return;
    if (writing) body.push(waiting);
    else release();
    waiting = undefined;
    body.push(null);
  };
  const forget = unread.whenGone(socket, () => end(false));
  res.once("socket", () => {
    forget();
    end(true);
  });
  return body;
}
