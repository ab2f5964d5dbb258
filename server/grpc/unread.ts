/**
 * What gRPC answers may hold in memory while their callers do not read them. A unary answer
 * stays in the server from the moment it is written until its last byte is handed to the
 * connection's socket: a caller that never reads (a zero flow-control window, or an unread
 * socket) keeps it there for the life of the call. So the bytes of answers written and not yet
 * sent are counted, per connection and in all, and bounded:
 *
 * - a connection that already holds answers may hold at most `perConnection` bytes: a call whose
 *   answer would go past it is failed (RESOURCE_EXHAUSTED, trailers only, which flow control does
 *   not hold back) instead, and one made while its connection has no room for another answer as
 *   large as its largest is failed before its answer is computed;
 * - all connections together hold at most `total`: past it, the connection holding the most is
 *   closed (its calls fail; that caller is the slow reader), unless that is the caller's own, whose
 *   call is then failed;
 * - an answer larger than a bound still goes out on an idle connection of an idle server, so a
 *   large page can always be read by a caller that reads;
 * - at most `computing` answers are computed at once, in the order their calls arrived: a burst of
 *   calls on one connection cannot hold all their answers in memory before the bounds are checked.
 */
import { ServerInterceptingCall, type ServerInterceptor } from "@grpc/grpc-js";
import type { Socket } from "node:net";

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
const peerOf = (s: { remoteAddress?: string; remotePort?: number }): string => `${s.remoteAddress}:${s.remotePort}`;

/** The unsent answers of every HTTP/2 connection, and the turns to compute new ones. */
export class UnreadAnswers {
  private readonly connections = new Map<string, Connection>();
  private all = 0;
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly limits: UnreadLimits) {}

  /** Registers an HTTP/2 connection, so that it can be closed when it holds too much. */
  attach(socket: Socket): void {
    const key = peerOf(socket);
    this.connections.set(key, { held: 0, largest: 0, socket });
    socket.once("close", () => {
      const c = this.connections.get(key);
      if (c?.socket !== socket) return;
      this.all -= c.held;
      this.connections.delete(key);
    });
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
    if (this.running >= this.limits.computing) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running++;
    try {
      return await compute();
    } finally {
      // The turn passes straight to the next call waiting, if any.
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
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
    c.socket?.destroy();
  }
}

/**
 * Releases each admitted answer once it is sent. The handler admits an answer just before it
 * writes it (services.ts), and every answer written passes here: a unary call's status follows
 * its message only once the message's write completed, and a call that ends otherwise is
 * cancelled (grpc-js reports every finished call so).
 */
export function releaseWhenSent(unread: UnreadAnswers): ServerInterceptor {
  return (_method, call) => {
    const peer = call.getPeer();
    let held = 0;
    let ended = false;
    const release = () => {
      if (held > 0) unread.release(peer, held);
      held = 0;
      ended = true;
    };
    return new ServerInterceptingCall(call, {
      start: (next) => next({ onCancel: release }),
      sendMessage: (message: Buffer, next) => {
        held = message.length;
        // Gone already: grpc-js drops the message.
        if (ended) release();
        next(message);
      },
      sendStatus: (status, next) => {
        release();
        next(status);
      },
    });
  };
}
