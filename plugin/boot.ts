/**
 * Runs the plugin's bundle (dist/plugin/bundle.js) with V8's code cache for it
 * (dist/plugin/bundle.cache), which `npm run build` writes (scripts/cache-plugin.ts). The engine
 * starts the plugin afresh for every operation, and compiling the bundle's code is much of its
 * start-up: with the cache, V8 skips that work. V8 refuses a cache made by another version of node,
 * with other flags or for another bundle; the bundle then compiles as it would without one.
 */
import { readFileSync } from "node:fs";
import Module, { createRequire } from "node:module";
import * as path from "node:path";
import { Script } from "node:vm";

/** The bundle and its code cache, side by side in dist/plugin. */
export const BUNDLE = path.join(__dirname, "bundle.js");
export const CACHE = path.join(__dirname, "bundle.cache");

/** The cache, when there is one (a build without it still runs). */
function cacheIfAny(): Buffer | undefined {
  try {
    return readFileSync(CACHE);
  } catch {
    return undefined;
  }
}

/** Compiles the bundle as a CommonJS module's wrapper, with `cache` when V8 accepts it. */
export function compileBundle(cache: Buffer | undefined = cacheIfAny()): Script {
  return new Script(Module.wrap(readFileSync(BUNDLE, "utf8")), { filename: BUNDLE, cachedData: cache });
}

/** Compiles and runs the bundle, as `require` would; returns its script (for scripts/cache-plugin.ts). */
export function runBundle(): Script {
  const script = compileBundle();
  const module = new Module(BUNDLE);
  module.filename = BUNDLE;
  (script.runInThisContext() as (...args: unknown[]) => void).call(module.exports, module.exports, createRequire(BUNDLE), module, BUNDLE, __dirname);
  return script;
}
