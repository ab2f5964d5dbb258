/**
 * The platform's Terraform provider bridged into Pulumi, for bench/terraform.ts: what a Pulumi user
 * gets from `pulumi package add terraform-provider chainguard-dev/chainguard`. The Terraform
 * bridge's dynamic plugin (`pulumi-resource-terraform-provider`) and the provider binary come from
 * scripts/ensure-terraform-bridge (built once per machine); the provider's TypeScript SDK, as
 * `pulumi package add <plugin> <provider>` writes it, is generated once per machine and CLI and
 * kept beside them (generateSdk), and the program here declares the org with it, as a user's would.
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import type { PulumiFn } from "@pulumi/pulumi/automation";
import { createStack, nodeRequire, pulumiBinDir, pulumiEnv, repoRoot, type TestStack } from "../harness/engine";
import type { RunningServer } from "../server";
import { teamDescription } from "./engine";

/** The bridge's plugin and the provider, and the generated SDK's folder. */
export interface Bridge {
  /** Holds `pulumi-resource-terraform-provider` and `terraform-provider-chainguard`. */
  dir: string;
  plugin: string;
  provider: string;
  /** The generated TypeScript SDK, compiled (its `bin/`), loadable with require. */
  sdk: string;
}

/** The Pulumi package's name the bridge derives from the provider binary's. */
export const BRIDGED_PACKAGE = "chainguard";

/** Finds or builds the bridge (scripts/ensure-terraform-bridge), and generates its SDK once. */
export function ensureBridge(): Bridge {
  const dir = execFileSync(path.join(repoRoot, "scripts", "ensure-terraform-bridge"), { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }).trim();
  const plugin = path.join(dir, "pulumi-resource-terraform-provider");
  const provider = path.join(dir, "terraform-provider-chainguard");
  const sdk = path.join(dir, `sdk-nodejs-${path.basename(path.dirname(pulumiBinDir()))}`);
  if (!existsSync(path.join(sdk, "bin", "index.js"))) generateSdk(plugin, provider, sdk);
  linkNodeModules(sdk);
  return { dir, plugin, provider, sdk };
}

/** Points `sdk`'s node_modules at this checkout's (the SDK is kept per machine; checkouts come and go). */
function linkNodeModules(sdk: string): void {
  const link = path.join(sdk, "node_modules");
  rmSync(link, { force: true, recursive: false });
  symlinkSync(path.join(repoRoot, "node_modules"), link, "dir");
}

/**
 * A node_modules for a bridged stack's work dir: this repository's, with the generated SDK as
 * `@pulumi/chainguard`, where a user's project has it after `pulumi package add`: the language host
 * finds the package's parameterization there (which `pulumi import` needs to pick the plugin).
 */
function bridgedNodeModules(bridge: Bridge): string {
  const dir = path.join(bridge.sdk, ".project-node_modules");
  rmSync(dir, { recursive: true, force: true });
  const from = path.join(repoRoot, "node_modules");
  mkdirSync(path.join(dir, "@pulumi"), { recursive: true });
  for (const entry of readdirSync(from)) if (entry !== "@pulumi") symlinkSync(path.join(from, entry), path.join(dir, entry));
  for (const entry of readdirSync(path.join(from, "@pulumi"))) symlinkSync(path.join(from, "@pulumi", entry), path.join(dir, "@pulumi", entry));
  symlinkSync(bridge.sdk, path.join(dir, "@pulumi", BRIDGED_PACKAGE), "dir");
  return dir;
}

/**
 * The provider's TypeScript SDK, as `pulumi package add <plugin> <provider>` writes it for a Node
 * project: the package's schema from `pulumi package get-schema <plugin> <provider>`, and Pulumi's
 * TypeScript generator run on it by scripts/gen-sdks (`package add` asks the Node language host
 * to generate, and the one that builds here cannot: scripts/gen-sdks says why). Compiled with this
 * repository's TypeScript, its `@pulumi/pulumi` resolved from this repository's node_modules
 * (the same runtime as the bench's inline programs).
 */
function generateSdk(plugin: string, provider: string, sdk: string): void {
  const work = `${sdk}.tmp`;
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const env = { ...process.env, ...pulumiEnv(path.join(work, ".pulumi-home")) };
  const schema = execFileSync("pulumi", ["package", "get-schema", plugin, provider], { cwd: work, env, encoding: "utf8", maxBuffer: 64 << 20 });
  writeFileSync(path.join(work, "schema.json"), schema);
  // It writes every language; only the TypeScript SDK is needed (the .NET one fails offline: it
  // fetches a logo), so its exit code is not; the SDK's files are.
  try {
    execFileSync(path.join(repoRoot, "scripts", "gen-sdks"), [path.join(work, "schema.json"), path.join(work, "out")], { stdio: ["ignore", "ignore", "pipe"] });
  } catch (e) {
    if (!existsSync(path.join(work, "out", "nodejs", "index.ts"))) throw e;
  }
  const generated = path.join(work, "out", "nodejs");
  linkNodeModules(generated);
  execFileSync(process.execPath, [path.join(repoRoot, "node_modules", "typescript", "bin", "tsc"), "-p", generated], {
    stdio: ["ignore", "inherit", "inherit"],
  });
  // The SDK reads its version from bin/package.json (a published package's build copies it there).
  copyFileSync(path.join(generated, "package.json"), path.join(generated, "bin", "package.json"));
  rmSync(sdk, { recursive: true, force: true });
  renameSync(generated, sdk);
  rmSync(work, { recursive: true, force: true });
}

/** The generated SDK's classes the org uses (what `import * as chainguard from "@pulumi/chainguard"` gives). */
interface BridgedSdk {
  Group: new (name: string, args: Record<string, unknown>) => { id: unknown };
  Role: new (name: string, args: Record<string, unknown>) => { id: unknown };
  Identity: new (name: string, args: Record<string, unknown>) => { id: unknown };
  Rolebinding: new (name: string, args: Record<string, unknown>) => { id: unknown };
  Provider: new (name: string, args: Record<string, unknown>) => { urn: unknown };
}

export function loadBridgedSdk(bridge: Bridge): BridgedSdk {
  return nodeRequire(path.join(bridge.sdk, "bin"));
}

/**
 * bench/engine.ts's org, resource for resource, on the bridged provider (its default provider,
 * configured by the stack's `chainguard:` config). An unset description is written "" as in the
 * HCL (bench/terraform.ts's orgHcl says why).
 */
export function bridgedProgram(sdk: BridgedSdk, parent: string, teams: number, updated = 0): PulumiFn {
  return async () => {
    for (let i = 0; i < teams; i++) {
      const team = new sdk.Group(`team-${i}`, { parentId: parent, name: `team-${i}`, description: teamDescription(i, updated) });
      const squad = new sdk.Group(`squad-${i}`, { parentId: team.id, name: "squad", description: "" });
      const role = new sdk.Role(`role-${i}`, { parentId: team.id, name: `reader-${i}`, description: "", capabilities: ["repo.list", "tag.list"] });
      const ci = new sdk.Identity(`ci-${i}`, {
        parentId: team.id,
        name: `ci-${i}`,
        description: "",
        claimMatch: { issuer: "https://ci.example.com", subject: `repo:acme/team-${i}:ref:refs/heads/main` },
      });
      new sdk.Rolebinding(`ci-${i}-reader`, { group: squad.id, identity: ci.id, role: role.id });
    }
  };
}

/**
 * Where the provider reads its token (`$XDG_CACHE_HOME/chainguard/<console_api with / as ->/oidc-token`):
 * `cache` filled with `token` for `apiUrl`, so with `loginOptions.disabled` it starts no login flow.
 */
export function fillTokenCache(cache: string, apiUrl: string, token: string): void {
  const dir = path.join(cache, "chainguard", apiUrl.replace(/\//g, "-"));
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "oidc-token"), token, { mode: 0o600 });
}

/** The project settings' `plugins` entry that makes the engine run the bridge's plugin from its folder. */
function bridgePlugins(bridge: Bridge): { providers: { name: string; path: string }[] } {
  return { providers: [{ name: "terraform-provider", path: bridge.dir }] };
}

/** The provider's settings: the API's URL, and no login flow (the token is in its token cache). */
export function bridgedProviderArgs(server: RunningServer) {
  return { consoleApi: server.url, loginOptions: { disabled: true } };
}

/**
 * A stack of `program` on the bridged provider: configured by stack config (`chainguard:consoleApi`,
 * `chainguard:loginOptions` with `disabled: true`), reading `server`'s admin token from the
 * provider's token cache in `cache` (fillTokenCache), as the tofu sides do; the engine runs the
 * bridge's plugin from its folder (`plugins.providers`).
 */
export async function createBridgedStack(
  bridge: Bridge,
  server: RunningServer,
  stackName: string,
  program: PulumiFn,
  cache: string,
  env: Record<string, string> = {},
): Promise<TestStack> {
  const t = await createStack({
    stackName,
    program,
    config: { "chainguard:consoleApi": server.url, "chainguard:loginOptions": JSON.stringify(bridgedProviderArgs(server).loginOptions) },
    env: { XDG_CACHE_HOME: cache, ...env },
    nodeModules: bridgedNodeModules(bridge),
  });
  const settings = await t.stack.workspace.projectSettings();
  await t.stack.workspace.saveProjectSettings({ ...settings, plugins: bridgePlugins(bridge) } as typeof settings);
  return t;
}
