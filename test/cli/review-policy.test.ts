/**
 * `irv review` with the IAM guardrails, through the real engine against a live irv-server: the
 * program that breaks every rule gets each finding beside the change it concerns (markdown, text,
 * JSON) and exit 3; the compliant twin exits 0; `--no-policy` and `--policy-config` do what they
 * say. The compiled `irv` on a YAML folder project, and `runReview` on a TypeScript program.
 */
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatReview, runReview, type ReviewReport } from "../../cli";
import { ENGINE_TIMEOUT, createStack, nodeRequire } from "../support/engine";
import { ACCESS_EXPECTED, EXPECTED, PATTERN_EXPECTED, sorted, tsProgram, yamlPolicyProject } from "../support/policy-programs";
import { runIrv } from "../support/cli";
import { useServer } from "../support/server";

const irv = nodeRequire("pulumi-irv") as typeof import("../../dynamic");

/** The (rule, resource name) pairs of a report's findings. */
const pairs = (r: ReviewReport): [string, string][] => (r.policy?.findings ?? []).map((f) => [f.rule, f.name]);

describe("irv review --policy", { timeout: ENGINE_TIMEOUT }, () => {
  const ctx = useServer();

  describe("the compiled irv on a YAML project", () => {
    let p: Awaited<ReturnType<typeof yamlPolicyProject>>;
    // The settings are the stack's config only (no IRV_* variables): review hands them to the pack.
    const review = (...args: string[]) =>
      runIrv(["review", "--stack", "dev", "--cwd", p.dir, ...args], { ...(p.env as Record<string, string>), IRV_API_URL: "", IRV_TOKEN: "" });
    beforeAll(async () => {
      p = await yamlPolicyProject(ctx.server.organization, { IRV_API_URL: "", IRV_TOKEN: "" }, { "irv:apiUrl": ctx.server.url, "irv:token": ctx.server.token });
    });
    afterAll(() => rmSync(p.base, { recursive: true, force: true }));

    it("lists every finding beside its change and exits 3 on a mandatory one", async () => {
      p.write(true);
      const run = await review("--format", "json");
      expect(run.stderr).toBe("");
      expect(run.code).toBe(3);
      const report = JSON.parse(run.stdout) as ReviewReport;
      expect(sorted(pairs(report))).toEqual(sorted([...EXPECTED, ...ACCESS_EXPECTED, ...PATTERN_EXPECTED]));
      expect(report.policy).toMatchObject({ mandatory: EXPECTED.length - 1 + PATTERN_EXPECTED.length, advisory: 2 });
      const invite = report.changes.find((c) => c.name === "invite")!;
      expect(invite.action).toBe("create");
      expect(invite.findings.map((f) => f.rule).sort()).toEqual(["irv-invite-lifetime", "irv-invite-owner-role", "irv-invite-single-use"]);
      expect(invite.findings.find((f) => f.rule === "irv-invite-single-use")).toMatchObject({
        enforcementLevel: "mandatory",
        kind: "iam.GroupInvite",
        message: "is not single-use",
        fix: "Set `singleUse: true`.",
      });

      const markdown = await review();
      expect(markdown.code).toBe(3);
      expect(markdown.stdout).toContain(
        `**Policy: ${EXPECTED.length - 1 + PATTERN_EXPECTED.length} mandatory, 2 advisory findings (IAM guardrails)**: a mandatory finding blocks this change.`,
      );
      expect(markdown.stdout).toContain("> **Policy** **mandatory** `irv-invite-single-use`: is not single-use. _Fix_: Set `singleUse: true`.");
      // The finding sits in its change's entry: after the invite's heading, before the next one.
      const inviteEntry = markdown.stdout.slice(markdown.stdout.indexOf("#### `invite`"));
      expect(inviteEntry.slice(0, inviteEntry.indexOf("####", 5))).toContain("irv-invite-owner-role");

      const text = await review("--format", "text");
      expect(text.code).toBe(3);
      expect(text.stdout).toContain(
        `  ! [advisory] irv-missing-description: iam.Identity "local" has no description. Fix: Add a \`description\` that says who or what uses it.`,
      );
    });

    it("still fails on an error that is not the policy's, with exit 1, findings or not", async () => {
      p.write(true);
      const file = path.join(p.dir, "Pulumi.yaml");
      writeFileSync(file, `${readFileSync(file, "utf8")}  broken:\n    type: irv:iam:Group\n    properties: { parentUid: "\${org}", name: "" }\n`);
      const run = await review("--format", "json");
      expect(run.code).toBe(1);
      expect(run.stderr).toContain("irv:iam:Group resource 'broken': property name");
    });

    it("exits 0 on the compliant twin, whose only finding is the advisory on a workload gaining IAM writes", async () => {
      p.write(false);
      const run = await review("--format", "text");
      expect(run.stderr).toBe("");
      expect(run.code).toBe(0);
      expect(run.stdout).toContain("Policy: 0 mandatory, 1 advisory finding (IAM guardrails)");
      expect(run.stdout.split("\n").filter((l) => l.includes(" ! "))).toEqual([
        expect.stringMatching(
          /^ {2}! \[advisory\] irv-workload-iam-write: ci-jobs gains .* on eng and its 1 group below, through the binding ci-owner of role owner\. Fix: /,
        ),
      ]);
    });

    it("--no-policy leaves the rules out; --policy-config sets their levels", async () => {
      p.write(true);
      const off = await review("--format", "json", "--no-policy");
      expect(off.code).toBe(0);
      const report = JSON.parse(off.stdout) as ReviewReport;
      expect(report.policy).toBeUndefined();
      expect(report.changes.every((c) => c.findings.length === 0)).toBe(true);

      const file = path.join(p.base, "advisory.json");
      writeFileSync(file, JSON.stringify({ all: "advisory", "irv-missing-description": "disabled" }));
      const relaxed = await review("--format", "json", "--policy-config", file);
      expect(relaxed.code).toBe(0);
      const r = JSON.parse(relaxed.stdout) as ReviewReport;
      expect(r.policy).toMatchObject({ mandatory: 0, advisory: EXPECTED.length - 1 + ACCESS_EXPECTED.length + PATTERN_EXPECTED.length });

      const bad = path.join(p.base, "bad.json");
      writeFileSync(bad, JSON.stringify({ "irv-no-such-rule": "advisory" }));
      const refused = await review("--policy-config", bad);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('unknown rule "irv-no-such-rule"');
      const both = await review("--no-policy", "--policy-config", file);
      expect(both.code).toBe(1);
      expect(both.stderr).toContain("--no-policy cannot go with --policy or --policy-config");
    });
  });

  describe("runReview on a TypeScript program (dynamic classes)", () => {
    it("puts a finding beside an update, and one on a resource left as it is in a section of its own", async () => {
      let edited = false;
      const org = ctx.server.organization;
      const t = await createStack({
        stackName: "edit",
        server: ctx.server,
        program: async () => {
          const eng = new irv.iam.Group("eng", { parentUid: org, name: "eng", description: "Engineering" });
          // Named like a built-in role: applied before the guardrails were on, and left as it is.
          new irv.iam.Role("editor", { groupUid: eng.uid, name: "editor", description: "Edits", capabilities: ["repo.list"] });
          new irv.iam.Identity("ci", { groupUid: eng.uid, name: "ci-0", description: edited ? "" : "CI", servicePrincipal: "SERVICE_PRINCIPAL_INGESTER" });
        },
      });
      try {
        await t.stack.up();
        edited = true;
        const report = await runReview({ stack: t.stack });
        expect(report.changes.map((c) => [c.name, c.action])).toEqual([["ci", "update"]]);
        expect(report.changes[0].findings.map((f) => [f.rule, f.enforcementLevel])).toEqual([["irv-missing-description", "advisory"]]);
        expect(pairs(report).sort()).toEqual([
          ["irv-missing-description", "ci"],
          ["irv-role-builtin-name", "editor"],
        ]);
        expect(report.policy).toMatchObject({ mandatory: 1, advisory: 1 });
        const markdown = formatReview(report, "markdown");
        expect(markdown).toContain(
          '### Policy findings on unchanged resources (1)\n\n- `editor` (iam.Role): **mandatory** `irv-role-builtin-name`: is named "editor", like a built-in role.',
        );
        expect(formatReview(report, "text")).toContain("Policy findings on unchanged resources:\n  ! editor (iam.Role): [mandatory] irv-role-builtin-name");
      } finally {
        await t.stack.destroy();
        await t.dispose();
      }
    });

    it("finds what the pack finds, and only that, on the compliant twin nothing", async () => {
      for (const bad of [true, false]) {
        const t = await createStack({ stackName: bad ? "bad" : "good", program: tsProgram(ctx.server.organization, bad), server: ctx.server });
        try {
          const report = await runReview({ stack: t.stack });
          expect(sorted(pairs(report))).toEqual(sorted(bad ? [...EXPECTED, ...ACCESS_EXPECTED, ...PATTERN_EXPECTED] : ACCESS_EXPECTED));
          if (bad) {
            const ciOwner = report.changes.find((c) => c.name === "ci-owner")!;
            expect(ciOwner.findings.map((f) => f.rule).sort()).toEqual([
              "irv-binding-above-identity-group",
              "irv-pattern-identity-admin",
              "irv-workload-iam-write",
              "irv-workload-identity-admin-at-root",
            ]);
            expect(ciOwner.findings[0].kind).toBe("iam.RoleBinding");
            expect(formatReview(report, "markdown")).toContain("binds a workload identity to the built-in role owner at the organization's root");
          }
        } finally {
          await t.dispose();
        }
      }
    });
  });
});
