/**
 * Runs the plugin's bundle (dist/plugin/bundle.js) with V8's code cache for it. The engine starts
 * the plugin afresh for every operation, and compiling the bundle's code is much of its start-up:
 * with a cache, V8 skips that work. `npm run build` writes one (dist/plugin/bundle.cache, by
 * scripts/cache-plugin.ts), and V8 takes it only from the node version, flags and bundle it was
 * made with. A user's node is often another version than the build's: then the plugin makes its
 * own, once, in the user's compile cache folder (client/compile-cache.ts), named by the bundle's
 * hash and the node version, and uses it from the next start on.
 */
import { isAscii } from "node:buffer";
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import Module, { createRequire } from "node:module";
import * as path from "node:path";
import { Script } from "node:vm";
import { compileCacheDir } from "../client/compile-cache";

/** The bundle, the build's code cache for it and the bundle's hash, side by side in dist/plugin. */
export const BUNDLE = path.join(__dirname, "bundle.js");
export const CACHE = path.join(__dirname, "bundle.cache");
export const BUNDLE_ID = path.join(__dirname, "bundle.id");

function readIfAny(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/** Where this node keeps its own cache for this bundle; undefined without a hash or a folder. */
export function userCacheFile(): string | undefined {
  const id = readIfAny(BUNDLE_ID)?.toString("utf8").trim();
  if (!id || !/^[0-9a-f]{16,64}$/.test(id)) return undefined;
  const dir = compileCacheDir();
  return dir && path.join(dir, `plugin-${id}-node${process.version}-${process.arch}.cache`);
}

/**
 * The bundle's code. The build writes it in ASCII (scripts/cache-plugin.ts), which reads as
 * Latin-1 to the same text without UTF-8's decoding (about 10 ms of a 4 MB bundle's start); any
 * other bundle reads as UTF-8.
 */
export function bundleCode(): string {
  const bytes = readFileSync(BUNDLE);
  return bytes.toString(isAscii(bytes) ? "latin1" : "utf8");
}

/** Compiles the bundle as a CommonJS module's wrapper, with `cache` when V8 accepts it. */
export function compileBundle(cache: Buffer | undefined = readIfAny(CACHE)): Script {
  return new Script(Module.wrap(bundleCode()), { filename: BUNDLE, cachedData: cache });
}

/** Writes `script`'s compiled code to `file` whole (temp file + rename), readable by the user only. */
function writeCache(script: Script, file: string): void {
  try {
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, script.createCachedData(), { mode: 0o600 });
    renameSync(tmp, file);
  } catch {
    // No cache this time; the next start tries again.
  }
}

/**
 * Compiles and runs the bundle, as `require` would; returns its script (for scripts/cache-plugin.ts,
 * which passes `{ cache: false }`: the build's cache is made from the bundle alone). The user's
 * cache, when there is one for this node and bundle, goes first: it exists because the build's was refused.
 */
export function runBundle({ cache = true }: { cache?: boolean } = {}): Script {
  const userFile = cache ? userCacheFile() : undefined;
  const own = userFile ? readIfAny(userFile) : undefined;
  const script = compileBundle(cache ? (own ?? readIfAny(CACHE)) : undefined);
  const module = new Module(BUNDLE);
  module.filename = BUNDLE;
  (script.runInThisContext() as (...args: unknown[]) => void).call(module.exports, module.exports, createRequire(BUNDLE), module, BUNDLE, __dirname);
  // Refused or missing: this node's own, written now that the start-up's code has compiled (once:
  // a few tens of milliseconds, before the port is printed, so a plugin stopped at once still writes it).
  if (userFile && script.cachedDataRejected !== false) writeCache(script, userFile);
  return script;
}
