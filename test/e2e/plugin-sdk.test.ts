import { execFile } from "node:child_process";
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINE_TIMEOUT, repoRoot } from "../support/engine";
import { createFolderProject, type FolderProject } from "../support/folder";
import { path as apiPath, useServer } from "../support/server";

const run = promisify(execFile);

const DYNAMIC = `import * as irv from "pulumi-irv";`;
const PLUGIN = `import * as irv from "pulumi-irv/plugin";`;
const OIDC_SECRET = "oidc-cs-5be08f1a";

/** A user's TypeScript program; `importLine` picks the SDK, `extra` adds declarations. */
const program = (importLine: string, { description = "Builds the product.", email = "new-hire@acme.example", extra = "" } = {}) => `
${importLine}
import * as pulumi from "@pulumi/pulumi";

const config = new pulumi.Config();
const org = config.require("organization");
const eng = new irv.iam.Group("eng", { parentUid: org, name: "engineering", description: "${description}" });
const ci = new irv.iam.Identity("ci", { groupUid: eng.uid, name: "ci-0",
  claimMatch: { issuer: "https://token.actions.githubusercontent.com", subject: "repo:acme/product:ref:refs/heads/main" } });
const releaser = new irv.iam.Role("releaser", { groupUid: eng.uid, name: "releaser", capabilities: ["repo.list", "tag.list"] });
new irv.iam.RoleBinding("ci-releases", { groupUid: eng.uid, identityUid: ci.uid, roleUid: releaser.uid });
new irv.iam.IdentityProvider("sso", { groupUid: eng.uid, name: "acme-sso", defaultRoleUid: releaser.uid,
  oidc: { issuer: "https://login.acme.example", clientId: "irv-platform", clientSecret: config.requireSecret("oidcClientSecret") } });
const invite = new irv.iam.GroupInvite("invite", { groupUid: eng.uid, roleUid: releaser.uid, email: "${email}", ttl: "86400s" });
${extra}
export const engUid = eng.uid;
export const inviteCode = invite.code;
`;

/** The tsconfig of Pulumi's TypeScript template (module resolution "node", which ignores package exports). */
const TSCONFIG = {
  compilerOptions: {
    strict: true,
    outDir: "bin",
    target: "es2020",
    module: "commonjs",
    moduleResolution: "node",
    sourceMap: true,
    experimentalDecorators: true,
    pretty: false,
    noFallthroughCasesInSwitch: true,
    noImplicitReturns: true,
    forceConsistentCasingInFileNames: true,
    skipLibCheck: true,
    typeRoots: [path.join(repoRoot, "node_modules", "@types")],
    types: ["node"],
  },
  files: ["index.ts"],
};

interface StateResource {
  urn: string;
  type: string;
  id?: string;
  outputs?: Record<string, unknown>;
}

// The packed package installed into a user's project, its TypeScript program compiled with tsc,
// the plugin found through `plugins.providers[].path: node_modules/pulumi-irv/bin` (relative to the
// project, as the README says). One import line moves the stack between the dynamic classes and
// the plugin-backed SDK, and the plugin SDK then runs the whole lifecycle, `pulumi import` included.
describe("the plugin-backed TypeScript SDK (pulumi-irv/plugin) in a user's project", { timeout: ENGINE_TIMEOUT }, () => {
  const ctx = useServer();
  const dir = mkdtempSync(path.join(tmpdir(), "irv-plugin-sdk-user-"));
  let p: FolderProject;

  /** Writes index.ts and compiles it: a type error fails the test, as it fails the user's build. */
  const compile = async (source: string) => {
    writeFileSync(path.join(dir, "index.ts"), source);
    await run(process.execPath, [path.join(repoRoot, "node_modules", "typescript", "bin", "tsc"), "-p", dir], { maxBuffer: 16 << 20 }).catch((e) => {
      throw new Error(`tsc: ${e.stdout}${e.stderr}`);
    });
  };
  const previewJson = async (...args: string[]) => JSON.parse(await p.pulumi("preview", "--json", ...args));
  const resources = async (): Promise<StateResource[]> =>
    (JSON.parse(await p.pulumi("stack", "export")).deployment.resources as StateResource[]).filter((r) => !r.type.startsWith("pulumi:"));
  /** The API requests made while `fn` ran, as `METHOD path`, GETs left out. */
  const writesDuring = async (fn: () => Promise<unknown>) => {
    const from = ctx.server.requests.length;
    await fn();
    return ctx.server.requests
      .slice(from)
      .filter((r) => r.method !== "GET")
      .map((r) => `${r.method} ${r.path}`);
  };

  beforeAll(async () => {
    const { stdout } = await run("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", dir], { cwd: repoRoot, maxBuffer: 16 << 20 });
    const [packed] = JSON.parse(stdout) as { filename: string }[];
    writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "user-project", private: true }));
    await run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", path.join(dir, packed.filename)], { cwd: dir, maxBuffer: 16 << 20 });
    writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify(TSCONFIG, null, 2));
    p = await createFolderProject({ dir, main: "bin/index.js", server: ctx.server, config: { organization: ctx.server.organization } });
    await p.pulumi("config", "set", "--secret", "oidcClientSecret", OIDC_SECRET);
    // An explicit provider's own settings (the same server here: the instance is what is tested).
    await p.pulumi("config", "set", "orgBUrl", ctx.server.url);
    await p.pulumi("config", "set", "--secret", "orgBToken", ctx.server.token);
    // Where the engine finds pulumi-resource-irv: the installed package's bin folder.
    appendFileSync(path.join(dir, "Pulumi.yaml"), "plugins:\n  providers:\n    - name: irv\n      path: node_modules/pulumi-irv/bin\n");
  }, ENGINE_TIMEOUT);
  afterAll(() => {
    p?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it("moves a stack from the dynamic classes to the plugin by changing the import line, recreating nothing", async () => {
    await compile(program(DYNAMIC));
    await p.pulumi("up", "--yes", "--skip-preview");
    const before = await resources();
    expect(before.map((r) => r.type).sort()).toEqual(
      ["Group", "GroupInvite", "Identity", "IdentityProvider", "Role", "RoleBinding"].map((c) => `pulumi-nodejs:dynamic/irv:${c}`),
    );

    await compile(program(PLUGIN));
    const writes = await writesDuring(async () => {
      expect((await previewJson("--diff")).changeSummary).toEqual({ same: 7 });
      await p.pulumi("up", "--yes", "--skip-preview");
    });
    expect(writes).toEqual([]);

    const after = await resources();
    expect(after.map((r) => r.type).sort()).toEqual(["Group", "GroupInvite", "Identity", "IdentityProvider", "Role", "RoleBinding"].map((c) => `irv:iam:${c}`));
    const idOf = (rs: StateResource[], name: string) => rs.find((r) => r.urn.endsWith(`::${name}`))?.id;
    for (const r of before) {
      const name = r.urn.split("::").pop()!;
      expect(idOf(after, name), name).toBe(r.id);
    }
    const outputs = JSON.parse(await p.pulumi("stack", "output", "--json", "--show-secrets"));
    expect(outputs.engUid).toBe(idOf(before, "eng"));
    const state = await p.pulumi("stack", "export");
    for (const plaintext of [outputs.inviteCode, OIDC_SECRET, ctx.server.token]) expect(state).not.toContain(plaintext);
    expect((await previewJson("--expect-no-changes")).changeSummary).toEqual({ same: 7 });

    // The outputs keep the dynamic classes' hidden __provider until the plugin writes them: a
    // refresh reads every resource through the plugin, drops it, and changes nothing.
    expect(state).toContain("__provider");
    await p.pulumi("refresh", "--yes", "--skip-preview");
    const refreshed = await p.pulumi("stack", "export");
    expect(refreshed).not.toContain("__provider");
    for (const plaintext of [outputs.inviteCode, OIDC_SECRET, ctx.server.token]) expect(refreshed).not.toContain(plaintext);
    expect(JSON.parse(await p.pulumi("stack", "output", "--json", "--show-secrets"))).toEqual(outputs);
    expect((await previewJson("--expect-no-changes")).changeSummary).toEqual({ same: 7 });
  });

  it("updates in place, replaces only on the field that forces it, imports, moves back to the dynamic classes, and creates from nothing with an explicit provider", async () => {
    const engUid = JSON.parse(await p.pulumi("stack", "output", "engUid", "--json"));

    // The parent's description changes in place; its children, which reference its uid, stay.
    await compile(program(PLUGIN, { description: "Builds and ships the product." }));
    expect((await previewJson()).changeSummary).toEqual({ update: 1, same: 6 });
    await p.pulumi("up", "--yes", "--skip-preview");
    expect((await ctx.api.get(apiPath("groups", engUid))).body.description).toBe("Builds and ships the product.");

    // The invite's email forces a replacement, and the detailed diff names only that field.
    await compile(program(PLUGIN, { description: "Builds and ships the product.", email: "other-hire@acme.example" }));
    const replace = await previewJson("--diff");
    expect(replace.changeSummary).toEqual({ replace: 1, same: 6 });
    const step = replace.steps.find((s: { op: string }) => s.op === "replace");
    expect(step.urn).toMatch(/irv:iam:GroupInvite::invite$/);
    expect(step.replaceReasons).toEqual(["email"]);
    await p.pulumi("up", "--yes", "--skip-preview");

    // `pulumi import` of a group made by hand; declared in the program, it previews no change. (The
    // TypeScript that import prints comes from the node language host, and the one built here,
    // v3.68, cannot generate programs: the test writes the declaration.)
    const made = await ctx.api.post(apiPath("groups", ctx.server.organization), { name: "legacy", description: "made by hand" });
    expect(made.status).toBeLessThan(300);
    const imported = await writesDuring(() =>
      p.pulumi("import", "irv:iam:Group", "legacy", made.body.uid, "--yes", "--protect=false", "--generate-code=false"),
    );
    expect(imported).toEqual([]);
    const legacy = (await resources()).find((r) => r.urn.endsWith("::legacy"))!;
    expect(legacy).toMatchObject({ type: "irv:iam:Group", id: made.body.uid, outputs: { name: "legacy", description: "made by hand" } });
    const legacyDecl = `new irv.iam.Group("legacy", { parentUid: org, name: "legacy", description: "made by hand" });`;
    const last = { description: "Builds and ships the product.", email: "other-hire@acme.example" };
    await compile(program(PLUGIN, { ...last, extra: legacyDecl }));
    expect((await previewJson("--expect-no-changes")).changeSummary).toEqual({ same: 8 });

    // The `import` resource option adopts another one into state, writing nothing to the API.
    const byHand = await ctx.api.post(apiPath("groups", ctx.server.organization), { name: "adopted", description: "also by hand" });
    const adoptedDecl = `new irv.iam.Group("adopted", { parentUid: org, name: "adopted", description: "also by hand" }`;
    await compile(program(PLUGIN, { ...last, extra: `${legacyDecl}\n${adoptedDecl}, { import: "${byHand.body.uid}" });` }));
    const adopting = await writesDuring(async () => {
      expect((await previewJson()).changeSummary).toEqual({ import: 1, same: 8 });
      await p.pulumi("up", "--yes", "--skip-preview");
    });
    expect(adopting).toEqual([]);
    const declared = `${legacyDecl}\n${adoptedDecl});`;
    await compile(program(PLUGIN, { ...last, extra: declared }));
    expect((await previewJson("--expect-no-changes")).changeSummary).toEqual({ same: 9 });

    // And back to the dynamic classes, also by the import line. Every resource's state is now the
    // plugin's (refreshed, updated, replaced or imported through it): each is updated once, to put
    // the dynamic provider's `__provider` back into its state. Nothing is written to the API.
    const moving = JSON.parse(await p.pulumi("stack", "output", "--json", "--show-secrets"));
    const ids = new Map((await resources()).map((r) => [r.urn.split("::").pop(), r.id]));
    await compile(program(DYNAMIC, { ...last, extra: declared }));
    const back = await writesDuring(async () => {
      const preview = await previewJson();
      expect(preview.changeSummary).toEqual({ update: 8, same: 1 });
      await p.pulumi("up", "--yes", "--skip-preview");
    });
    expect(back).toEqual([]);
    const dynamic = await resources();
    expect(new Set(dynamic.map((r) => r.type.replace(/:[A-Za-z]+$/, "")))).toEqual(new Set(["pulumi-nodejs:dynamic/irv"]));
    for (const r of dynamic) expect(r.id).toBe(ids.get(r.urn.split("::").pop()));
    expect(JSON.parse(await p.pulumi("stack", "output", "--json", "--show-secrets"))).toEqual(moving);
    expect((await previewJson("--expect-no-changes")).changeSummary).toEqual({ same: 9 });

    // The dynamic classes destroy what the plugin managed.
    await p.pulumi("destroy", "--yes", "--skip-preview");
    for (const uid of [engUid, made.body.uid, byHand.body.uid]) expect((await ctx.api.get(apiPath("groups", uid))).status).toBe(404);

    // From nothing: the same program previews and applies its creates through the plugin, plus a
    // group through an explicit provider instance that has its own settings (no irv:* config).
    const explicit = `const orgB = new irv.Provider("org-b", { apiUrl: config.require("orgBUrl"), token: config.requireSecret("orgBToken") });
const team = new irv.iam.Group("team", { parentUid: org, name: "team" }, { provider: orgB });
export const teamUid = team.uid;
// Data sources through the plugin's functions: by the default provider and by the explicit one.
export const releaserCaps = irv.iam.getRoleOutput({ uid: releaser.uid }).capabilities;
export const teamName = irv.iam.getGroupOutput({ uid: team.uid }, { provider: orgB }).name;`;
    await compile(program(PLUGIN, { extra: explicit }));
    expect((await previewJson()).changeSummary).toEqual({ create: 9 });
    await p.pulumi("up", "--yes", "--skip-preview");
    const fresh = JSON.parse(await p.pulumi("stack", "output", "engUid", "--json"));
    expect((await ctx.api.get(apiPath("groups", fresh))).body.name).toBe("engineering");
    const teamUid = JSON.parse(await p.pulumi("stack", "output", "teamUid", "--json"));
    expect((await ctx.api.get(apiPath("groups", teamUid))).body.name).toBe("team");
    expect(JSON.parse(await p.pulumi("stack", "output", "releaserCaps", "--json"))).toEqual(["repo.list", "tag.list"]);
    expect(JSON.parse(await p.pulumi("stack", "output", "teamName", "--json"))).toBe("team");
    expect(await p.pulumi("stack", "export")).not.toContain(ctx.server.token);
    await p.pulumi("destroy", "--yes", "--skip-preview");
    for (const uid of [fresh, teamUid]) expect((await ctx.api.get(apiPath("groups", uid))).status).toBe(404);
  });
});
