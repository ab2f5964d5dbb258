import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ENGINE_TIMEOUT, createStack, loadSdk, repoRoot, serializedProviders, type TestStack } from "../support/engine";
import { useServer } from "../support/server";

/** The provider module the repository builds; both "installed versions" below delegate to it. */
const BUILT_PROVIDER = path.join(repoRoot, "dist", "provider", "index.js");

/** Version 1 of the installed package's provider: the built one, as is. */
const V1 = `module.exports = require(${JSON.stringify(BUILT_PROVIDER)});\n`;

/**
 * Version 2: the same provider, but every method call is appended to `log`, so the test sees which
 * code the engine ran.
 */
const v2 = (log: string) => `const real = require(${JSON.stringify(BUILT_PROVIDER)});
const note = (name) => require("node:fs").appendFileSync(${JSON.stringify(log)}, name + "\\n");
function traced(target, prefix, depth) {
  return new Proxy(target, {
    get(t, key) {
      const value = t[key];
      if (typeof key !== "string") return value;
      if (typeof value !== "function") return value && typeof value === "object" && depth < 3 ? traced(value, prefix + key + ".", depth + 1) : value;
      return function (...args) {
        note(prefix + key);
        const result = value.apply(t, args);
        // What a call returns (e.g. the methods connect() hands the shim) is traced too.
        return result && typeof result === "object" && typeof result.then !== "function" && depth < 3
          ? traced(result, prefix + key + "().", depth + 1)
          : result;
      };
    },
  });
}
module.exports = traced(real, "", 0);
`;

/**
 * A node_modules where `pulumi-irv` is an installed copy whose provider entry we can rewrite, and
 * everything else links to the repository's.
 */
function installedPackage(dir: string) {
  const nodeModules = path.join(dir, "node_modules");
  mkdirSync(nodeModules, { recursive: true });
  const repoModules = path.join(repoRoot, "node_modules");
  for (const entry of readdirSync(repoModules)) {
    if (entry !== "pulumi-irv") symlinkSync(path.join(repoModules, entry), path.join(nodeModules, entry));
  }
  const pkg = path.join(nodeModules, "pulumi-irv");
  mkdirSync(pkg);
  writeFileSync(path.join(pkg, "package.json"), JSON.stringify({ name: "pulumi-irv", version: "0.1.0", exports: { "./provider": "./provider.js" } }));
  const install = (source: string) => writeFileSync(path.join(pkg, "provider.js"), source);
  install(V1);
  return { nodeModules, install };
}

// Scenario 8: refresh and destroy run the provider code installed now, not code frozen in state,
// because the serialized shim only names the package.
describe("upgrading the installed package under an existing stack", { timeout: ENGINE_TIMEOUT }, () => {
  const ctx = useServer();
  const dir = mkdtempSync(path.join(tmpdir(), "irv-upgrade-"));
  let t: TestStack | undefined;
  afterAll(async () => {
    await t?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it("refreshes and destroys with the new code, and the shim in state stays tiny", async () => {
    const { nodeModules, install } = installedPackage(dir);
    const log = path.join(dir, "calls.log");
    const irv = loadSdk();
    const org = ctx.server.organization;
    t = await createStack({
      stackName: "upgrade",
      server: ctx.server,
      nodeModules,
      program: async () => {
        const app = new irv.iam.Group("app", { parentUid: org, name: "app" });
        const role = new irv.iam.Role("app-reader", { groupUid: app.uid, name: "app-reader", capabilities: ["repo.list"] });
        return { app: app.uid, role: role.uid };
      },
    });
    const up = await t.stack.up();
    expect(existsSync(log)).toBe(false);

    const shims = serializedProviders(await t.exportState());
    expect([...shims.keys()].sort()).toEqual(["app", "app-reader"]);
    for (const [name, shim] of shims) {
      console.log(`__provider of ${name}: ${Buffer.byteLength(shim)} bytes`);
      expect(Buffer.byteLength(shim)).toBeLessThan(4096);
      expect(shim).toContain("pulumi-irv/provider");
      expect(shim).not.toMatch(/undici|zod|updateMask/);
    }

    install(v2(log));
    const refresh = await t.stack.refresh();
    expect(refresh.summary.resourceChanges).toEqual({ same: 3 });
    const afterRefresh = readFileSync(log, "utf8").split("\n").filter(Boolean);
    expect(afterRefresh.filter((c) => /read/i.test(c)).length).toBeGreaterThanOrEqual(2);

    await t.stack.destroy();
    const calls = readFileSync(log, "utf8").split("\n").filter(Boolean).slice(afterRefresh.length);
    expect(calls.filter((c) => /delete/i.test(c)).length).toBeGreaterThanOrEqual(2);
    expect((await ctx.api.get(`/iam/v2beta1/groups/${up.outputs.app.value}`)).status).toBe(404);
  });
});
