/**
 * Graceful stop. `app.close()` stops accepting connections, closes idle keep-alive ones and
 * answers new requests on open ones with 503 (Fastify's return503OnClosing), while requests in
 * flight run to their end, so a client learns whether its write landed. A request that is still
 * running when the grace period ends has its connection cut, so a stuck client cannot hold the
 * process forever.
 */
import type { FastifyInstance } from "fastify";

/** How long requests in flight get to finish once a stop begins. */
export const SHUTDOWN_GRACE_MS = 10_000;

/** The grace period: `IRV_SHUTDOWN_GRACE_MS` when it is a positive number, else the default. */
export function shutdownGraceMs(env: NodeJS.ProcessEnv = process.env): number {
  const v = Number(env.IRV_SHUTDOWN_GRACE_MS);
  return Number.isFinite(v) && v > 0 ? v : SHUTDOWN_GRACE_MS;
}

/**
 * Closes `app`, letting requests in flight finish for up to `graceMs`. Resolves when all of them
 * finished; rejects (after cutting the remaining connections) when the grace period ran out.
 */
export async function closeGracefully(app: FastifyInstance, graceMs = shutdownGraceMs()): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const closed = app.close();
  // A keep-alive connection whose request finishes after the stop began goes idle then: close it
  // too, rather than wait for its keep-alive timeout.
  const sweep = setInterval(() => app.server.closeIdleConnections(), 50);
  sweep.unref();
  void closed.finally(() => clearInterval(sweep)).catch(() => undefined);
  const outOfTime = new Promise<"late">((resolve) => {
    timer = setTimeout(() => resolve("late"), graceMs);
    timer.unref();
  });
  const first = await Promise.race([closed, outOfTime]);
  clearTimeout(timer);
  if (first !== "late") return;
  app.server.closeAllConnections();
  await closed;
  throw new Error(`requests still running after ${graceMs} ms were cut off`);
}
