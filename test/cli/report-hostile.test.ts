import { describe, expect, it } from "vitest";
import { UNSAFE_CHARS } from "../../api/text";
import { formatReview, runReview } from "../../cli";
import { COMMENT_LIMIT } from "../../cli/format/markdown";
import { runIrv, useAppliedStack } from "../support/cli";
import { ENGINE_TIMEOUT, nodeRequire } from "../support/engine";
import { cells, inline } from "../support/markdown";
import { path as apiPath } from "../support/server";

// `irv drift` and `irv review` markdown, meant for a pull request comment, over text anyone with
// write access to the org (or to the program) chose: a lone CR, `<!--`, `</details>`, backticks,
// `@mentions`, `#123`, `\|`, terminal controls. Through the real engine against irv-server: the
// drift that hides a `claimMatch.subject` change to an attacker's repository must stay visible,
// every hostile value stays inside one code span, and a change too large for a comment is cut
// under GitHub's 65,536 characters, saying what was left out.

const irv = nodeRequire("pulumi-irv") as typeof import("../../dynamic");

const GITHUB = "https://token.actions.githubusercontent.com";
const HIDE = "x\r<!-- @attacker #123 `` ` </details> | \\| \\\\| \u2028<details>\u001b[2K\u202e";
const KEY = "k`\r<!--@attacker|\\";
const ATTACKER = "repo:attacker/evil:ref:refs/heads/main";

/** The raw control, separator and bidi characters in `text`, newlines aside. */
const unsafe = (text: string) => [...text.matchAll(UNSAFE_CHARS)].map((m) => m[0]).filter((c) => c !== "\n");

/** Checks every line of a markdown report: hostile text only inside code spans, tables unbroken. */
function expectContained(md: string): void {
  expect(unsafe(md)).toEqual([]);
  let columns = 0;
  for (const line of md.split("\n")) {
    const { text } = inline(line);
    // Outside code: no HTML, no mention, no issue link (a heading's own `#`s aside).
    expect(text, line).not.toMatch(/<|@attacker|#123/);
    const row = cells(line);
    if (!row) continue;
    if (/^\| ---/.test(line)) columns = row.length;
    else expect(row.length, line).toBe(columns || row.length);
    // No pipe after an even run of backslashes: escaped alike by every GFM renderer.
    expect(line).not.toMatch(/(^|[^\\])(\\\\)+\|/);
  }
}

describe("hostile text in irv drift and irv review markdown", { timeout: ENGINE_TIMEOUT }, () => {
  let many = 0;
  const stack = useAppliedStack("hostile", async (org) => {
    const eng = new irv.iam.Group("eng", { parentUid: org, name: "eng", description: "Everyone who builds" });
    new irv.iam.Identity("ci", { groupUid: eng.uid, name: "ci-0", claimMatch: { issuer: GITHUB, subject: "repo:acme/infra:ref:refs/heads/main" } });
    // A change larger than a comment: groups whose 4,000-character descriptions hold hostile text.
    for (let i = 0; i < many; i++)
      new irv.iam.Group(`team-${i}`, { parentUid: org, name: `team-${i}`, description: `${HIDE} ${i} `.repeat(100).slice(0, 4000) });
  });

  it("keeps every drifted value, name and key in one code span: the subject change stays visible", async () => {
    const state = await stack.t.exportState();
    const uid = (name: string) => (state.deployment.resources as any[]).find((r) => String(r.urn).endsWith(`::${name}`)).outputs.uid as string;
    expect((await stack.srv.api.patch(apiPath("groups", uid("eng")), { description: HIDE }, { updateMask: "description" })).status).toBe(200);
    const claimMatch = { issuer: GITHUB, subject: ATTACKER, claims: { [KEY]: HIDE } };
    expect((await stack.srv.api.patch(apiPath("identities", uid("ci")), { claimMatch }, { updateMask: "claim_match" })).status).toBe(200);

    const md = await runIrv(["drift", "--stack", "hostile", "--cwd", stack.t.workDir, "--format", "markdown"], stack.env);
    expect(md.code, md.stderr).toBe(2);
    expectContained(md.stdout);
    const lines = md.stdout.split("\n");
    // The attacker's subject is a row of its own, after the hostile description, in plain sight.
    const subject = lines.findIndex((l) => l.startsWith("| `claimMatch.subject` |"));
    expect(subject).toBeGreaterThan(lines.findIndex((l) => l.startsWith("| `description` |")));
    expect(cells(lines[subject])).toEqual(["`claimMatch.subject`", "`repo:acme/infra:ref:refs/heads/main`", `\`${ATTACKER}\``]);
    // The hostile key and value read back exactly from their spans (escapes shown, not obeyed).
    const keyRow = lines.find((l) => l.includes("claimMatch.claims"))!;
    expect(inline(cells(keyRow)![0]).spans).toEqual(["claimMatch.claims.k`\\r<!--@attacker|\\\\"]);

    const text = await runIrv(["drift", "--stack", "hostile", "--cwd", stack.t.workDir, "--format", "text"], stack.env);
    expect(text.code).toBe(2);
    expect(unsafe(text.stdout)).toEqual([]);
    expect(text.stdout).toContain(`claimMatch.subject: "repo:acme/infra:ref:refs/heads/main" (recorded) -> "${ATTACKER}" (live)`);
    expect(text.stdout).toContain("claimMatch.claims.k`\\r<!--@attacker|\\: (none) (recorded)");
  });

  it("cuts a review too large for a comment under 65,536 characters, summary first, saying what it left out", async () => {
    many = 60;
    const report = await runReview({ stack: stack.t.stack });
    expect(report.changes.length).toBe(60);
    const md = formatReview(report, "markdown");
    expect(md.length).toBeLessThanOrEqual(COMMENT_LIMIT);
    expectContained(md);
    const lines = md.trimEnd().split("\n");
    expect(lines[0]).toBe("## Pulumi preview for stack `hostile`");
    expect(lines[2]).toMatch(/^\*\*60 to create/);
    const left = Number(
      /Left out to keep this comment under 65,536 characters: (\d+) changes?(?:, \d+ findings?)?\. `irv review --format json` lists everything\._$/.exec(
        lines.at(-1)!,
      )?.[1],
    );
    expect(left).toBeGreaterThan(0);
    // Those shown and those left out are every change.
    expect(lines.filter((l) => l.startsWith("#### ")).length + left).toBe(report.changes.length);
    // Each description is cut to 1,000 characters in its cell, saying how much more there is.
    expect(md).toContain("…(3000 more characters)");
  });
});
