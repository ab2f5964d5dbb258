#!/usr/bin/env node
/**
 * The `irv` command (bin in package.json): `irv drift`, `irv review`, `irv export`. A thin layer
 * over the functions it re-exports (`runDrift`, `runReview`, `runExport`), which take an
 * Automation API stack or an API client and are usable from code and tests.
 */
import { main } from "./main";

export { main, describeError, COMMANDS, USAGE } from "./main";
export { EXIT, UsageError, type Command, type Io } from "./command";
export { openStack, type StackSelection } from "./stack";
export * from "./drift";
export * from "./review";
export { runExport, type ExportOptions, type ExportResult } from "./export";
export * as exporting from "./export";

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => (process.exitCode = code),
    (e) => {
      process.stderr.write(`irv: ${(e as Error)?.message ?? String(e)}\n`);
      process.exitCode = 1;
    },
  );
}
