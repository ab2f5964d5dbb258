/**
 * The deliveries left queued when irv-server stops gracefully, kept in its data directory and
 * queued again when it starts on that directory, so a restart loses no event. A crash (SIGKILL,
 * power loss) still loses what was queued: the queue is written only on a graceful stop. No
 * token is kept (each attempt gets a fresh one); the bodies are the data directory's own items.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { DeliveredEvent } from "./event";

/** An event waiting for one subscription. */
export interface QueuedDelivery {
  subscription: string;
  sink: string;
  event: DeliveredEvent;
  attempts: number;
}

const FILE = "deliveries.json";

/** Writes `queued` into `dir` (nothing when there is nothing to keep). */
export function saveQueued(dir: string, queued: QueuedDelivery[]): void {
  if (!queued.length) return;
  const json = queued.map((q) => ({ ...q, event: { ...q.event, body: q.event.body.toString("base64") } }));
  writeFileSync(join(dir, FILE), JSON.stringify(json), { mode: 0o600 });
}

/** Reads and removes what `saveQueued` wrote into `dir`; a file that cannot be read is reported and dropped. */
export function takeQueued(dir: string, warn: (m: string) => void): QueuedDelivery[] {
  const file = join(dir, FILE);
  if (!existsSync(file)) return [];
  try {
    const json = JSON.parse(readFileSync(file, "utf8")) as (Omit<QueuedDelivery, "event"> & { event: Omit<DeliveredEvent, "body"> & { body: string } })[];
    return json.map((q) => ({ ...q, event: { ...q.event, body: Buffer.from(q.event.body, "base64") } }));
  } catch (e) {
    warn(`the deliveries queued at the last stop could not be read (${(e as Error).message}): they are not delivered`);
    return [];
  } finally {
    rmSync(file, { force: true });
  }
}
