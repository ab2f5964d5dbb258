/**
 * The policy pack (`policy/`) through the real engine: `pulumi preview --policy-pack`, which
 * starts the pack through the node language host that scripts/ensure-pulumi builds. A YAML program
 * on the resource plugin and a TypeScript program on the dynamic classes, each once breaking every
 * rule and once as the compliant twin; then the example org, which passes.
 */
import { rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RULES } from "../../policy/rules";
import { ENGINE_TIMEOUT, createStack, loadExample, loadSdk } from "../support/engine";
import { EXPECTED, PACK, sorted, tsProgram, yamlPolicyProject } from "../support/policy-programs";
import { path as apiPath, useServer } from "../support/server";

/** The findings `pulumi preview` prints under "Policies:": `[mandatory]  <rule>  (<type>: <name>)`. */
function printedFindings(out: string): [string, string][] {
  return [...out.matchAll(/- \[(?:mandatory|advisory)\] +(\S+) +\(([^)\n]*)\)/g)].map((m) => [m[1], m[2].slice(m[2].lastIndexOf(": ") + 2)]);
}

describe("the policy pack through the engine", { timeout: ENGINE_TIMEOUT }, () => {
  const ctx = useServer();
  // The pack looks up the roles a program names by uid (the built-in owner) through the API, with
  // the settings of the engine's environment.
  let apiEnv: Record<string, string>;
  beforeAll(() => {
    apiEnv = { IRV_API_URL: ctx.server.url, IRV_TOKEN: ctx.server.token };
  });

  it("covers every rule in both programs", () => {
    expect(new Set(EXPECTED.map(([r]) => r))).toEqual(new Set(RULES.map((r) => r.id)));
  });

  describe("a YAML program on the resource plugin", () => {
    let p: Awaited<ReturnType<typeof yamlPolicyProject>>;
    beforeAll(async () => {
      p = await yamlPolicyProject(ctx.server.organization, apiEnv);
    });
    afterAll(() => rmSync(p.base, { recursive: true, force: true }));
    const pulumiCli = (...args: string[]) => p.cli(...args);
    const write = (bad: boolean) => p.write(bad);

    it("fails the preview with each rule's finding on the resource that breaks it", async () => {
      write(true);
      const failure = await pulumiCli("preview", "--policy-pack", PACK).then(
        (out) => `the preview passed:\n${out}`,
        (e: Error) => e.message,
      );
      expect(failure).toContain("irv-iam-guardrails@v0.1.0");
      expect(sorted(printedFindings(failure))).toEqual(sorted(EXPECTED));
      // The reason and the fix hint are printed beside each finding.
      expect(failure).toContain("Fix: Set `singleUse: true`.");
      expect(failure).toContain("binds a workload identity to the built-in role owner at the organization's root");
    });

    it("passes the compliant twin with no finding", async () => {
      write(false);
      const out = await pulumiCli("preview", "--policy-pack", PACK);
      expect(printedFindings(out)).toEqual([]);
    });

    it("takes a --policy-pack-config file: a rule disabled, another made advisory", async () => {
      write(true);
      const config = path.join(p.base, "policy-config.json");
      writeFileSync(config, JSON.stringify({ all: "advisory", "irv-invite-lifetime": "disabled" }));
      const out = await pulumiCli("preview", "--policy-pack", PACK, "--policy-pack-config", config);
      const found = printedFindings(out);
      expect(found.map(([r]) => r)).not.toContain("irv-invite-lifetime");
      expect(found.length).toBe(EXPECTED.length - 1);
      expect(out).not.toContain("[mandatory]");
    });
  });

  describe("a TypeScript program on the dynamic classes", () => {
    /** The findings of a preview with the pack, from the engine's policy events, and whether it failed. */
    const preview = async (bad: boolean) => {
      const t = await createStack({ stackName: bad ? "bad" : "good", program: tsProgram(ctx.server.organization, bad), server: ctx.server, env: apiEnv });
      const events: EngineEvent[] = [];
      try {
        const failed = await t.stack.preview({ policyPacks: [PACK], onEvent: (e) => events.push(e) }).then(
          () => false,
          () => true,
        );
        const found = events.flatMap((e) => (e.policyEvent ? [e.policyEvent] : []));
        const names = found.map((p): [string, string] => [p.policyName, String(p.resourceUrn).slice(String(p.resourceUrn).lastIndexOf("::") + 2)]);
        return { failed, names, found };
      } finally {
        await t.dispose();
      }
    };

    it("fails the preview with each rule's finding on the resource that breaks it", async () => {
      const { failed, names, found } = await preview(true);
      expect(failed).toBe(true);
      expect(sorted(names)).toEqual(sorted(EXPECTED));
      expect(found.find((p) => p.policyName === "irv-missing-description")?.enforcementLevel).toBe("advisory");
      expect(found.find((p) => p.policyName === "irv-invite-single-use")?.enforcementLevel).toBe("mandatory");
    });

    it("passes the compliant twin with no finding", async () => {
      const { failed, names } = await preview(false);
      expect(names).toEqual([]);
      expect(failed).toBe(false);
    });
  });

  describe("with nothing but the stack's config: no IRV_* in the engine's environment (issue 39)", () => {
    it("blocks the built-in owner bound to a workload identity at the root, and reports a role it cannot look up instead of passing it", async () => {
      const org = ctx.server.organization;
      const team = (await ctx.api.post(apiPath("groups", org), { name: "granters" })).body.uid as string;
      const granter = (await ctx.api.post(apiPath("roles", team), { name: "granter", capabilities: ["CAP_IAM_ROLE_BINDINGS_CREATE"] })).body.uid as string;
      const irv = loadSdk();
      const t = await createStack({
        stackName: "no-env",
        server: ctx.server,
        // The pack sees none of the settings: the program's calls get them from the stack's config.
        env: { IRV_API_URL: "", IRV_TOKEN: "", IRV_IDENTITY: "", IRV_IDENTITY_TOKEN: "", IRV_CONFIG_DIR: path.join(tmpdir(), "irv-policy-no-login") },
        program: async () => {
          const eng = new irv.iam.Group("eng", { parentUid: org, name: "eng-no-env", description: "Engineering" });
          const ci = new irv.iam.Identity("ci", {
            groupUid: eng.uid,
            name: "ci-no-env",
            description: "CI",
            claimMatch: { issuer: "https://token.actions.githubusercontent.com", subject: "repo:acme/infra:ref:refs/heads/main" },
          });
          new irv.iam.RoleBinding("ci-owner", { groupUid: org, identityUid: ci.uid, roleUid: irv.iam.getRoleOutput({ name: "owner" }).uid });
          new irv.iam.RoleBinding("ci-granter", { groupUid: org, identityUid: ci.uid, roleUid: granter });
        },
      });
      try {
        const events: EngineEvent[] = [];
        const failed = await t.stack.preview({ policyPacks: [PACK], onEvent: (e) => events.push(e) }).then(
          () => false,
          () => true,
        );
        const found = events.flatMap((e) => (e.policyEvent && e.policyEvent.policyName === "irv-workload-identity-admin-at-root" ? [e.policyEvent] : []));
        const byResource = Object.fromEntries(found.map((p) => [String(p.resourceUrn).split("::").pop(), [p.enforcementLevel, p.message]]));
        expect(byResource["ci-owner"]).toEqual([
          "mandatory",
          expect.stringContaining("binds a workload identity to the built-in role owner at the organization's root"),
        ]);
        expect(byResource["ci-granter"]).toEqual([
          "mandatory",
          expect.stringContaining(`to role ${granter}, which could not be looked up to judge it: IRV_API_URL is not set`),
        ]);
        expect(failed).toBe(true);
      } finally {
        await t.dispose();
      }
    });
  });

  it("passes the example org (examples/org) with no finding", async () => {
    const { program } = loadExample<typeof import("../../examples/org")>("org");
    const t = await createStack({ stackName: "org", program: () => program({ organization: ctx.server.organization }), server: ctx.server, env: apiEnv });
    try {
      const events: EngineEvent[] = [];
      await t.stack.preview({ policyPacks: [PACK], onEvent: (e) => events.push(e) });
      expect(events.flatMap((e) => (e.policyEvent ? [e.policyEvent.policyName] : []))).toEqual([]);
    } finally {
      await t.dispose();
    }
  });
});
