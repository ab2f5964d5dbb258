/**
 * The policy pack's folder as Pulumi loads it and npm ships it, and the docs page that documents
 * every rule (docs/policy.md): each rule's id, default level, reason and fix hint, verbatim.
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import type {
  PolicyResource,
  ReportViolation,
  ResourceValidationArgs,
  ResourceValidationPolicy,
  StackValidationArgs,
  StackValidationPolicy,
} from "@pulumi/policy";
import { describe, expect, it, vi } from "vitest";
import { RULES } from "../../policy/rules";
import { policies } from "../../policy/policies";
import { ACCESS_GATES } from "../../policy/access";
import { nodeRequire, repoRoot } from "../support/engine";

/** @pulumi/policy's own proxy over props (internal to it, so untyped): it throws on an unknown value. */
const { unknownCheckingProxy, unknownStringValue } = nodeRequire("@pulumi/policy/proxy") as {
  unknownCheckingProxy<T>(props: T): T;
  unknownStringValue: string;
};

const read = (...p: string[]) => readFileSync(path.join(repoRoot, ...p), "utf8");

describe("the policy pack folder", () => {
  it("is a Node.js pack whose main is the compiled pack, at the package's version", () => {
    expect(read("policy", "PulumiPolicy.yaml")).toMatch(/^runtime: nodejs$/m);
    const pack = JSON.parse(read("policy", "package.json"));
    const root = JSON.parse(read("package.json"));
    expect(pack.version).toBe(root.version);
    expect(pack.main).toBe("../dist/policy/pack.js");
    expect(read("dist", "policy", "pack.js")).toContain("new policy_1.PolicyPack(policies_1.PACK_NAME");
    // npm pack ships the folder's two files, the compiled JS (dist) and the host patch ensure-pulumi builds.
    expect(root.files).toEqual(expect.arrayContaining(["dist", "policy/PulumiPolicy.yaml", "policy/package.json", "scripts/langhost/run_plugin.go"]));
    expect(root.dependencies["@pulumi/policy"]).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it("has one policy per rule, resource or stack validation as the rule needs", () => {
    expect(policies.map((p) => p.name)).toEqual([...RULES, ...ACCESS_GATES].map((r) => r.id));
    for (const [i, r] of RULES.entries()) {
      expect(policies[i].enforcementLevel).toBe(r.enforcementLevel);
      expect(r.scope === "resource" ? "validateResource" in policies[i] : "validateStack" in policies[i]).toBe(true);
    }
  });
});

describe("docs/policy.md", () => {
  const doc = read("docs", "policy.md");
  for (const r of [...RULES, ...ACCESS_GATES]) {
    it(`documents ${r.id}: level, reason, fix`, () => {
      expect(doc).toContain(`| \`${r.id}\` | ${r.enforcementLevel} |`);
      expect(doc).toContain(`### \`${r.id}\`\n\n${r.reason}\n`);
      expect(doc).toContain(`**Fix:** ${r.fix}`);
      for (const [k, p] of Object.entries(r.config?.properties ?? {})) expect(doc).toContain(`\`${k}\` (\`${JSON.stringify(p.default).replace(/,/g, ", ")}\`)`);
    });
  }
});

describe("the policies, called as the engine calls them", () => {
  const byName = (name: string) => policies.find((p) => p.name === name)!;
  const validate = (name: string, type: string, props: Record<string, unknown>) => {
    const found: string[] = [];
    const p = byName(name) as ResourceValidationPolicy;
    // The members of the engine's arguments the pack reads; the rest are the engine's.
    const args = { type, props, urn: `urn:pulumi:dev::p::${type}::x`, name: "x-0", getConfig: () => ({}) } as unknown as ResourceValidationArgs;
    (p.validateResource as (a: ResourceValidationArgs, r: ReportViolation) => void)(args, (m) => found.push(m));
    return found;
  };

  it("judge the plugin's and the dynamic classes' resources alike, and nothing else", () => {
    const role = { groupUid: "g", name: "owner", description: "d", capabilities: ["repo.list"] };
    expect(validate("irv-role-builtin-name", "irv:iam:Role", role)).toEqual([
      'is named "owner", like a built-in role. Fix: Give the custom role a name of its own.',
    ]);
    expect(validate("irv-role-builtin-name", "pulumi-nodejs:dynamic/irv:Role", { ...role, __provider: "exports.handler = ..." })).toHaveLength(1);
    expect(validate("irv-role-builtin-name", "aws:iam/role:Role", role)).toEqual([]);
  });

  it("skip a value the engine does not know yet (preview)", () => {
    // @pulumi/policy hands props that throw on an unknown value; the policies read around it.
    const props = unknownCheckingProxy({
      groupUid: "g",
      name: "ci-0",
      description: unknownStringValue,
      claimMatch: { issuer: unknownStringValue, subject: "s" },
    });
    expect(validate("irv-missing-description", "irv:iam:Identity", props)).toEqual([]);
    expect(validate("irv-issuer-not-https", "irv:iam:Identity", props)).toEqual([]);
  });

  it("say on stderr, which the engine prints, what a stack rule did not look up without IRV_API_URL, and why", async () => {
    const role = "5b0c".padEnd(40, "0") + "/" + "1".repeat(16);
    const binding = {
      type: "irv:iam:RoleBinding",
      urn: "urn:pulumi:dev::p::irv:iam:RoleBinding::ci-owner",
      name: "ci-owner",
      props: { groupUid: "5b0c".padEnd(40, "0"), identityUid: "5b0c".padEnd(40, "0") + "/" + "2".repeat(16), roleUid: role },
      propertyDependencies: {},
    } as unknown as PolicyResource;
    // The same for a stack's arguments.
    const args = { resources: [binding], getConfig: () => ({}) } as unknown as StackValidationArgs;
    vi.stubEnv("IRV_API_URL", "");
    const written: string[] = [];
    const violations: string[] = [];
    const spy = vi.spyOn(process.stderr, "write").mockImplementation((chunk) => (written.push(String(chunk)), true));
    try {
      const p = byName("irv-workload-identity-admin-at-root") as StackValidationPolicy;
      await (p.validateStack as (a: StackValidationArgs, r: ReportViolation) => Promise<void>)(args, (message) => void violations.push(message));
    } finally {
      spy.mockRestore();
      vi.unstubAllEnvs();
    }
    expect(written).toEqual([
      `irv-iam-guardrails: irv-workload-identity-admin-at-root did not look up 2 role or identity uids the program names (${role}, ${binding.props.identityUid}): ` +
        "IRV_API_URL is not set in the engine's environment, and a policy pack does not see the stack's config. What it cannot judge without them it reports as a finding; set IRV_API_URL and IRV_TOKEN to judge those too.\n",
    ]);
    // A guardrail that cannot judge does not pass the binding (issue 39): it says so, as a violation.
    expect(violations).toEqual([
      expect.stringMatching(
        new RegExp(`^binds a workload identity at the organization's root to role ${role}, which could not be looked up to judge it: IRV_API_URL is not set`),
      ),
    ]);
  });
});
