#!/usr/bin/env node
/**
 * The `irv` command's library (its program is cli/bin.ts): `irv drift`, `irv review`, `irv export`. A thin layer
 * over the functions it re-exports (`runDrift`, `runReview`, `runExport`), which take an
 * Automation API stack or an API client and are usable from code and tests.
 */

import { accessCommand } from "./commands/access";
import { authCommand } from "./commands/auth";
import { exportCommand } from "./commands/export";
import { drift } from "./commands/drift";
import { review } from "./commands/review";
import type { Command } from "./command";

export { main, describeError, USAGE } from "./main";
/** Every `irv` command, in the order `irv --help` lists them (the program loads only the one it runs: cli/commands/list.ts). */
export const COMMANDS: readonly Command[] = [drift, review, accessCommand, exportCommand, authCommand];
export { EXIT, UsageError, type Command, type Io } from "./command";
export { openStack, type StackSelection } from "./stack";
export * from "./drift";
export * from "./review";
export { runExport, type ExportOptions, type ExportResult } from "./export";
export * as exporting from "./export";

// Run as a program (as `node dist/cli/index.js`), it is the `irv` command.
if (require.main === module) require("./bin");
