import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { ENGINE_TIMEOUT, repoRoot } from "../support/engine";
import { createFolderProject, type FolderProject } from "../support/folder";
import { useServer } from "../support/server";

const run = promisify(execFile);

/** A user's program, in plain JavaScript, importing the package by name. */
const PROGRAM = `
const pulumi = require("@pulumi/pulumi");
const irv = require("pulumi-irv");
const org = new pulumi.Config().require("organization");
const eng = new irv.iam.Group("eng", { parentUid: org, name: "engineering" });
const ci = new irv.iam.Identity("ci", { groupUid: eng.uid, name: "github-ci",
  claimMatch: { issuer: "https://token.actions.githubusercontent.com", subject: "repo:acme/infra:ref:refs/heads/main" } });
const viewer = irv.iam.getRoleOutput({ name: "viewer" });
new irv.iam.RoleBinding("ci-viewer", { groupUid: eng.uid, identityUid: ci.uid, roleUid: viewer.uid });
new irv.iam.IdentityProvider("sso", { groupUid: eng.uid, name: "sso", defaultRoleUid: viewer.uid,
  oidc: { issuer: "https://idp.example.com", clientId: "acme", clientSecret: "plain-client-secret-7c1e" } });
exports.eng = eng.uid;
`;

// The package as users get it: `npm pack`, installed into a fresh project by npm, the program
// requiring "pulumi-irv" by name, and the provider host resolving "pulumi-irv/provider" from that
// install (not from this repository's self-link).
describe("the packed package in a user's project", { timeout: ENGINE_TIMEOUT }, () => {
  const ctx = useServer();
  const dir = mkdtempSync(path.join(tmpdir(), "irv-user-"));
  let p: FolderProject | undefined;
  afterAll(() => {
    p?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it("installs with npm, applies a program, passes the policy pack, keeps secrets out of the state, and destroys", async () => {
    const npm = (...args: string[]) => run("npm", [...args, "--no-audit", "--no-fund"], { cwd: dir, maxBuffer: 16 << 20 });
    const { stdout } = await run("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", dir], { cwd: repoRoot, maxBuffer: 16 << 20 });
    const [packed] = JSON.parse(stdout) as { filename: string; files: { path: string }[] }[];
    expect(packed.files.some((f) => f.path.startsWith("dist/test/"))).toBe(false);
    writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "user-project", private: true }));
    await npm("install", "--prefer-offline", path.join(dir, packed.filename));
    writeFileSync(path.join(dir, "index.js"), PROGRAM);

    p = await createFolderProject({ dir, main: "index.js", server: ctx.server, config: { organization: ctx.server.organization } });
    await p.pulumi("up", "--yes", "--skip-preview");
    const eng = JSON.parse(await p.pulumi("stack", "output", "eng", "--json"));
    expect((await ctx.api.get(`/iam/v2beta1/groups/${eng}`)).status).toBe(200);
    expect(JSON.parse(await p.pulumi("preview", "--json", "--expect-no-changes")).changeSummary).toEqual({ same: 5 });
    // The policy pack as the docs say to run it, from the installed package: the identity has no
    // description (advisory), nothing else is wrong, so the preview passes.
    const policy = await p.pulumi("preview", "--policy-pack", path.join(dir, "node_modules", "pulumi-irv", "policy"));
    expect(policy).toContain("irv-iam-guardrails@v0.1.0");
    expect(policy).toMatch(/\[advisory\] +irv-missing-description +\(pulumi-nodejs:dynamic\/irv:Identity: ci\)/);
    expect(policy).not.toContain("[mandatory]");
    // No IRV_API_URL in the engine's environment, and nothing to look up: the built-in viewer is
    // known by its uid (issue 39), so the pack skips nothing.
    expect(policy).not.toContain("did not look up");

    const state = await p.pulumi("stack", "export");
    expect(state).toContain("github-ci");
    for (const secret of ["plain-client-secret-7c1e", ctx.server.token]) expect(state).not.toContain(secret);

    await p.pulumi("destroy", "--yes", "--skip-preview");
    expect((await ctx.api.get(`/iam/v2beta1/groups/${eng}`)).status).toBe(404);
  });
});
