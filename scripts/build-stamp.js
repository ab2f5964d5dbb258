#!/usr/bin/env node
// Whether the build (dist/, the plugin's bundle, irv-server's dist/) is fresh, so `npm pack` after
// `npm install` (which builds) does not build again. `node scripts/build-stamp.js write`, the
// build's last step, records a hash of everything the build reads: the sources, the lock file and
// the compiler settings. `node scripts/build-stamp.js fresh` exits 0 only when that hash is the
// same now and every output is there; anything else (an edited source, a new dependency, a deleted
// output, no stamp) exits 1, and the caller builds: a stale build is never packed.
// Plain JavaScript: it must run before anything is compiled. BUILD_STAMP_ROOT names another root (tests).
"use strict";
const { createHash } = require("node:crypto");
const { existsSync, readdirSync, readFileSync, statSync, writeFileSync } = require("node:fs");
const path = require("node:path");

const root = path.resolve(process.env.BUILD_STAMP_ROOT || path.join(__dirname, ".."));
const STAMP = path.join(root, "dist", ".build-stamp");
/** What the build reads: the compiled folders and the files that steer the compilers and the bundle. */
const INPUT_DIRS = ["api", "client", "server", "provider", "plugin", "dynamic", "policy", "cli", "bench", "harness", "examples", "scripts", "sdk/nodejs"];
const INPUT_FILES = ["package.json", "package-lock.json", "tsconfig.json", "tsconfig.plugin-sdk.json", "packages/irv-server/package.json", "packages/irv-server/tsconfig.json"];
/** What the build writes that packing needs. */
const OUTPUTS = ["dist/cli/index.js", "dist/dynamic/index.js", "dist/plugin/bundle.js", "dist/policy/pack.js", "packages/irv-server/dist/server/index.js"];

function files(dir) {
  const out = [];
  if (!existsSync(dir)) return out;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === "node_modules" || entry.name === "dist") continue;
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...files(p));
    else if (entry.isFile()) out.push(p);
  }
  return out;
}

/** The hash of every input, by path and content. */
function inputsHash() {
  const all = [...INPUT_DIRS.flatMap((d) => files(path.join(root, d))), ...INPUT_FILES.map((f) => path.join(root, f)).filter((f) => existsSync(f))].sort();
  const h = createHash("sha256");
  for (const f of all) h.update(path.relative(root, f)).update("\0").update(readFileSync(f)).update("\0");
  return h.digest("hex");
}

const command = process.argv[2];
if (command === "write") {
  writeFileSync(STAMP, `${inputsHash()}\n`);
} else if (command === "fresh") {
  const missing = OUTPUTS.filter((o) => !existsSync(path.join(root, o)) || statSync(path.join(root, o)).size === 0);
  const recorded = existsSync(STAMP) ? readFileSync(STAMP, "utf8").trim() : "";
  const fresh = missing.length === 0 && recorded !== "" && recorded === inputsHash();
  process.stderr.write(fresh ? "build-stamp: dist is up to date with the sources: not building again\n" : `build-stamp: building (${missing.length ? `missing ${missing.join(", ")}` : recorded ? "the sources changed since the last build" : "no build recorded"})\n`);
  process.exitCode = fresh ? 0 : 1;
} else {
  process.stderr.write("usage: node scripts/build-stamp.js write|fresh\n");
  process.exitCode = 2;
}
