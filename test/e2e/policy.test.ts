/**
 * The policy pack (`policy/`) through the real engine: `pulumi preview --policy-pack`, which
 * starts the pack through the node language host that scripts/ensure-pulumi builds. A YAML program
 * on the resource plugin and a TypeScript program on the dynamic classes, each once breaking every
 * rule and once as the compliant twin; then the example org, which passes.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RULES } from "../../policy/rules";
import { ENGINE_TIMEOUT, createStack, loadExample, nodeRequire, pulumiEnv, repoRoot } from "../support/engine";
import { useServer } from "../support/server";
import { run } from "../toolchain/support";

const PACK = path.join(repoRoot, "policy");
const GITHUB = "https://token.actions.githubusercontent.com";
const irv = nodeRequire("pulumi-irv") as typeof import("../../sdk");
const pulumi = nodeRequire("@pulumi/pulumi") as typeof import("@pulumi/pulumi");

/** Which rule fires on which resource, in the violating program (the same in YAML and TypeScript). */
const EXPECTED: [rule: string, resource: string][] = [
  ["irv-workload-identity-admin-at-root", "ci-owner"],
  ["irv-claim-match-too-broad", "ci"],
  ["irv-issuer-not-https", "local"],
  ["irv-invite-owner-role", "invite"],
  ["irv-invite-lifetime", "invite"],
  ["irv-invite-single-use", "invite"],
  ["irv-identity-provider-default-role", "sso"],
  ["irv-binding-above-identity-group", "ci-owner"],
  ["irv-binding-above-identity-group", "deployer-releaser"],
  ["irv-role-builtin-name", "editor"],
  ["irv-missing-description", "local"],
];

const sorted = (pairs: [string, string][]) => [...new Set(pairs.map((p) => p.join(" ")))].sort();

/**
 * The violating YAML program, or its compliant twin: every fix is one value. `${org}` and the
 * built-in roles come from the stack's config and `irv:iam:getRole`.
 */
function yamlProgram(bad: boolean): string {
  return `variables:
  owner:
    fn::invoke:
      function: irv:iam:getRole
      arguments: { name: owner }
      return: uid
  viewer:
    fn::invoke:
      function: irv:iam:getRole
      arguments: { name: viewer }
      return: uid
resources:
  eng:
    type: irv:iam:Group
    properties: { parentUid: "\${org}", name: eng, description: Engineering }
  platform:
    type: irv:iam:Group
    properties: { parentUid: "\${eng.uid}", name: platform, description: Platform }
  ci:
    type: irv:iam:Identity
    properties:
      groupUid: \${eng.uid}
      name: ci
      description: CI jobs
      claimMatch:
        issuer: ${GITHUB}
        subjectPattern: "${bad ? "^repo:.*:ref:refs/heads/main$" : "^repo:acme/[a-z-]+:ref:refs/heads/main$"}"
  local:
    type: irv:iam:Identity
    properties:
      groupUid: \${eng.uid}
      name: local
      ${bad ? "" : "description: A local issuer"}
      claimMatch: { issuer: "${bad ? "http://127.0.0.1:9/issuer" : "https://issuer.acme.example"}", subject: local }
  ci-owner:
    type: irv:iam:RoleBinding
    properties: { groupUid: "${bad ? "\${org}" : "\${eng.uid}"}", identityUid: "\${ci.uid}", roleUid: "\${owner}" }
  deployer:
    type: irv:iam:Identity
    properties: { groupUid: "\${platform.uid}", name: deployer, description: Deploys, servicePrincipal: INGESTER }
  releaser:
    type: irv:iam:Role
    properties: { groupUid: "\${platform.uid}", name: releaser, description: Releases, capabilities: [tag.list, tag.create] }
  deployer-releaser:
    type: irv:iam:RoleBinding
    properties: { groupUid: "${bad ? "\${eng.uid}" : "\${platform.uid}"}", identityUid: "\${deployer.uid}", roleUid: "\${releaser.uid}" }
  editor:
    type: irv:iam:Role
    properties: { groupUid: "\${eng.uid}", name: ${bad ? "editor" : "eng-editor"}, description: Edits, capabilities: [repo.list] }
  sso:
    type: irv:iam:IdentityProvider
    properties:
      groupUid: \${eng.uid}
      name: sso
      defaultRoleUid: ${bad ? "\${owner}" : "\${viewer}"}
      oidc: { issuer: "https://login.acme.example", clientId: irv, clientSecret: s3cret }
  invite:
    type: irv:iam:GroupInvite
    properties: { groupUid: "\${eng.uid}", roleUid: "${bad ? "\${owner}" : "\${viewer}"}", ttl: ${bad ? "1209600s" : "86400s, singleUse: true"} }
`;
}

/** The same program in TypeScript, on the dynamic classes. */
function tsProgram(org: string, bad: boolean) {
  return async () => {
    const owner = irv.iam.getRoleOutput({ name: "owner" }).uid;
    const viewer = irv.iam.getRoleOutput({ name: "viewer" }).uid;
    const eng = new irv.iam.Group("eng", { parentUid: org, name: "eng", description: "Engineering" });
    const platform = new irv.iam.Group("platform", { parentUid: eng.uid, name: "platform", description: "Platform" });
    const ci = new irv.iam.Identity("ci", {
      groupUid: eng.uid,
      name: "ci",
      description: "CI jobs",
      claimMatch: { issuer: GITHUB, subjectPattern: bad ? "^repo:.*:ref:refs/heads/main$" : "^repo:acme/[a-z-]+:ref:refs/heads/main$" },
    });
    new irv.iam.Identity("local", {
      groupUid: eng.uid,
      name: "local",
      ...(bad ? {} : { description: "A local issuer" }),
      claimMatch: { issuer: bad ? "http://127.0.0.1:9/issuer" : "https://issuer.acme.example", subject: "local" },
    });
    new irv.iam.RoleBinding("ci-owner", { groupUid: bad ? org : eng.uid, identityUid: ci.uid, roleUid: owner });
    const deployer = new irv.iam.Identity("deployer", { groupUid: platform.uid, name: "deployer", description: "Deploys", servicePrincipal: "INGESTER" });
    const releaser = new irv.iam.Role("releaser", { groupUid: platform.uid, name: "releaser", description: "Releases", capabilities: ["tag.list", "tag.create"] });
    new irv.iam.RoleBinding("deployer-releaser", { groupUid: bad ? eng.uid : platform.uid, identityUid: deployer.uid, roleUid: releaser.uid });
    new irv.iam.Role("editor", { groupUid: eng.uid, name: bad ? "editor" : "eng-editor", description: "Edits", capabilities: ["repo.list"] });
    new irv.iam.IdentityProvider("sso", {
      groupUid: eng.uid,
      name: "sso",
      defaultRoleUid: bad ? owner : viewer,
      oidc: { issuer: "https://login.acme.example", clientId: "irv", clientSecret: pulumi.secret("s3cret") },
    });
    new irv.iam.GroupInvite("invite", { groupUid: eng.uid, roleUid: bad ? owner : viewer, ...(bad ? { ttl: "1209600s" } : { ttl: "86400s", singleUse: true }) });
  };
}

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
    let base: string;
    let dir: string;
    let env: Record<string, string | undefined>;
    const pulumiCli = async (...args: string[]) => (await run("pulumi", [...args, "--non-interactive", "--cwd", dir], { env })).stdout;
    const write = (bad: boolean) =>
      writeFileSync(
        path.join(dir, "Pulumi.yaml"),
        [
          "name: policy-yaml",
          "runtime: yaml",
          `backend:\n  url: file://${path.join(base, "backend")}`,
          `plugins:\n  providers:\n    - name: irv\n      path: ${path.join(repoRoot, "bin")}`,
          "config:\n  org:\n    type: string",
          yamlProgram(bad),
        ].join("\n"),
      );

    beforeAll(async () => {
      base = mkdtempSync(path.join(tmpdir(), "irv-policy-yaml-"));
      dir = path.join(base, "project");
      for (const d of [dir, path.join(base, "backend")]) mkdirSync(d);
      env = { ...process.env, ...apiEnv, ...pulumiEnv(path.join(base, "home")) };
      write(true);
      await pulumiCli("stack", "init", "dev");
      await pulumiCli("config", "set", "org", ctx.server.organization);
    });
    afterAll(() => rmSync(base, { recursive: true, force: true }));

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
      const config = path.join(base, "policy-config.json");
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
