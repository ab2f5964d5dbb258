/**
 * Programs for the policy tests (test/e2e/policy, test/cli/review-policy): one that breaks every
 * IAM guardrail and its compliant twin, in Pulumi YAML (on the resource plugin) and in TypeScript
 * (on the dynamic classes), and which rule fires on which resource.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { nodeRequire, pulumiEnv, repoRoot } from "./engine";
import { run } from "./toolchain";

const irv = nodeRequire("pulumi-irv") as typeof import("../../dynamic");
const pulumi = nodeRequire("@pulumi/pulumi") as typeof import("@pulumi/pulumi");

/** The policy pack's folder in this checkout. */
export const PACK = path.join(repoRoot, "policy");
const GITHUB = "https://token.actions.githubusercontent.com";

/** Which rule fires on which resource, in the violating program (the same in YAML and TypeScript). */
export const EXPECTED: [rule: string, resource: string][] = [
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

/**
 * What `irv review` finds beside the pack, in both programs: the access gate on a workload identity
 * gaining IAM writes (ci is bound to owner, at the root or on eng), advisory by default.
 */
export const ACCESS_EXPECTED: [rule: string, resource: string][] = [["irv-workload-iam-write", "ci-owner"]];

/**
 * What `irv review` finds beside those in the violating program only: ci, matched by a pattern,
 * gains owner's role grants and deletes (`irv-pattern-identity-admin`, mandatory). The compliant
 * twin's ci matches one exact subject.
 */
export const PATTERN_EXPECTED: [rule: string, resource: string][] = [["irv-pattern-identity-admin", "ci-owner"]];

export const sorted = (pairs: [string, string][]) => [...new Set(pairs.map((p) => p.join(" ")))].sort();

/** A YAML program's variables `owner` and `viewer`: the built-in roles' uids, through `irv:iam:getRole`. */
export const YAML_BUILTIN_ROLES = `variables:
  owner:
    fn::invoke: { function: irv:iam:getRole, arguments: { name: owner }, return: uid }
  viewer:
    fn::invoke: { function: irv:iam:getRole, arguments: { name: viewer }, return: uid }
`;

/** A YAML program's resource `key`: a group under `parentUid` (a YAML value, `${org}` or `${eng.uid}`). */
export const yamlGroup = (key: string, parentUid: string, name: string, description: string) => `  ${key}:
    type: irv:iam:Group
    properties: { parentUid: "${parentUid}", name: ${name}, description: ${description} }
`;

/**
 * The violating YAML program, or its compliant twin: every fix is one value. `${org}` and the
 * built-in roles come from the stack's config and `irv:iam:getRole`.
 */
export function yamlProgram(bad: boolean): string {
  return `${YAML_BUILTIN_ROLES}resources:
${yamlGroup("eng", "${org}", "eng", "Engineering")}${yamlGroup("platform", "${eng.uid}", "platform", "Platform")}  ci:
    type: irv:iam:Identity
    properties:
      groupUid: \${eng.uid}
      name: ci-jobs
      description: CI jobs
      claimMatch:
        issuer: ${GITHUB}
        ${bad ? 'subjectPattern: "^repo:.*:ref:refs/heads/main$"' : "subject: repo:acme/infra:ref:refs/heads/main"}
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
    properties: { groupUid: "\${platform.uid}", name: deployer, description: Deploys, servicePrincipal: SERVICE_PRINCIPAL_INGESTER }
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
export function tsProgram(org: string, bad: boolean) {
  return async () => {
    const owner = irv.iam.getRoleOutput({ name: "owner" }).uid;
    const viewer = irv.iam.getRoleOutput({ name: "viewer" }).uid;
    const eng = new irv.iam.Group("eng", { parentUid: org, name: "eng", description: "Engineering" });
    const platform = new irv.iam.Group("platform", { parentUid: eng.uid, name: "platform", description: "Platform" });
    const ci = new irv.iam.Identity("ci", {
      groupUid: eng.uid,
      name: "ci-0",
      description: "CI jobs",
      claimMatch: { issuer: GITHUB, ...(bad ? { subjectPattern: "^repo:.*:ref:refs/heads/main$" } : { subject: "repo:acme/infra:ref:refs/heads/main" }) },
    });
    new irv.iam.Identity("local", {
      groupUid: eng.uid,
      name: "local",
      ...(bad ? {} : { description: "A local issuer" }),
      claimMatch: { issuer: bad ? "http://127.0.0.1:9/issuer" : "https://issuer.acme.example", subject: "local" },
    });
    new irv.iam.RoleBinding("ci-owner", { groupUid: bad ? org : eng.uid, identityUid: ci.uid, roleUid: owner });
    const deployer = new irv.iam.Identity("deployer", {
      groupUid: platform.uid,
      name: "deployer",
      description: "Deploys",
      servicePrincipal: "SERVICE_PRINCIPAL_INGESTER",
    });
    const releaser = new irv.iam.Role("releaser", {
      groupUid: platform.uid,
      name: "releaser",
      description: "Releases",
      capabilities: ["tag.list", "tag.create"],
    });
    new irv.iam.RoleBinding("deployer-releaser", { groupUid: bad ? eng.uid : platform.uid, identityUid: deployer.uid, roleUid: releaser.uid });
    new irv.iam.Role("editor", { groupUid: eng.uid, name: bad ? "editor" : "eng-editor", description: "Edits", capabilities: ["repo.list"] });
    new irv.iam.IdentityProvider("sso", {
      groupUid: eng.uid,
      name: "sso",
      defaultRoleUid: bad ? owner : viewer,
      oidc: { issuer: "https://login.acme.example", clientId: "irv", clientSecret: pulumi.secret("s3cret") },
    });
    new irv.iam.GroupInvite("invite", {
      groupUid: eng.uid,
      roleUid: bad ? owner : viewer,
      ...(bad ? { ttl: "1209600s" } : { ttl: "86400s", singleUse: true }),
    });
  };
}

/** A YAML folder project `policy-yaml` with stack `dev`, config `org` set: its folder, writer and CLI. */
export async function yamlPolicyProject(
  org: string,
  env: Record<string, string>,
  config: Record<string, string> = {},
  program: (bad: boolean) => string = yamlProgram,
) {
  const base = mkdtempSync(path.join(tmpdir(), "irv-policy-yaml-"));
  const dir = path.join(base, "project");
  for (const d of [dir, path.join(base, "backend")]) mkdirSync(d);
  const fullEnv = { ...process.env, ...env, ...pulumiEnv(path.join(base, "home")) };
  const cli = async (...args: string[]) => (await run("pulumi", [...args, "--non-interactive", "--cwd", dir], { env: fullEnv })).stdout;
  const write = (bad: boolean) =>
    writeFileSync(
      path.join(dir, "Pulumi.yaml"),
      [
        "name: policy-yaml",
        "runtime: yaml",
        `backend:\n  url: file://${path.join(base, "backend")}`,
        `plugins:\n  providers:\n    - name: irv\n      path: ${path.join(repoRoot, "bin")}`,
        "config:\n  org:\n    type: string",
        program(bad),
      ].join("\n"),
    );
  write(true);
  await cli("stack", "init", "dev");
  await cli("config", "set", "org", org);
  for (const [k, v] of Object.entries(config)) await cli("config", "set", ...(k === "irv:token" ? ["--secret"] : []), k, v);
  return { base, dir, env: fullEnv, cli, write };
}
