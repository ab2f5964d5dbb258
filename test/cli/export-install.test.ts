import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packageSpec } from "../../cli/export";
import { npmrcFor } from "../../cli/export/package-spec";
import { ENGINE_TIMEOUT, repoRoot } from "../support/engine";
import { path as apiPath, startTestServer, type TestServer } from "../support/server";
import { runIrv } from "../support/cli";

const run = promisify(execFile);
const version = (JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { version: string }).version;

// `irv export` writes a package.json whose pulumi-irv dependency `npm install` can satisfy: the
// one the user names with --package-spec (here an `npm pack` tarball of this repository), or by
// default where this copy came from.
describe("the package.json irv export writes", () => {
  it("takes a version, a tarball, a folder or any npm spec; defaults to this checkout", () => {
    expect(packageSpec("0.1.0")).toBe("0.1.0");
    expect(packageSpec("^0.1")).toBe("^0.1");
    expect(packageSpec("npm:pulumi-irv@0.1.0")).toBe("npm:pulumi-irv@0.1.0");
    expect(packageSpec(".", repoRoot)).toBe(`file:${repoRoot}`);
    expect(() => packageSpec(" ")).toThrow(/--package-spec: must not be empty/);
    // Run from a checkout (as here): the checkout, installed as a copy (.npmrc install-links).
    expect(packageSpec(undefined)).toBe(`file:${repoRoot}`);
    expect(npmrcFor(`file:${repoRoot}`)).toBe("install-links=true\n");
    expect(npmrcFor(`^${version}`)).toBeUndefined();
  });

  it("defaults, for an installed copy, to what its project's lockfile says it came from, and never guesses a registry range", () => {
    const project = mkdtempSync(path.join(tmpdir(), "irv-installed-"));
    try {
      const root = path.join(project, "node_modules", "pulumi-irv");
      mkdirSync(root, { recursive: true });
      const own = { root, version: "0.1.0" };
      const lock = (resolved: string) =>
        writeFileSync(
          path.join(project, "node_modules", ".package-lock.json"),
          JSON.stringify({ packages: { "node_modules/pulumi-irv": { version: "0.1.0", resolved } } }),
        );
      // No record of where it came from: refuse, naming the option.
      expect(() => packageSpec(undefined, project, own)).toThrow(/--package-spec: cannot tell where this copy of pulumi-irv was installed from/);
      lock("file:vendor/pulumi-irv-0.1.0.tgz");
      expect(packageSpec(undefined, project, own)).toBe(`file:${path.join(project, "vendor", "pulumi-irv-0.1.0.tgz")}`);
      lock("https://registry.example/pulumi-irv/-/pulumi-irv-0.1.0.tgz");
      expect(packageSpec(undefined, project, own)).toBe("0.1.0");
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  });

  describe("installed with npm", { timeout: ENGINE_TIMEOUT }, () => {
    let srv: TestServer;
    let work: string;
    beforeAll(async () => {
      srv = await startTestServer();
      work = mkdtempSync(path.join(tmpdir(), "irv-export-install-"));
    });
    afterAll(async () => {
      await srv?.close();
      if (work) rmSync(work, { recursive: true, force: true });
    });

    it("npm install works in the exported folder with a tarball --package-spec, and the program compiles", async () => {
      const team = await srv.api.post(apiPath("groups", srv.server.organization), { name: "team" });
      expect(team.status).toBe(200);
      await srv.api.post(apiPath("identities", team.body.uid), { name: "ci-0", servicePrincipal: "SERVICE_PRINCIPAL_INGESTER" });
      // dist/ is built by `npm test`: pack it without running prepack (the build) again.
      const packed = JSON.parse((await run("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", work], { cwd: repoRoot })).stdout);
      const tarball = path.join(work, packed[0].filename);

      const out = path.join(work, "team");
      const exported = await runIrv(
        ["export", "--group", team.body.uid, "--out", out, "--api-url", srv.server.url, "--package-spec", path.relative(repoRoot, tarball)],
        { IRV_TOKEN: srv.server.token },
      );
      expect(exported.code, exported.stderr).toBe(0);
      const pkg = JSON.parse(readFileSync(path.join(out, "package.json"), "utf8"));
      expect(pkg.dependencies["pulumi-irv"]).toBe(`file:${tarball}`);
      // npm reads overrides from the root package only: the export repeats pulumi-irv's own.
      expect(pkg.overrides).toEqual(JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")).overrides);

      const install = await run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline"], { cwd: out, maxBuffer: 16 << 20 });
      expect(install.stderr).not.toMatch(/ERR!/);
      const installed = JSON.parse(readFileSync(path.join(out, "node_modules", "pulumi-irv", "package.json"), "utf8"));
      expect(installed.version).toBe(version);
      // The generated program type-checks against what was installed.
      await run(path.join(out, "node_modules", ".bin", "tsc"), ["--noEmit", "-p", out], { cwd: out });
      const loaded = await run(process.execPath, ["-e", 'console.log(typeof require("pulumi-irv").iam.Identity)'], { cwd: out });
      expect(loaded.stdout.trim()).toBe("function");
    });
  });
});
