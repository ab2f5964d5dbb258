/** A server's work counts (`RunningServer.work()`, server/work.ts) read around one request. */
import type { WorkCounts } from "../../server";

/** How much each of `server`'s work counts grew while `run` ran, and what `run` returned. */
export async function workDuring<R>(server: { work(): WorkCounts }, run: () => Promise<R>): Promise<{ work: WorkCounts; result: R }> {
  const before = server.work();
  const result = await run();
  const after = server.work();
  const work = Object.fromEntries(Object.entries(after).map(([k, v]) => [k, v - before[k as keyof WorkCounts]])) as WorkCounts;
  return { work, result };
}
