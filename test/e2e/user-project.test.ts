import { execFile, spawn } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import semver from "semver";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINE_TIMEOUT, repoRoot } from "../support/engine";
import { createFolderProject } from "../support/folder";
import { path as apiPath, useServer } from "../support/server";
import { nodeFromRegistry, packPackages, pnpmFromRegistry, userProject, type Packed, type UserProject } from "../support/user-project";

const run = promisify(execFile);
const rootPkg = JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8"));
const readme = readFileSync(path.join(repoRoot, "README.md"), "utf8");

/** The first ```<lang> block of the README section `heading`, verbatim. */
function readmeBlock(heading: string, lang: string): string {
  const section = readme.slice(readme.indexOf(`\n## ${heading}\n`));
  const m = new RegExp("```" + lang + "\\n([\\s\\S]*?)```").exec(section);
  if (!m) throw new Error(`README.md: no ${lang} block under "## ${heading}"`);
  return m[1];
}

/** A small program in plain JavaScript: one group, its uid as the output `eng`. */
const SMALL_PROGRAM = `
const pulumi = require("@pulumi/pulumi");
const irv = require("pulumi-irv");
const eng = new irv.iam.Group("eng", { parentUid: new pulumi.Config().require("organization"), name: "engineering" });
exports.eng = eng.uid;
`;

const INSTALL_SCRIPTS = ["preinstall", "install", "postinstall", "prepare"];

// The packages as a user gets them: `npm pack`, installed by npm into a fresh `npm init -y`
// project in the temp dir (outside the clone), run by the plain pulumi CLI.
describe("pulumi-irv in a user's project", { timeout: ENGINE_TIMEOUT }, () => {
  const ctx = useServer();
  const work = mkdtempSync(path.join(tmpdir(), "irv-packed-"));
  let packed: Packed;
  const projects: { dispose(): void }[] = [];
  beforeAll(async () => {
    packed = await packPackages(work);
  }, ENGINE_TIMEOUT);
  afterAll(() => {
    for (const p of projects) p.dispose();
    rmSync(work, { recursive: true, force: true });
  });
  const project = async (installs: string[][], pathFirst: string[] = []): Promise<UserProject> => {
    const u = await userProject(installs, pathFirst);
    projects.push(u);
    return u;
  };
  /** `pulumi up` of `program` in `u` against the test server; the group it made exists. */
  const applies = async (u: UserProject, file: string, program: string, opts: { typescript?: boolean; path?: string[] } = {}) => {
    writeFileSync(path.join(u.dir, file), program);
    const p = await createFolderProject({ dir: u.dir, main: file, server: ctx.server, config: { organization: ctx.server.organization }, ...opts });
    projects.push(p);
    await p.pulumi("up", "--yes", "--skip-preview");
    const state = JSON.parse(await p.pulumi("stack", "export"));
    const eng = (state.deployment.resources as { urn: string; outputs: { uid: string } }[]).find((r) => r.urn.endsWith("::eng"))!;
    expect((await ctx.api.get(apiPath("groups", eng.outputs.uid))).body.name).toBe("engineering");
    return p;
  };
  /** One copy of the SDK: pulumi-irv uses the project's. */
  const oneSdk = (u: UserProject) => expect(u.installed("@pulumi/pulumi", "pulumi-irv")).toBeUndefined();

  it("packs with no install script, and without the server or its dependencies", () => {
    const sdk = rootPkg;
    const server = JSON.parse(readFileSync(path.join(repoRoot, "packages", "irv-server", "package.json"), "utf8"));
    for (const pkg of [sdk, server]) for (const s of INSTALL_SCRIPTS) expect(pkg.scripts?.[s], `${pkg.name}: scripts.${s}`).toBeUndefined();
    expect(Object.keys(sdk.dependencies)).not.toContain("fastify");
    expect(packed.files["pulumi-irv"].filter((f) => f.startsWith("dist/server/"))).toEqual([]);
    expect(packed.files["irv-server"]).toContain("dist/server/cli.js");
  });

  it("irv-server's package.json names every package its compiled files require", () => {
    const required = new Set<string>();
    const walk = (dir: string) => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        const f = path.join(dir, e.name);
        if (e.isDirectory()) walk(f);
        else if (f.endsWith(".js"))
          for (const m of readFileSync(f, "utf8").matchAll(/require\("([^".][^"]*)"\)/g))
            if (!m[1].startsWith("node:")) required.add(m[1].startsWith("@") ? m[1].split("/").slice(0, 2).join("/") : m[1].split("/")[0]);
      }
    };
    walk(path.join(repoRoot, "packages", "irv-server", "dist"));
    const server = JSON.parse(readFileSync(path.join(repoRoot, "packages", "irv-server", "package.json"), "utf8"));
    expect([...required].filter((n) => !(n in server.dependencies))).toEqual([]);
    expect(required.has("fastify")).toBe(true);
  });

  it("runs the README's first program, as written, in a fresh project with the steps the README gives", async () => {
    // README: npm init -y; npm install <tarball> @pulumi/pulumi; npm install --save-dev typescript@~5.9.
    expect(readmeBlock("Your first program", "sh")).toContain(
      "npm install <path to>/pulumi-irv-0.1.0.tgz @pulumi/pulumi\nnpm install --save-dev typescript@~5.9\n",
    );
    const u = await project([
      [packed.sdk, "@pulumi/pulumi"],
      ["--save-dev", "typescript@~5.9"],
    ]);
    for (const w of u.warnings) expect(w).not.toMatch(/install-scripts.*pulumi-irv|EBADENGINE/);
    expect(u.installed("fastify")).toBeUndefined();
    oneSdk(u);
    expect(readmeBlock("Your first program", "yaml")).toContain("main: index.ts");
    await applies(u, "index.ts", readmeBlock("Your first program", "ts"), { typescript: true });
  });

  it(`works with the bottom of its @pulumi/pulumi range (${rootPkg.dependencies["@pulumi/pulumi"]})`, async () => {
    const bottom = semver.minVersion(rootPkg.dependencies["@pulumi/pulumi"])!.version;
    const u = await project([[packed.sdk, `@pulumi/pulumi@${bottom}`]]);
    expect(u.installed("@pulumi/pulumi")!.version).toBe(bottom);
    oneSdk(u);
    await applies(u, "index.js", SMALL_PROGRAM);
  });

  // The newest @pulumi/pulumi asks for Node 22 or newer: npm picks it there, the program runs there.
  for (const major of [22, 24])
    it(`works with the newest @pulumi/pulumi, as npm picks it on Node ${major}`, async () => {
      const newest = (await run("npm", ["view", "@pulumi/pulumi", "version"])).stdout.trim();
      expect(semver.satisfies(newest, rootPkg.dependencies["@pulumi/pulumi"])).toBe(true);
      const node = await nodeFromRegistry(major, work);
      const u = await project([[packed.sdk, "@pulumi/pulumi"]], [node]);
      expect(u.installed("@pulumi/pulumi")!.version).toBe(newest);
      oneSdk(u);
      const p = await applies(u, "index.js", SMALL_PROGRAM, { path: [node] });
      expect((await run("node", ["--version"], { env: p.env })).stdout).toMatch(new RegExp(`^v${major}\\.`));
    });

  it("runs the README's first program after the README's pnpm steps, run as written with pnpm from the npm registry", async () => {
    const pnpmBin = await pnpmFromRegistry(work);
    const section = readme.slice(readme.indexOf("\n## Your first program\n"));
    const steps = /```sh\n(pnpm init\n[\s\S]*?)```/.exec(section)![1].trim().split("\n");
    expect(steps[0]).toBe("pnpm init");
    const dir = mkdtempSync(path.join(tmpdir(), "irv-pnpm-project-"));
    projects.push({ dispose: () => rmSync(dir, { recursive: true, force: true }) });
    // `pnpm init` would pin pnpm itself in `packageManager`, and the next step would then resolve
    // pnpm's own binaries for every platform from the registry, which here lacks some of them (a
    // 404 for @pnpm/exe.netbsd-x64 failed the step whenever pnpm's cache held its metadata). Which
    // pnpm a project pins is not what this test checks: the README's steps and program are.
    const env = { ...process.env, PATH: [pnpmBin, process.env.PATH].join(path.delimiter), PNPM_CONFIG_INIT_PACKAGE_MANAGER: "false" };
    for (const step of steps) {
      const [cmd, ...args] = step.replace("<path to>", path.dirname(packed.sdk)).split(" ");
      await run(cmd, args, { cwd: dir, env, maxBuffer: 16 << 20 });
    }
    const pkg = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8"));
    expect(pkg.type).toBeUndefined();
    expect(JSON.parse(readFileSync(path.join(dir, "node_modules", "typescript", "package.json"), "utf8")).version).toMatch(/^5\./);
    await applies({ dir } as UserProject, "index.ts", readmeBlock("Your first program", "ts"), { typescript: true });
  });

  it("installs with npm ci from a checkout holding what docs/drift-in-ci.md says to commit (the tarball in vendor/)", async () => {
    const doc = readFileSync(path.join(repoRoot, "docs", "drift-in-ci.md"), "utf8");
    const vendorStep = "mkdir -p vendor && cp <path to>/pulumi-irv-0.1.0.tgz vendor/";
    const installStep = "npm install ./vendor/pulumi-irv-0.1.0.tgz";
    expect(doc).toContain(`\`${vendorStep}\``);
    expect(doc).toContain(`\`${installStep}\``);
    expect(doc).toContain("commit `vendor/`, `package.json` and\n  `package-lock.json`");
    const u = await project([]);
    await run("sh", ["-c", vendorStep.replace("<path to>", path.dirname(packed.sdk))], { cwd: u.dir });
    await run("sh", ["-c", `${installStep} --no-audit --no-fund --prefer-offline`], { cwd: u.dir });
    // A fresh checkout: the committed files only.
    const checkout = mkdtempSync(path.join(tmpdir(), "irv-checkout-"));
    projects.push({ dispose: () => rmSync(checkout, { recursive: true, force: true }) });
    for (const f of ["package.json", "package-lock.json", "vendor"]) cpSync(path.join(u.dir, f), path.join(checkout, f), { recursive: true });
    await run("npm", ["ci", "--no-audit", "--no-fund", "--prefer-offline"], { cwd: checkout, maxBuffer: 16 << 20 });
    expect((await run("npx", ["irv", "--version"], { cwd: checkout })).stdout).toBe(`irv ${rootPkg.version} (pulumi-irv)\n`);
  });

  it("npx irv-server serves from irv-server's tarball, and stops when the npx wrapper is killed", async () => {
    const u = await project([["--save-dev", packed.server]]);
    const child = spawn("npx", ["irv-server", "--port", "0", "--quiet"], { cwd: u.dir, stdio: ["ignore", "pipe", "inherit"] });
    const exited = new Promise((resolve) => child.on("exit", resolve));
    let out = "";
    for await (const chunk of child.stdout) {
      out += chunk;
      if (out.includes("\n")) break;
    }
    const start = JSON.parse(out) as { url: string; token: string; organization: string };
    const groups = () => fetch(`${start.url}/iam/v2beta1/groups/${start.organization}`, { headers: { authorization: `Bearer ${start.token}` } });
    expect((await groups()).status).toBe(200);
    child.kill("SIGTERM");
    await exited;
    // npm forwards the signal to the `sh -c` it ran the bin with, which does not pass it on; the
    // server notices its parent is gone and stops: its port refuses connections.
    for (;;) {
      const refused = await groups().then(
        () => false,
        () => true,
      );
      if (refused) break;
      await new Promise((r) => setTimeout(r, 100));
    }
  });
});
