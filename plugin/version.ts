import { existsSync, readFileSync } from "node:fs";
import * as path from "node:path";

/** This package's version: from the nearest package.json above (plugin/ in a checkout, dist/plugin/ when built). */
export const VERSION: string = (() => {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    const file = path.join(dir, "package.json");
    if (existsSync(file)) return (JSON.parse(readFileSync(file, "utf8")) as { version: string }).version;
    if (path.dirname(dir) === dir) return "0.0.0";
  }
})();
