/**
 * The policy pack's folder as Pulumi loads it and npm ships it, and the docs page that documents
 * every rule (docs/policy.md): each rule's id, default level, reason and fix hint, verbatim.
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { RULES } from "../../policy/rules";
import { policies } from "../../policy/policies";
import { repoRoot } from "../support/engine";

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
    expect(policies.map((p) => p.name)).toEqual(RULES.map((r) => r.id));
    for (const [i, r] of RULES.entries()) {
      expect(policies[i].enforcementLevel).toBe(r.enforcementLevel);
      expect(r.scope === "resource" ? "validateResource" in policies[i] : "validateStack" in policies[i]).toBe(true);
    }
  });
});

describe("docs/policy.md", () => {
  const doc = read("docs", "policy.md");
  for (const r of RULES) {
    it(`documents ${r.id}: level, reason, fix`, () => {
      expect(doc).toContain(`| \`${r.id}\` | ${r.enforcementLevel} |`);
      expect(doc).toContain(`### \`${r.id}\`\n\n${r.reason}\n`);
      expect(doc).toContain(`**Fix:** ${r.fix}`);
      for (const [k, p] of Object.entries(r.config?.properties ?? {})) expect(doc).toContain(`\`${k}\` (\`${JSON.stringify(p.default).replace(/,/g, ", ")}\`)`);
    });
  }
});
