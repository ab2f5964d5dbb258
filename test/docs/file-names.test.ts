/**
 * CONTRIBUTING.md's rule for file names holds: a source file's name is kebab-case, unless it is
 * named after an API name, which keeps its case (a kind's collection `roleBindings` or SDK class
 * `roleBinding`, a function `getRole`), as the SDKs Pulumi generates name theirs.
 */
import { readdirSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { FUNCTIONS } from "../../api/functions";
import { KINDS } from "../../api/kinds";
import { repoRoot } from "../support/engine";

const FOLDERS = ["api", "bench", "bin", "cli", "client", "dynamic", "harness", "plugin", "policy", "provider", "scripts", "server", "test"];
const API_NAMES = new Set<string>([...KINDS.flatMap((d) => [d.kind, d.className[0].toLowerCase() + d.className.slice(1)]), ...FUNCTIONS.map((f) => f.name)]);

/** Every source file under `dir`, relative to the repository. */
function sources(dir: string): string[] {
  return readdirSync(path.join(repoRoot, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === "node_modules" || e.name === "fixtures" ? [] : sources(rel);
    return /\.(c|m)?[jt]s$/.test(e.name) ? [rel] : [];
  });
}

describe("file names", () => {
  it("are kebab-case, or an API name", () => {
    const files = FOLDERS.flatMap(sources);
    expect(files.length).toBeGreaterThan(500);
    const stem = (f: string) => path.basename(f).replace(/(\.test|\.d)?\.(c|m)?[jt]s$/, "");
    expect(files.filter((f) => !/^[a-z0-9]+(-[a-z0-9]+)*(\.property)?$/.test(stem(f)) && !API_NAMES.has(stem(f)))).toEqual([]);
  });
});
