/**
 * `npm install` then `npm pack` builds once (issue 39): the build's last step records a hash of
 * what it read (scripts/build-stamp.js), and `prepack` builds only when that hash or an output is
 * not what the stamp says. Checked on a small tree of its own (an edit, a new file, a deleted
 * output each make the build stale), and on this checkout, which `npm run build` stamped.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runNode } from "../support/cli";
import { repoRoot } from "../support/engine";

const SCRIPT = path.join(repoRoot, "scripts", "build-stamp.js");
const tree = mkdtempSync(path.join(tmpdir(), "irv-stamp-"));
afterAll(() => rmSync(tree, { recursive: true, force: true }));
const at = (...p: string[]) => path.join(tree, ...p);
const put = (rel: string, text: string) => {
  mkdirSync(path.dirname(at(rel)), { recursive: true });
  writeFileSync(at(rel), text);
};
const stamp = (command: string) => runNode([SCRIPT, command], { BUILD_STAMP_ROOT: tree });

describe("prepack builds only when the build is stale", () => {
  it("is fresh after a build, stale after an edit, a new source, a deleted output, or with no stamp", async () => {
    put("package.json", "{}");
    put("api/a.ts", "export const a = 1;");
    for (const o of ["dist/cli/index.js", "dist/dynamic/index.js", "dist/plugin/bundle.js", "dist/policy/pack.js", "packages/irv-server/dist/server/index.js"])
      put(o, "built");
    expect((await stamp("fresh")).code).toBe(1);
    expect((await stamp("write")).code).toBe(0);
    const fresh = await stamp("fresh");
    expect(fresh.code).toBe(0);
    expect(fresh.stderr).toContain("not building again");
    put("api/a.ts", "export const a = 2;");
    expect((await stamp("fresh")).code).toBe(1);
    await stamp("write");
    put("cli/new.ts", "export {};");
    expect((await stamp("fresh")).code).toBe(1);
    await stamp("write");
    expect((await stamp("fresh")).code).toBe(0);
    unlinkSync(at("dist/plugin/bundle.js"));
    const missing = await stamp("fresh");
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("missing dist/plugin/bundle.js");
  });

  it("is what both packages' prepack asks, and this checkout's build left it fresh", async () => {
    const scripts = (p: string) => (JSON.parse(readFileSync(path.join(repoRoot, p), "utf8")) as { scripts: Record<string, string> }).scripts;
    expect(scripts("package.json").prepack).toBe("node scripts/build-stamp.js fresh || npm run build");
    expect(scripts("package.json").build).toMatch(/&& node scripts\/build-stamp\.js write$/);
    expect(scripts("packages/irv-server/package.json").prepack).toBe("node ../../scripts/build-stamp.js fresh || npm run --prefix ../.. build");
    const here = await runNode([SCRIPT, "fresh"]);
    expect(here.stderr).toContain("not building again");
    expect(here.code).toBe(0);
  });
});
