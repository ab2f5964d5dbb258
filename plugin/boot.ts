/**
 * Runs the plugin's bundle (dist/plugin/bundle.js) with V8's code cache for it. The engine starts
 * the plugin afresh for every operation, and compiling the bundle's code is much of its start-up:
 * with a cache, V8 skips that work. `npm run build` writes one (dist/plugin/bundle.cache, by
 * scripts/cache-plugin.ts), and V8 takes it only from the node version, flags and bundle it was
 * made with. A user's node is often another version than the build's: then the plugin makes its
 * own, once, in the user's compile cache folder (client/compile-cache.ts), named by the bundle's
 * hash and the node version, and uses it from the next start on.
 *
 * A cache made at start holds only the code the start ran; what the calls run (a create's
 * request, its answer's encoding) V8 compiles at every start, on first use. So the user's cache is
 * written again as the plugin exits (the engine stops it with SIGINT) whenever that run served a
 * call the cache had not seen (plugin/served.ts: by method and resource type): after a user's
 * first few operations it holds their calls' code too, and is left alone from then on.
 */
import { isAscii } from "node:buffer";
import { lstatSync, readdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import Module, { createRequire } from "node:module";
import * as path from "node:path";
import { Script } from "node:vm";
import { compileCacheDir } from "../client/compile-cache";
import { isObject, isStrings } from "../api/guards";

/** The bundle, the build's code cache for it and the bundle's hash, side by side in dist/plugin. */
export const BUNDLE = path.join(__dirname, "bundle.js");
export const CACHE = path.join(__dirname, "bundle.cache");
export const BUNDLE_ID = path.join(__dirname, "bundle.id");

/** A cache file: a line of JSON naming the calls its code has served, then V8's cached data. */
export interface CacheFile {
  served: ReadonlySet<string>;
  data: Buffer;
}

/** The longest header read: every method for every type is a few kilobytes. */
const HEADER_MAX = 64 * 1024;

/** `bytes` as a cache file; undefined for anything else (V8 then compiles, as without one). */
export function parseCacheFile(bytes: Buffer): CacheFile | undefined {
  const end = bytes.subarray(0, HEADER_MAX).indexOf(0x0a);
  if (end < 0) return undefined;
  try {
    const header: unknown = JSON.parse(bytes.subarray(0, end).toString("utf8"));
    const served = isObject(header) ? header.served : undefined;
    return isStrings(served) ? { served: new Set(served), data: bytes.subarray(end + 1) } : undefined;
  } catch {
    return undefined;
  }
}

/** `script`'s compiled code, as a cache file for `served`. */
export function cacheFileOf(script: Script, served: Iterable<string>): Buffer {
  return Buffer.concat([Buffer.from(`${JSON.stringify({ served: [...served].sort() })}\n`), script.createCachedData()]);
}

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
export function compileBundle(cache: Buffer | undefined = readCacheFile(CACHE)?.data): Script {
  return new Script(Module.wrap(bundleCode()), { filename: BUNDLE, cachedData: cache });
}

/** Writes `script`'s compiled code to `file` whole (temp file + rename), readable by the user only. */
function writeCache(script: Script, file: string, served: Iterable<string>): void {
  try {
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, cacheFileOf(script, served), { mode: 0o600 });
    renameSync(tmp, file);
    removeStale(path.dirname(file), file);
  } catch {
    // No cache this time; the next start tries again.
  }
}

/** How long a cache file may go unwritten before a write of another removes it. */
export const STALE_DAYS = 30;

/**
 * Removes the plugin's cache files (and temp files a killed write left) in `dir` that have not
 * been written for STALE_DAYS, but `kept`: every version of pulumi-irv and of node has its own
 * file, of 2 MB or so, and an upgrade leaves the old one behind. One still in use but not written
 * for that long is made again at its next start.
 */
function removeStale(dir: string, kept: string): void {
  const before = Date.now() - STALE_DAYS * 24 * 3600 * 1000;
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    if (file === kept || !/^plugin-[0-9a-f]+-node[^/]*\.cache(\.\d+\.tmp)?$/.test(name)) continue;
    try {
      const st = lstatSync(file);
      if (st.isFile() && st.mtimeMs < before) unlinkSync(file);
    } catch {
      // Gone already, or not ours to remove.
    }
  }
}

/**
 * Compiles and runs the bundle, as `require` would; returns its script (for scripts/cache-plugin.ts,
 * which passes `{ cache: false }`: the build's cache is made from the bundle alone). The user's
 * cache, when there is one for this node and bundle, goes first: it exists because the build's was refused.
 */
export function runBundle({ cache = true }: { cache?: boolean } = {}): Script {
  const userFile = cache ? userCacheFile() : undefined;
  const own = userFile ? readCacheFile(userFile) : undefined;
  const taken = cache ? (own ?? readCacheFile(CACHE)) : undefined;
  const script = compileBundle(taken?.data);
  const module = new Module(BUNDLE);
  module.filename = BUNDLE;
  (script.runInThisContext() as (...args: unknown[]) => void).call(module.exports, module.exports, createRequire(BUNDLE), module, BUNDLE, __dirname);
  if (!userFile) return script;
  const accepted = script.cachedDataRejected === false;
  // Refused or missing: this node's own, written now that the start-up's code has compiled (once:
  // a few tens of milliseconds, before the port is printed, so a plugin stopped at once still writes it).
  if (!accepted) writeCache(script, userFile, []);
  rewriteOnExit(script, userFile, accepted && taken ? taken.served : new Set(), module.exports);
  return script;
}

/** The cache file at `file`; undefined when there is none or it is not one. */
function readCacheFile(file: string): CacheFile | undefined {
  const bytes = readIfAny(file);
  return bytes && parseCacheFile(bytes);
}

/**
 * As the process exits, writes `file` again when the bundle's run served a call that `had` (the
 * calls the code it started from had served) lacks. The engine stops a plugin with SIGINT and
 * waits for it: the plugin then exits as asked, so that the write runs.
 */
function rewriteOnExit(script: Script, file: string, had: ReadonlySet<string>, bundle: { served?: unknown }): void {
  const served = bundle.served;
  if (typeof served !== "function") return;
  process.on("exit", () => {
    const now: unknown = served();
    if (!isStrings(now) || now.every((k) => had.has(k))) return;
    writeCache(script, file, new Set([...had, ...now]));
  });
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => process.exit(0));
}
