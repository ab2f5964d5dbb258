/**
 * Who hears that a request waits to be tried again. An operation that can say what it waits on
 * (the resource plugin shows it as the resource's status line in `pulumi up`, where a long wait
 * otherwise shows only dots) runs its calls inside `reportingWaits`; each retry's wait is then
 * reported in one sentence naming the request, why it waits and for how long.
 */
import { AsyncLocalStorage } from "node:async_hooks";

/** Hears one sentence per wait. */
export type WaitReport = (message: string) => void;

const reports = new AsyncLocalStorage<WaitReport>();

/** Runs `fn`, reporting every retry wait of the requests it makes to `report`. */
export function reportingWaits<T>(report: WaitReport, fn: () => T): T {
  return reports.run(report, fn);
}

/** The report of the operation this code runs for, if it has one. */
export function currentWaitReport(): WaitReport | undefined {
  return reports.getStore();
}
