/**
 * Writes V8's code cache for the plugin's bundle (dist/plugin/bundle.cache; see plugin/boot.ts)
 * and the bundle's hash (dist/plugin/bundle.id, which names a user's own cache), as the last step
 * of `npm run build`. The cache holds what V8 compiled, so the bundle runs first: its modules load
 * and the plugin begins to start, as under the engine; the cache is written before the server
 * binds (nothing is printed, no port is taken) and the process exits. It has served no call: a
 * user's own cache, made from it, adds the calls' code as they run (plugin/boot.ts). First, the bundle's few
 * characters past ASCII (in comments, and a regular expression of grpc-js's) are written as
 * `\u` escapes, which mean the same there: an ASCII bundle reads without UTF-8's decoding.
 */
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { BUNDLE, BUNDLE_ID, CACHE, cacheFileOf, runBundle } from "../plugin/boot";

/** `code` with every character past ASCII as its UTF-16 `\u` escapes (esbuild leaves some in comments and regular expressions). */
function asciiOnly(code: string): string {
  return code.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

writeFileSync(BUNDLE, asciiOnly(readFileSync(BUNDLE, "utf8")));
writeFileSync(BUNDLE_ID, `${createHash("sha256").update(readFileSync(BUNDLE)).digest("hex").slice(0, 32)}\n`);
// Without a cache: an old one (a previous build's) must not be what this one is made from.
writeFileSync(CACHE, cacheFileOf(runBundle({ cache: false }), []));
process.exit(0);
