/**
 * What the side-by-side benchmarks share: the servers they compare (the build named by
 * IRV_BENCH_BASELINE, an older build's dist/server, then this one, in one run) and how a
 * benchmark file runs on its own.
 */
import { startServer, type RunningServer, type ServerOptions } from "../server";

/** Starts a server of one build. */
export type Start = (opts: ServerOptions) => Promise<RunningServer>;

/** The builds to compare, named: IRV_BENCH_BASELINE's first (when set), then this build. */
export function buildsToCompare(): [string, Start][] {
  const builds: [string, Start][] = [];
  const baseline = process.env.IRV_BENCH_BASELINE;
  if (baseline) builds.push(["before (IRV_BENCH_BASELINE)", (require(baseline) as { startServer: Start }).startServer]);
  builds.push(["this build", startServer]);
  return builds;
}

/** The median of some samples. */
export const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Prints the report of `run` when `mod` is the file node was started with. */
export function runWhenMain(mod: NodeModule, run: () => Promise<string>): void {
  if (require.main !== mod) return;
  run().then(console.log, (e) => {
    console.error(e);
    process.exit(1);
  });
}
