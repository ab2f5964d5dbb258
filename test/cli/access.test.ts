/**
 * `irv access` against a live irv-server: can-i, who-can and what through the compiled bin, with
 * names or uids, in each format, the answer as can-i's exit code; and as an identity that may list
 * only part of the organization: what it cannot list is named under "Not seen", and no answer
 * is guessed from it (can-i says "cannot tell" and exits 5).
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { COLLECTIONS } from "../../api";
import { builtinRoleUid } from "../../server";
import { runIrv } from "../support/cli";
import { useServer } from "../support/server";
import { pulumiEnv, repoRoot } from "../support/engine";
import { yamlProject } from "../support/yaml-project";

describe("irv access against irv-server", () => {
  const ctx = useServer();
  const org = () => ctx.server.organization;
  let eng: string, platform: string, ci: string, auditor: string, deployer: string, auditorToken: string;
  const post = async (kind: keyof typeof COLLECTIONS, parent: string, body: object) => {
    const r = await ctx.api.post(`${COLLECTIONS[kind].path}/${parent}`, body);
    expect(r.status, r.text).toBe(200);
    return r.body.uid as string;
  };
  const irv = (args: string[], token = ctx.server.token) =>
    runIrv(["access", ...args], { IRV_API_URL: ctx.server.url, IRV_TOKEN: token, IRV_CONFIG_DIR: "/nonexistent-irv-login" });

  beforeAll(async () => {
    eng = await post("groups", org(), { name: "engineering" });
    platform = await post("groups", eng, { name: "platform" });
    ci = await post("identities", eng, {
      name: "ci-deploy",
      description: "CI",
      claimMatch: { issuer: "https://token.actions.githubusercontent.com", subjectPattern: "^repo:acme/.*$" },
    });
    auditor = await post("identities", platform, {
      name: "auditor",
      description: "audits",
      claimMatch: { issuer: "https://issuer.example", subject: "auditor" },
    });
    deployer = await post("roles", eng, {
      name: "deployer",
      description: "deploys",
      capabilities: ["CAP_IAM_ROLE_BINDINGS_CREATE", "CAP_IAM_IDENTITY_CREATE", "CAP_IAM_GROUPS_LIST"],
    });
    await post("roleBindings", eng, { identityUid: ci, roleUid: deployer });
    await post("roleBindings", platform, { identityUid: auditor, roleUid: builtinRoleUid("viewer") });
    auditorToken = await ctx.server.issueToken(auditor);
  });

  it("can-i: yes with the binding that grants it, inherited from the group above; no; by name or uid; exit 0 and 4", async () => {
    const yes = await irv(["can-i", "ci-deploy", "role_bindings.create", "platform"]);
    expect(yes.stderr).toBe("");
    expect(yes.code).toBe(0);
    expect(yes.stdout).toContain(`yes: ci-deploy (${ci}) role_bindings.create on platform (${platform})`);
    expect(yes.stdout).toContain("through binding");
    expect(yes.stdout).toContain("of role deployer on engineering (inherited)");
    expect(yes.stdout).toContain('maybe: the identity stands for every token whose subject matches "^repo:acme/.*$"');

    const no = await irv(["can-i", ci, "roles.create", eng]);
    expect(no.code).toBe(4);
    expect(no.stdout).toMatch(/^no: ci-deploy/);

    const json = JSON.parse((await irv(["can-i", "auditor", "groups.list", "platform", "--format", "json"])).stdout);
    expect(json).toMatchObject({
      question: "can-i",
      answer: "yes",
      capability: "groups.list",
      grants: [{ role: { name: "viewer" }, inherited: false }],
      unseen: [],
    });
  });

  it("who-can lists each identity with its binding, role and group, direct or inherited; what lists an identity's subtrees", async () => {
    const who = await irv(["who-can", "groups.list", "platform"]);
    expect(who.code).toBe(0);
    const lines = who.stdout.trimEnd().split("\n");
    expect(lines[0]).toBe(`${lines.length - 3} grants of groups.list on platform (${platform})`);
    expect(lines.find((l) => l.startsWith(`ci-deploy (${ci})`))).toMatch(/maybe .* deployer +engineering \(.*\) +inherited$/);
    expect(lines.find((l) => l.startsWith(`auditor (${auditor})`))).toMatch(/viewer +platform \(.*\) +direct$/);

    const md = await irv(["who-can", "role_bindings.create", eng, "-f", "markdown"]);
    expect(md.stdout).toContain("| IDENTITY | MAYBE | BINDING | ROLE | GRANTED ON | HOW |");
    expect(md.stdout).toContain("`deployer`");

    const what = await irv(["what", "ci-deploy"]);
    expect(what.code).toBe(0);
    expect(what.stdout).toMatch(new RegExp(`engineering \\(${eng}\\) \\+1 below +deployer +\\S+ +groups.list,identity.create,role_bindings.create`));
  });

  it("says what a caller may not list, and answers 'cannot tell' rather than no", async () => {
    // The auditor holds viewer on platform only: it cannot list the bindings on engineering or the root.
    const r = await irv(["can-i", "auditor", "roles.create", "platform"], auditorToken);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(5);
    expect(r.stdout).toMatch(/^cannot tell: auditor/);
    expect(r.stdout).toContain("Not seen (the answer leaves these out):");
    expect(r.stdout).toContain(`- the role bindings, roles, identities on group ${eng}: these credentials may not list them there`);
    expect(r.stdout).toContain(`- the role bindings, roles, identities on group ${org()}: these credentials may not list them there`);
    // Nothing it may not list leaks: not ci-deploy, nor its binding, nor the custom role.
    for (const secret of [ci, deployer, "ci-deploy", "deployer"]) expect(r.stdout).not.toContain(secret);
    const who = await irv(["who-can", "groups.list", "platform", "-f", "json"], auditorToken);
    const answer = JSON.parse(who.stdout);
    expect(answer.grants.map((g: { subject: { name: string } }) => g.subject.name)).toEqual(["auditor"]);
    expect(answer.unseen).toHaveLength(2);
    expect(who.stdout).not.toContain("ci-deploy");
  });

  it("runs every irv access command docs/access.md prints, as written, with the answers it shows", async () => {
    const doc = readFileSync(path.join(repoRoot, "docs", "access.md"), "utf8");
    const blocks = [...doc.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]);
    const commands = blocks.flatMap((b) => b.split("\n")).filter((l) => l.startsWith("irv access "));
    expect(commands).toHaveLength(4);
    const codes: Record<string, number> = {};
    for (const line of commands) {
      const r = await runIrv(line.split(" ").slice(1), { IRV_API_URL: ctx.server.url, IRV_TOKEN: ctx.server.token, IRV_CONFIG_DIR: "/nonexistent-irv-login" });
      expect(r.stderr, line).toBe("");
      codes[line] = r.code!;
      // The answer the page shows, less the uids this server made.
      const shown = r.stdout.split("\n")[0].replace(/ \([0-9a-f/]+\)/g, "");
      expect(doc.replace(/ \(<org>[0-9a-f/]*\)/g, ""), line).toContain(shown);
    }
    expect(Object.values(codes)).toEqual([0, 0, 0, 0]);
    // The one in the text, run as the auditor.
    const inText = "irv access can-i auditor roles.create platform";
    expect(doc).toContain(`\`${inText}\` does not say no`);
    expect((await irv(inText.split(" ").slice(2), auditorToken)).code).toBe(5);
  });

  it("asks the live API with the selected stack's irv:* config, as irv drift does, and says so (issue 39)", { timeout: 120_000 }, async () => {
    // A configured project, and no IRV_* variables: the settings are the stack's.
    const p = await yamlProject("access-settings", ctx.server);
    try {
      const env = { ...pulumiEnv(path.join(p.base, "home")), IRV_API_URL: "", IRV_TOKEN: "", IRV_CONFIG_DIR: "/nonexistent-irv-login" };
      const here = await runIrv(["access", "can-i", "ci-deploy", "role_bindings.create", "platform"], env, p.dir);
      expect(here.stderr).toBe("irv access: the live API, with the irv:* config of stack dev\n");
      expect(here.code).toBe(0);
      expect(here.stdout).toContain(`yes: ci-deploy (${ci}) role_bindings.create on platform (${platform})`);
      // From elsewhere, naming the stack and its folder: --live asks the API rather than the state.
      const named = await runIrv(["access", "who-can", "groups.list", "platform", "--live", "--stack", "dev", "--cwd", p.dir, "--format", "json"], env);
      expect(named.code, named.stderr).toBe(0);
      expect(JSON.parse(named.stdout).grants.map((g: { subject: { name: string } }) => g.subject.name)).toContain("auditor");
      // Outside any project: the environment, which names no API here.
      const nowhere = await runIrv(["access", "what", "ci-deploy"], env, p.base);
      expect(nowhere.code).toBe(1);
      expect(nowhere.stderr).toContain("irv:apiUrl (IRV_API_URL)");
    } finally {
      p.dispose();
    }
  });

  it("names what it cannot resolve", async () => {
    const r = await irv(["can-i", "nobody", "groups.list", "platform"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('identity "nobody" is neither a uid nor the name of an identity seen here');
    const c = await irv(["can-i", "ci-deploy", "groups.frobnicate", "platform"]);
    expect(c.stderr).toContain('capability "groups.frobnicate" is not one the platform knows (groups.');
    const u = await irv(["who-can", "groups.list"]);
    expect(u.stderr).toContain("irv access who-can takes 2 arguments, not 1");
  });
});
