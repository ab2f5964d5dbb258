#!/usr/bin/env node
// The dynamic provider host loads the serialized shim with a require() rooted at the program's
// working directory, and the shim requires "pulumi-irv/provider" by name. In this repository the
// package is not under node_modules, so link it there. A no-op when installed as a dependency.
const fs = require("node:fs");
const path = require("node:path");

const root = path.resolve(__dirname, "..");
if (root.split(path.sep).includes("node_modules")) process.exit(0);
const link = path.join(root, "node_modules", "pulumi-irv");
try {
  if (fs.readlinkSync(link) === "..") process.exit(0);
} catch {
  /* absent or not a link */
}
fs.rmSync(link, { recursive: true, force: true });
fs.mkdirSync(path.dirname(link), { recursive: true });
fs.symlinkSync("..", link, "dir");
