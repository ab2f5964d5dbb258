#!/usr/bin/env node
/**
 * The `irv` command's entry (bin in package.json). It loads only what the command it runs needs
 * (cli/index.ts, the library, re-exports everything), and turns on Node's compile cache first
 * (client/compile-cache.ts), so a command's modules are compiled once per user and node version,
 * not at every run.
 */
import { enableModuleCompileCache } from "../client/compile-cache";

enableModuleCompileCache();
// Required after the cache is on, so what it loads is cached.
const { main } = require("./main") as typeof import("./main");

main(process.argv.slice(2)).then(
  (code) => (process.exitCode = code),
  (e) => {
    process.stderr.write(`irv: ${(e as Error)?.message ?? String(e)}\n`);
    process.exitCode = 1;
  },
);
