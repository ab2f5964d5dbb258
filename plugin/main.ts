/**
 * `pulumi-resource-irv`: the entry point the engine starts. It serves the provider over gRPC and
 * prints the port on stdout, the one line the engine reads; everything else goes to stderr.
 */
import { engineAddressOf } from "./status";
import { serve } from "./server";
import { ReadBatch } from "../provider/resources/reads";

// What this run has served, for plugin/boot.ts, which runs this module's bundle and keeps its exports.
export { servedSoFar as served } from "./served";

// The engine starts the plugin afresh for every operation: its reads may be batched, from now on.
const reads = new ReadBatch();

// The engine stops the plugin when it is done with it, but a command can exit without doing so
// (`pulumi package get-mapping`): a plugin whose parent is gone exits rather than live on.
const parent = process.ppid;
setInterval(() => process.ppid !== parent && process.exit(0), 1000).unref();

serve(engineAddressOf(process.argv.slice(2)), { reads }).then(
  ({ port, server, calls }) => {
    // A crash answers every call in flight (the engine would wait on them) and exits non-zero,
    // once those answers are out (or after a few seconds, whatever holds them).
    const crash = (e: unknown) => {
      process.stderr.write(`pulumi-resource-irv: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
      process.exitCode = 1;
      calls.crashed(e);
      setTimeout(() => process.exit(1), 5000);
      server.tryShutdown(() => process.exit(1));
    };
    process.on("uncaughtException", crash);
    process.on("unhandledRejection", crash);
    process.stdout.write(`${port}\n`);
  },
  (e: unknown) => {
    process.stderr.write(`pulumi-resource-irv: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  },
);
