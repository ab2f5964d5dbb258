import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { specialSecretSig, specialSigKey } from "@pulumi/pulumi/runtime/rpc";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KINDS, tokenOf } from "../../api/kinds";
import { ENGINE_TIMEOUT, pulumiEnv, repoRoot } from "../support/engine";
import { path as apiPath, listAll, useServer } from "../support/server";
import { run } from "../support/toolchain";

// examples/yaml-org through the plain CLI and the YAML language host, in a folder project that
// finds `pulumi-resource-irv` through `plugins.providers[].path`, as a user's project does.
const EXAMPLE = readFileSync(path.join(repoRoot, "examples", "yaml-org", "Pulumi.yaml"), "utf8");
const OIDC_SECRET = "oidc-cs-7d41e2b9";

describe("examples/yaml-org through the irv resource plugin", { timeout: ENGINE_TIMEOUT }, () => {
  const ctx = useServer();
  /** A second organization's API, for a program that reads two orgs through two providers. */
  const elsewhere = useServer();
  let base: string;
  let dir: string;
  let backend: string;
  let env: Record<string, string | undefined>;
  const pulumi = async (...args: string[]) => (await run("pulumi", [...args, "--non-interactive", "--cwd", dir], { env })).stdout;
  const previewJson = async (...args: string[]) => JSON.parse(await pulumi("preview", "--json", ...args));
  /** Writes the project: the example, its plugin path made absolute, a file backend, and `edit` applied. */
  const writeProject = (edit: (yaml: string) => string = (y) => y) =>
    writeFileSync(
      path.join(dir, "Pulumi.yaml"),
      edit(
        EXAMPLE.replace("path: ../../bin", `path: ${path.join(repoRoot, "bin")}`).replace(
          "runtime: yaml\n",
          `runtime: yaml\nbackend:\n  url: file://${backend}\n`,
        ),
      ),
    );
  const state = () => readFileSync(path.join(backend, ".pulumi", "stacks", "yaml-org", "dev.json"), "utf8");
  /** What a preview that must fail prints (a preview that passes yields its output, which the caller's match then refuses). */
  const failingPreview = () =>
    pulumi("preview").then(
      (out) => `the preview passed:\n${out}`,
      (err: Error) => err.message,
    );
  /**
   * The identity provider's state: `oidc` readable member by member, its clientSecret only as
   * ciphertext, in inputs and outputs alike (YAML sends `oidc` plain with a secret clientSecret).
   */
  const expectOnlyClientSecretEncrypted = (clientId: string) => {
    const saved = state();
    expect(saved).not.toContain(OIDC_SECRET);
    const sso = JSON.parse(saved).checkpoint.latest.resources.find((r: { urn: string }) => r.urn.endsWith("irv:iam:IdentityProvider::sso"));
    for (const props of [sso.inputs, sso.outputs]) {
      expect(props.oidc).toMatchObject({ issuer: "https://login.acme.example", clientId });
      expect(props.oidc.clientSecret).toEqual({ [specialSigKey]: specialSecretSig, ciphertext: expect.any(String) });
    }
  };
  /** A folder project `yaml-<name>` of its own, on the same backend and finding the plugin the same way: its file's writer and its CLI. */
  const otherProject = (name: string) => {
    const project = path.join(base, name);
    mkdirSync(project);
    const header = [
      `name: yaml-${name}`,
      "runtime: yaml",
      `backend:\n  url: file://${backend}`,
      `plugins:\n  providers:\n    - name: irv\n      path: ${path.join(repoRoot, "bin")}`,
    ];
    return {
      write: (...blocks: string[]) => writeFileSync(path.join(project, "Pulumi.yaml"), [...header, ...blocks, ""].join("\n")),
      cli: async (...args: string[]) => (await run("pulumi", [...args, "--non-interactive", "--cwd", project], { env })).stdout,
    };
  };

  beforeAll(async () => {
    base = mkdtempSync(path.join(tmpdir(), "irv-plugin-yaml-"));
    dir = path.join(base, "project");
    backend = path.join(base, "backend");
    for (const d of [dir, backend]) mkdirSync(d);
    writeProject();
    // No IRV_* variables: the provider's settings come from the stack's irv:* config, through Configure.
    env = { ...process.env, IRV_API_URL: "", IRV_TOKEN: "", ...pulumiEnv(path.join(base, "home")) };
    await pulumi("stack", "init", "dev");
    await pulumi("config", "set", "organization", ctx.server.organization);
    await pulumi("config", "set", "irv:apiUrl", ctx.server.url);
    await pulumi("config", "set", "--secret", "irv:token", ctx.server.token);
    await pulumi("config", "set", "--secret", "oidcClientSecret", OIDC_SECRET);
  });
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  it("prints the schema derived from the kinds through `pulumi package get-schema`", async () => {
    const schema = JSON.parse((await run("pulumi", ["package", "get-schema", path.join(repoRoot, "bin", "pulumi-resource-irv")], { env })).stdout);
    expect(Object.keys(schema.resources).sort()).toEqual(KINDS.map((d) => tokenOf(d)).sort());
    expect(schema.resources["irv:events:Subscription"].inputProperties.sink.replaceOnChanges).toBe(true);
    expect(schema.resources["irv:iam:GroupInvite"].properties.code.secret).toBe(true);
    expect(schema.resources["irv:iam:Group"].inputProperties.parentUid.replaceOnChanges).toBe(true);
    expect(schema.config.variables.token.secret).toBe(true);
    expect(schema.meta.supportPack).toBe(true);
    expect(Object.keys(schema.functions)).toHaveLength(10);
    expect(schema.functions["irv:registry:getTags"].outputs.properties.tags.items.$ref).toBe("#/types/irv:registry:TagResult");
  });

  it("previews, applies, shows no change, updates in place, replaces, imports, refreshes, keeps secrets and destroys", async () => {
    // Six resources and the stack.
    expect((await previewJson()).changeSummary).toEqual({ create: 7 });
    await pulumi("up", "--yes", "--skip-preview");
    const outputs = JSON.parse(await pulumi("stack", "output", "--json", "--show-secrets"));
    expect(outputs.engineeringUid.startsWith(`${ctx.server.organization}/`)).toBe(true);
    expect((await ctx.api.get(apiPath("groups", outputs.engineeringUid))).status).toBe(200);
    expect((await ctx.api.get(apiPath("identities", outputs.ciUid))).body.name).toBe("ci-jobs");
    expect(typeof outputs.inviteCode).toBe("string");
    // The example's one `fn::invoke`: the built-in viewer role, as the API has it.
    expect(outputs.viewerRoleUid).toBe((await listAll(ctx.api, "roles")).find((r) => r.name === "viewer").uid);

    // Secrets: the invite code, the OIDC client secret and the token stay ciphertext in state.
    const saved = state();
    for (const plaintext of [outputs.inviteCode, OIDC_SECRET, ctx.server.token]) expect(saved).not.toContain(plaintext);
    expect(JSON.parse(await pulumi("stack", "output", "--json")).inviteCode).toBe("[secret]");
    expectOnlyClientSecretEncrypted("irv-platform");

    expect((await previewJson("--expect-no-changes")).changeSummary).toEqual({ same: 7 });

    // Bad input inside a typed block or an enum is named at preview, member and all; a block that
    // holds a secret is named without its value.
    writeProject((y) => y.replace("issuer: https://token.actions.githubusercontent.com", "issuer: http://token.actions.githubusercontent.com"));
    expect(await failingPreview()).toMatch(/property claimMatch value .* has a problem: claimMatch\.issuer: must be an https URL/);
    writeProject((y) => y.replace("[repo.list, tag.list,", "[repo.list, tag.frobnicate,"));
    expect(await failingPreview()).toMatch(/property capabilities value .* has a problem: capabilities\.1: is not a known capability/);
    // YAML has no compiler to suggest a name: the check does.
    writeProject((y) => y.replace("[repo.list, tag.list,", "[repo.list, tag.lsit,"));
    expect(await failingPreview()).toMatch(/capabilities\.1: is not a known capability \(did you mean "tag\.list"\?\)/);
    writeProject((y) => y.replace("issuer: https://login.acme.example", "issuer: http://login.acme.example"));
    const badOidc = await failingPreview();
    expect(badOidc).toMatch(/oidc\.issuer: must be an https URL/);
    expect(badOidc).not.toContain(OIDC_SECRET);
    writeProject();

    // A parent's description changes in place: its children, which reference its uid, stay.
    writeProject((y) => y.replace("Builds the product.", "Builds and ships the product."));
    const update = await previewJson();
    expect(update.changeSummary).toEqual({ update: 1, same: 6 });
    await pulumi("up", "--yes", "--skip-preview");
    expect((await ctx.api.get(apiPath("groups", outputs.engineeringUid))).body.description).toBe("Builds and ships the product.");
    expect(JSON.parse(await pulumi("stack", "output", "--json")).engineeringUid).toBe(outputs.engineeringUid);

    // The invite's email forces a replacement, and the diff names only that field.
    writeProject((y) => y.replace("Builds the product.", "Builds and ships the product.").replace("new-hire@acme.example", "other-hire@acme.example"));
    const replace = await previewJson("--diff");
    expect(replace.changeSummary).toEqual({ replace: 1, same: 6 });
    const step = replace.steps.find((s: { op: string }) => s.op === "replace");
    expect(step.urn).toMatch(/irv:iam:GroupInvite::invite$/);
    expect(step.replaceReasons).toEqual(["email"]);
    expect(Object.keys(step.detailedDiff)).toEqual(["email"]);
    await pulumi("up", "--yes", "--skip-preview");
    expect((await previewJson("--expect-no-changes")).changeSummary).toEqual({ same: 7 });

    // `pulumi import` of a group made by hand, then the program that declares it previews no change.
    const made = await ctx.api.post(apiPath("groups", ctx.server.organization), { name: "legacy", description: "made by hand" });
    expect(made.status).toBeLessThan(300);
    await pulumi("import", "irv:iam:Group", "legacy", made.body.uid, "--yes", "--protect=false", "--out", path.join(base, "imported.yaml"));
    // The code `--out` writes declares exactly the inputs that reproduce the group.
    const code = readFileSync(path.join(base, "imported.yaml"), "utf8");
    expect(code).toContain("type: irv:iam:Group");
    for (const line of ["name: legacy", "description: made by hand", `parentUid: ${ctx.server.organization}`]) expect(code).toContain(line);
    for (const output of ["createTime", "updateTime", "verified", "uid:"]) expect(code).not.toContain(output);
    const legacy = `  legacy:\n    type: irv:iam:Group\n    properties:\n      parentUid: \${organization}\n      name: legacy\n      description: made by hand\n`;
    writeProject((y) =>
      y
        .replace("Builds the product.", "Builds and ships the product.")
        .replace("new-hire@acme.example", "other-hire@acme.example")
        .replace("resources:\n", `resources:\n${legacy}`),
    );
    expect((await previewJson("--expect-no-changes")).changeSummary).toEqual({ same: 8 });

    // Refresh after edits outside Pulumi: an edited description is read back (and the program
    // then wins it back as an update), a deleted invite leaves state (and is created again).
    const edited = await ctx.api.patch(apiPath("groups", made.body.uid), { description: "edited by hand" }, { updateMask: "description" });
    expect(edited.status).toBe(200);
    const inviteUid = JSON.parse(await pulumi("stack", "export")).deployment.resources.find((r: { urn: string }) => r.urn.endsWith("::invite")).id;
    expect((await ctx.api.del(apiPath("groupInvites", inviteUid))).status).toBeLessThan(300);
    await pulumi("refresh", "--yes", "--skip-preview");
    const refreshed = JSON.parse(await pulumi("stack", "export")).deployment.resources;
    expect(refreshed.find((r: { urn: string }) => r.urn.endsWith("::legacy")).outputs.description).toBe("edited by hand");
    expect(refreshed.some((r: { urn: string }) => r.urn.endsWith("::invite"))).toBe(false);
    expectOnlyClientSecretEncrypted("irv-platform");
    expect((await previewJson()).changeSummary).toEqual({ create: 1, update: 1, same: 6 });
    await pulumi("up", "--yes", "--skip-preview");
    expect((await ctx.api.get(apiPath("groups", made.body.uid))).body.description).toBe("made by hand");

    // The `import` resource option adopts a group made by hand into state, with no change to it.
    const byHand = await ctx.api.post(apiPath("groups", ctx.server.organization), { name: "adopted", description: "also by hand" });
    const adopted = `  adopted:\n    type: irv:iam:Group\n    properties:\n      parentUid: \${organization}\n      name: adopted\n      description: also by hand\n    options:\n      import: ${byHand.body.uid}\n`;
    writeProject((y) =>
      y
        .replace("Builds the product.", "Builds and ships the product.")
        .replace("new-hire@acme.example", "other-hire@acme.example")
        .replace("resources:\n", `resources:\n${legacy}${adopted}`),
    );
    expect((await previewJson()).changeSummary).toEqual({ import: 1, same: 8 });
    await pulumi("up", "--yes", "--skip-preview");
    expect((await previewJson("--expect-no-changes")).changeSummary).toEqual({ same: 9 });

    // An update inside the identity provider's oidc block: in place, and still only its secret encrypted.
    writeProject((y) =>
      y
        .replace("Builds the product.", "Builds and ships the product.")
        .replace("new-hire@acme.example", "other-hire@acme.example")
        .replace("resources:\n", `resources:\n${legacy}${adopted}`)
        .replace("clientId: irv-platform", "clientId: irv-platform-2"),
    );
    const ssoUpdate = await previewJson("--diff");
    expect(ssoUpdate.changeSummary).toEqual({ update: 1, same: 8 });
    expect(Object.keys(ssoUpdate.steps.find((s: { op: string }) => s.op === "update").detailedDiff)).toEqual(["oidc"]);
    await pulumi("up", "--yes", "--skip-preview");
    const ssoUid = JSON.parse(state()).checkpoint.latest.resources.find((r: { urn: string }) => r.urn.endsWith("::sso")).id;
    expect((await ctx.api.get(apiPath("identityProviders", ssoUid))).body.oidc.clientId).toBe("irv-platform-2");
    expectOnlyClientSecretEncrypted("irv-platform-2");
    expect((await previewJson("--expect-no-changes")).changeSummary).toEqual({ same: 9 });

    await pulumi("destroy", "--yes", "--skip-preview");
    expect((await ctx.api.get(apiPath("groups", byHand.body.uid))).status).toBe(404);
    expect((await ctx.api.get(apiPath("groups", outputs.engineeringUid))).status).toBe(404);
    expect((await ctx.api.get(apiPath("groups", made.body.uid))).status).toBe(404);
  });
  it("manages resources through an explicit provider instance with its own credentials", async () => {
    const { write, cli: inProject } = otherProject("explicit");
    write(
      "config:\n  organization:\n    type: string\n  apiUrl:\n    type: string\n  orgToken:\n    type: string\n    secret: true",
      "resources:",
      "  org:\n    type: pulumi:providers:irv\n    properties:\n      apiUrl: ${apiUrl}\n      token: ${orgToken}",
      "  team:\n    type: irv:iam:Group\n    properties:\n      parentUid: ${organization}\n      name: team\n    options:\n      provider: ${org}",
      // An invoke through the instance: the only provider here with settings.
      "variables:\n  viewer:\n    fn::invoke:\n      function: irv:iam:getRole\n      arguments:\n        name: viewer\n      options:\n        provider: ${org}\n      return: uid",
      "outputs:\n  teamUid: ${team.uid}\n  viewerUid: ${viewer}",
    );
    // No irv:* config and no IRV_* variables: only the provider instance's own inputs reach the API.
    await inProject("stack", "init", "explicit");
    await inProject("config", "set", "organization", ctx.server.organization);
    await inProject("config", "set", "apiUrl", ctx.server.url);
    await inProject("config", "set", "--secret", "orgToken", ctx.server.token);
    await inProject("up", "--yes", "--skip-preview");
    const { teamUid, viewerUid } = JSON.parse(await inProject("stack", "output", "--json"));
    expect((await ctx.api.get(apiPath("groups", teamUid))).body.name).toBe("team");
    expect(viewerUid).toBe((await listAll(ctx.api, "roles")).find((r) => r.name === "viewer").uid);
    expect(readFileSync(path.join(backend, ".pulumi", "stacks", "yaml-explicit", "explicit.json"), "utf8")).not.toContain(ctx.server.token);
    expect(JSON.parse(await inProject("preview", "--json", "--expect-no-changes")).changeSummary).toEqual({ same: 3 });
    await inProject("destroy", "--yes", "--skip-preview");
    expect((await ctx.api.get(apiPath("groups", teamUid))).status).toBe(404);
  });

  it("invokes every function with fn::invoke, answering with the API's data (another org's through an explicit provider), and names the arguments of a failed lookup and of a refused one", async () => {
    const org = ctx.server.organization;
    const team = (await ctx.api.post(apiPath("groups", org), { name: "fn-team", description: "found by a function" })).body;
    const claimMatch = { issuer: "https://token.actions.example.com", subject: "repo:acme/fn:ref:refs/heads/main" };
    const ci = (await ctx.api.post(apiPath("identities", team.uid), { name: "fn-ci", claimMatch })).body;
    const project = otherProject("functions");
    const inProject = project.cli;
    const invoke = (name: string, fn: string, args: string, ret?: string, provider?: string) =>
      `  ${name}:\n    fn::invoke:\n      function: ${fn}\n      arguments: ${args}\n${ret ? `      return: ${ret}\n` : ""}${provider ? `      options:\n        provider: \${${provider}}\n` : ""}`;
    const config = ["organization", "issuer", "subject", "elsewhereUrl", "elsewhereOrganization"].map((k) => `  ${k}:\n    type: string\n`).join("");
    // The default provider reads this org (the stack's irv:* config); `elsewhere`, an explicit instance, another.
    const elsewhereProvider =
      "resources:\n  elsewhere:\n    type: pulumi:providers:irv\n    properties:\n      apiUrl: ${elsewhereUrl}\n      token: ${elsewhereToken}";
    const write = (variables: string, outputs: string) =>
      project.write(
        `config:\n${config}  elsewhereToken:\n    type: string\n    secret: true`,
        elsewhereProvider,
        `variables:\n${variables}`,
        `outputs:\n${outputs}`,
      );
    write(
      [
        invoke("team", "irv:iam:getGroup", "{ name: fn-team, parentUid: '${organization}' }"),
        invoke("viewer", "irv:iam:getRole", "{ name: viewer }"),
        invoke("builtins", "irv:iam:getRoles", "{ builtin: true, orderBy: name }", "roles"),
        invoke("ci", "irv:iam:getIdentity", "{ issuer: '${issuer}', subject: '${subject}' }"),
        invoke("repos", "irv:registry:getRepos", "{ descendantsOf: '${organization}', orderBy: name }", "repos"),
        invoke("nginx", "irv:registry:getRepo", "{ name: nginx }"),
        invoke("latest", "irv:registry:getTags", "{ repoUid: '${nginx.uid}', name: latest }", "tags"),
        invoke("node", "irv:registry:getVersions", "{ package: nodejs }", "versions"),
        invoke("openssl", "irv:vulnerabilities:getAdvisories", "{ componentNames: [openssl] }", "advisories"),
        invoke("advisory", "irv:vulnerabilities:getAdvisory", "{ advisoryId: '${openssl[0].advisoryId}' }"),
        invoke("elsewhereOrg", "irv:iam:getGroup", "{ uid: '${elsewhereOrganization}' }", undefined, "elsewhere"),
      ].join(""),
      ["team", "viewer", "builtins", "ci", "repos", "nginx", "latest", "node", "openssl", "advisory", "elsewhereOrg"]
        .map((v) => `  ${v}: \${${v}}`)
        .join("\n") + "\n",
    );
    await inProject("stack", "init", "functions");
    await inProject("config", "set", "organization", org);
    await inProject("config", "set", "issuer", claimMatch.issuer);
    await inProject("config", "set", "subject", claimMatch.subject);
    await inProject("config", "set", "irv:apiUrl", ctx.server.url);
    await inProject("config", "set", "--secret", "irv:token", ctx.server.token);
    await inProject("config", "set", "elsewhereUrl", elsewhere.server.url);
    await inProject("config", "set", "elsewhereOrganization", elsewhere.server.organization);
    await inProject("config", "set", "--secret", "elsewhereToken", elsewhere.server.token);
    await inProject("up", "--yes", "--skip-preview");
    const out = JSON.parse(await inProject("stack", "output", "--json"));

    // Each value is what the API holds.
    expect(out.team).toMatchObject({ uid: team.uid, parentUid: org, name: "fn-team", description: "found by a function", createTime: team.createTime });
    const roles = await listAll(ctx.api, "roles");
    expect(out.viewer).toMatchObject({ uid: roles.find((r) => r.name === "viewer").uid, builtin: true });
    expect(out.builtins.map((r: { name: string }) => r.name)).toEqual(["editor", "owner", "registry.pull", "registry.push", "viewer"]);
    expect(out.ci).toMatchObject({ uid: ci.uid, groupUid: team.uid, name: "fn-ci", claimMatch });
    const repos = await listAll(ctx.api, "repos", { "uidp.descendants_of": org });
    expect(out.repos.map((r: { uid: string }) => r.uid).sort()).toEqual(repos.map((r) => r.uid).sort());
    expect(out.repos.map((r: { name: string }) => r.name)).toEqual(out.repos.map((r: { name: string }) => r.name).sort());
    const nginx = (await ctx.api.get(apiPath("repos", out.nginx.uid))).body;
    expect(out.nginx).toMatchObject({ name: "nginx", catalogTier: nginx.catalogTier, bundles: nginx.bundles, createTime: nginx.createTime });
    const latest = (await listAll(ctx.api, "tags", { "uidp.children_of": nginx.uid })).find((t) => t.name === "latest");
    expect(out.latest).toEqual([expect.objectContaining({ uid: latest.uid, digest: latest.digest })]);
    expect(out.node).toEqual((await ctx.api.get("/registry/v1/versions/nodejs")).body);
    const openssl = await listAll(ctx.api, "advisories", { componentNames: "openssl" });
    expect(out.openssl.map((a: { uid: string }) => a.uid).sort()).toEqual(openssl.map((a) => a.uid).sort());
    expect(out.advisory).toEqual(out.openssl[0]);
    expect((await ctx.api.get(apiPath("advisories", out.advisory.uid))).body.advisoryId).toBe(out.advisory.advisoryId);
    // The invoke through the explicit instance went to its API, with its credentials: the other org.
    expect(elsewhere.server.organization).not.toBe(org);
    expect(out.elsewhereOrg).toMatchObject({
      uid: elsewhere.server.organization,
      createTime: (await elsewhere.api.get(apiPath("groups", elsewhere.server.organization))).body.createTime,
    });

    // A lookup that finds nothing fails the preview, naming the function and its arguments.
    write(invoke("gone", "irv:iam:getGroup", "{ name: nobody, parentUid: '${organization}' }"), "  gone: ${gone.uid}\n");
    await expect(inProject("preview")).rejects.toThrow(`irv:iam:getGroup(name: "nobody", parentUid: "${org}"): no group named "nobody" under ${org}`);
    // An argument of the wrong type, or one the function does not take, is refused naming it.
    write(invoke("wrong", "irv:iam:getGroup", "{ uid: 5 }"), "  wrong: ${wrong.uid}\n");
    await expect(inProject("preview")).rejects.toThrow(/irv:iam:getGroup invoke failed: .*expected string, received number \(uid\)/);
    write(invoke("typo", "irv:iam:getGroup", "{ groupUid: '${organization}' }"), "  typo: ${typo.uid}\n");
    await expect(inProject("preview")).rejects.toThrow(/not an argument of irv:iam:getGroup \(its arguments: uid, name, parentUid\) \(groupUid\)/);
    write(invoke("nopkg", "irv:registry:getVersions", "{ package: '' }"), "  nopkg: ${nopkg.package}\n");
    await expect(inProject("preview")).rejects.toThrow(/irv:registry:getVersions invoke failed: .*>=1 characters \(package\)/);
    await inProject("destroy", "--yes", "--skip-preview");
  });
});
