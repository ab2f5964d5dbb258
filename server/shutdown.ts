/**
 * Graceful stop. `app.close()` stops accepting connections and answers new requests on open ones
 * with 503 (Fastify's return503OnClosing), while requests in flight run to their end, so a client
 * learns whether its write landed. Connections with no request in flight are closed at once and
 * as soon as their last request ends. A request still running when the grace period ends has its
 * connection cut, so a stuck client cannot hold the process forever.
 */
import type { Server } from "node:http";
import type { Socket } from "node:net";
import type { FastifyInstance } from "fastify";

/** How long requests in flight get to finish once a stop begins. */
export const SHUTDOWN_GRACE_MS = 10_000;

/** The grace period: `IRV_SHUTDOWN_GRACE_MS` when it is a positive number, else the default. */
export function shutdownGraceMs(env: NodeJS.ProcessEnv = process.env): number {
  const v = Number(env.IRV_SHUTDOWN_GRACE_MS);
  return Number.isFinite(v) && v > 0 ? v : SHUTDOWN_GRACE_MS;
}

/** Open connections and how many requests each has in flight. */
const inFlight = new WeakMap<Server, Map<Socket, number>>();

/** Stops counting `socket` of `server`: a connection handed to another protocol's server (HTTP/2), which closes its own. */
export function handedOff(server: Server, socket: Socket): void {
  inFlight.get(server)?.delete(socket);
}

/** Counts requests in flight per connection of `server`; call once, before it listens. */
export function trackRequests(server: Server): void {
  const sockets = new Map<Socket, number>();
  inFlight.set(server, sockets);
  server.on("connection", (s: Socket) => {
    sockets.set(s, 0);
    s.once("close", () => sockets.delete(s));
  });
  server.on("request", (req, res) => {
    const s = req.socket;
    sockets.set(s, (sockets.get(s) ?? 0) + 1);
    res.once("close", () => {
      if (sockets.has(s)) sockets.set(s, sockets.get(s)! - 1);
    });
  });
}

/** Another protocol's connections on the same listener (gRPC over HTTP/2): drained and cut with the app's. */
export interface OtherConnections {
  drain(graceMs: number): void;
  destroy(): void;
}

/**
 * Closes `app` (and `other`'s connections), letting requests in flight finish for up to
 * `graceMs`. Resolves when all of them finished; rejects (after cutting the remaining
 * connections) when the grace period ran out.
 */
export async function closeGracefully(app: FastifyInstance, graceMs = shutdownGraceMs(), other?: OtherConnections): Promise<void> {
  const sockets = inFlight.get(app.server);
  const closeIdle = () => {
    for (const [s, n] of sockets ?? []) if (n <= 0) s.destroy();
  };
  let timer: NodeJS.Timeout | undefined;
  const closed = app.close();
  other?.drain(graceMs);
  closeIdle();
  // A connection whose last request ends after the stop began goes idle then: close it too,
  // rather than wait for its keep-alive timeout.
  const sweep = setInterval(closeIdle, 20);
  sweep.unref();
  const outOfTime = new Promise<"late">((resolve) => {
    timer = setTimeout(() => resolve("late"), graceMs);
    timer.unref();
  });
  const first = await Promise.race([closed, outOfTime]).finally(() => (clearTimeout(timer), clearInterval(sweep)));
  if (first !== "late") return;
  app.server.closeAllConnections();
  for (const s of sockets?.keys() ?? []) s.destroy();
  other?.destroy();
  await closed;
  throw new Error(`requests still running after ${graceMs} ms were cut off`);
}
