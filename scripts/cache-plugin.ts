/**
 * Writes V8's code cache for the plugin's bundle (dist/plugin/bundle.cache; see plugin/boot.ts),
 * as the last step of `npm run build`. The cache holds what V8 compiled, so the bundle runs first:
 * its modules load and the plugin begins to start, as under the engine; the cache is written before
 * the server binds (nothing is printed, no port is taken) and the process exits.
 */
import { writeFileSync } from "node:fs";
import { CACHE, runBundle } from "../plugin/boot";

writeFileSync(CACHE, runBundle().createCachedData());
process.exit(0);
