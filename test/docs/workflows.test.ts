/**
 * Every GitHub Actions workflow the docs print passes actionlint (rhysd/actionlint, built from
 * the Go module proxy with the other test tools), as written (issue 39: the drift recipe used the
 * `runner` context where GitHub refuses it), on Node 22 or 24, with actions on their Node 24 majors.
 */
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { repoRoot } from "../support/engine";
import { goTool } from "../support/tools";

const run = promisify(execFile);
const pages = [
  "README.md",
  ...readdirSync(path.join(repoRoot, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => path.join("docs", f)),
];
/** Every ```yaml block that is a whole workflow (it has `jobs:`), with where it is. */
const workflows = pages.flatMap((page) =>
  [...readFileSync(path.join(repoRoot, page), "utf8").matchAll(/```yaml\n([\s\S]*?)```/g)]
    .filter((m) => /^jobs:$/m.test(m[1]))
    .map((m, i) => ({ page, i, text: m[1] })),
);
const work = mkdtempSync(path.join(tmpdir(), "irv-workflows-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("the workflows the docs print", { timeout: 900_000 }, () => {
  it("include the scheduled drift job", () => {
    expect(workflows.map((w) => w.page)).toContain(path.join("docs", "drift-in-ci.md"));
  });

  for (const w of workflows)
    it(`pass actionlint: ${w.page} #${w.i + 1}`, async () => {
      const dir = path.join(work, `${path.basename(w.page, ".md")}-${w.i}`, ".github", "workflows");
      mkdirSync(dir, { recursive: true });
      const file = path.join(dir, "workflow.yml");
      writeFileSync(file, w.text);
      const r = await run(goTool("actionlint"), ["-no-color", file], { cwd: path.dirname(path.dirname(dir)) }).then(
        (ok) => ({ code: 0, out: ok.stdout + ok.stderr }),
        (e: { code?: number; stdout?: string; stderr?: string }) => ({ code: e.code ?? 1, out: `${e.stdout ?? ""}${e.stderr ?? ""}` }),
      );
      expect(r.out).toBe("");
      expect(r.code).toBe(0);
      // Node 20 reached its end of life in April 2026; actions on their Node 24 majors.
      for (const m of w.text.matchAll(/node-version: (\S+)/g)) expect(["22", "24"]).toContain(m[1]);
      for (const [, action, major] of w.text.matchAll(/uses: (actions\/checkout|actions\/setup-node|pulumi\/actions)@v(\d+)/g))
        expect(Number(major), action).toBeGreaterThanOrEqual(action === "pulumi/actions" ? 7 : 6);
    });

  it("catches what GitHub refuses: the runner context at job level", async () => {
    const dir = path.join(work, "bad", ".github", "workflows");
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, "bad.yml");
    writeFileSync(file, "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    env:\n      T: ${{ runner.temp }}/t\n    steps:\n      - run: echo $T\n");
    const r = await run(goTool("actionlint"), ["-no-color", file]).then(
      () => "passed",
      (e: { stdout?: string }) => e.stdout ?? "",
    );
    expect(r).toContain('context "runner" is not allowed here');
  });
});
