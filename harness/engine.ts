/**
 * Drives the real Pulumi engine for tests and benchmarks: the CLI that `scripts/ensure-pulumi`
 * finds or builds, an inline Automation API program, a file backend and a PULUMI_HOME in temp
 * dirs. Nothing here talks to the Pulumi Cloud.
 *
 *   const irv = loadSdk();                       // the built package, as users import it
 *   const t = await createStack({ stackName: "org", server, program: async () => {
 *     const g = new irv.iam.Group("eng", { parentUid: server.organization, name: "eng" });
 *     return { uid: g.uid };
 *   } });
 *   const steps = recordSteps();
 *   await t.stack.preview({ onEvent: steps.onEvent });   // steps.ops("eng") -> ["create"]
 *   await t.stack.up();  ...  await t.stack.destroy();  await t.dispose();
 *
 * The provider host the engine starts (`pulumi-resource-pulumi-nodejs`) runs in the stack's work
 * dir, whose node_modules links to this repository's, so the serialized shim resolves
 * `@pulumi/pulumi` and `pulumi-irv/provider`: that is dist/, so build before running. One
 * operation at a time per process: the Pulumi runtime inside it is a singleton.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import * as path from "node:path";
import type { ConfigMap, Deployment, OpType, PulumiFn, Stack } from "@pulumi/pulumi/automation";
import { StepCollector } from "../cli/engine/steps";

/** The repository root (found by walking up from this file). */
export const repoRoot = findRepoRoot();

/**
 * `require` rooted at the repository: loads the built package (`nodeRequire("pulumi-irv")`,
 * `nodeRequire("./dist/examples/org")`) natively, as a user's program would, bypassing the test
 * runner's module transform so that closures are serialized from the code users run.
 */
export const nodeRequire = createRequire(path.join(repoRoot, "package.json"));

const automation = nodeRequire("@pulumi/pulumi/automation") as typeof import("@pulumi/pulumi/automation");

/**
 * The built SDK as users import it (`import * as irv from "pulumi-irv"`, i.e. dist/dynamic), loaded
 * natively. Programs under test declare resources with this, so the engine serializes the same
 * provider shim a user's program would.
 */
export function loadSdk(): typeof import("../dynamic") {
  return nodeRequire("pulumi-irv");
}

/** A built example, e.g. `loadExample<typeof import("../examples/org")>("org")`. */
export function loadExample<T>(name: string): T {
  return nodeRequire(`./dist/examples/${name}`);
}

/**
 * Per-test timeout for engine tests (ms): each engine operation starts processes, so a test of a
 * few of them on a loaded 2-core machine can take minutes. A bound, not an expectation.
 */
export const ENGINE_TIMEOUT = 300_000;

/** The passphrase that encrypts secrets in test stacks (the file backend's secrets provider). */
export const PASSPHRASE = "pulumi-irv-test-passphrase";

let binDir: string | undefined;

/** The directory holding `pulumi` and `pulumi-resource-pulumi-nodejs` (runs ensure-pulumi once). */
export function pulumiBinDir(): string {
  binDir ??= execFileSync(path.join(repoRoot, "scripts", "ensure-pulumi"), {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  }).trim();
  return binDir;
}

/**
 * The environment for the pulumi CLI and the processes it starts: the ensure-pulumi bin dir first
 * on PATH, a passphrase for secrets, no update check, no Pulumi Cloud token. `pulumiHome` sets
 * PULUMI_HOME (createStack gives each stack its own temp one); `extra` wins over all of it.
 */
export function pulumiEnv(pulumiHome?: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: [pulumiBinDir(), process.env.PATH ?? ""].join(path.delimiter),
    PULUMI_CONFIG_PASSPHRASE: PASSPHRASE,
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_AUTOMATION_API_SKIP_VERSION_CHECK: "true",
    PULUMI_DIY_BACKEND_NO_LEGACY_WARNING: "true",
    PULUMI_ACCESS_TOKEN: "",
    ...(pulumiHome ? { PULUMI_HOME: pulumiHome } : {}),
    ...extra,
  };
}

/** Where and as whom a stack reaches the API: a RunningServer from startServer() fits. */
export interface ServerEndpoint {
  /** API base URL, becomes irv:apiUrl. */
  url: string;
  /** Token issuer URL, becomes irv:authUrl. */
  authUrl: string;
  /** Admin token, becomes the secret irv:token unless `identity` is given. */
  token: string;
}

/** What createStack needs. */
export interface StackOptions {
  /** The inline program: a function that declares resources and returns the stack outputs. */
  program: PulumiFn;
  /** Stack name, unique within its backend; default "test". */
  stackName?: string;
  /** Project name; default "irv-e2e". */
  projectName?: string;
  /** Sets irv:apiUrl, irv:authUrl and (unless `identity` is given) irv:token as a secret. */
  server?: ServerEndpoint;
  /** Authenticate by STS exchange instead of a token: irv:identity, and irv:identityToken as a secret. */
  identity?: { uid: string; token: string };
  /** More plain stack config, e.g. {"irv:apiUrl": ...}. */
  config?: Record<string, string>;
  /** More secret stack config. */
  secrets?: Record<string, string>;
  /** Extra environment for the CLI and the provider host it starts. */
  env?: Record<string, string>;
  /**
   * The node_modules the work dir links to, where the provider host resolves the shim's requires
   * (`pulumi-irv/provider`); default this repository's.
   */
  nodeModules?: string;
}

/** A stack on a throwaway file backend, and what to inspect and clean up. */
export interface TestStack {
  /** The Automation API stack: preview, up, refresh, destroy, exportStack. */
  stack: Stack;
  /** The program's directory (Pulumi.yaml, node_modules link); the provider host runs here. */
  workDir: string;
  /** The file backend's directory (state lives under .pulumi/). */
  backendDir: string;
  /**
   * The stack's state as stored in the backend, secrets still encrypted, in the shape of
   * `pulumi stack export` ({version, deployment}). (The Automation API's own `stack.exportStack()`
   * decrypts secrets: use it to read values, not to check what is at rest.)
   */
  exportState(): Promise<Deployment>;
  /** Removes the stack's temp dirs (does not destroy its resources: call stack.destroy() first). */
  dispose(): Promise<void>;
}

/**
 * Creates a stack with an inline program on a fresh file backend, with its own PULUMI_HOME and a
 * work dir that resolves modules from this repository, and sets the irv config for `server`.
 */
export async function createStack(opts: StackOptions): Promise<TestStack> {
  const base = mkdtempSync(path.join(tmpdir(), "irv-engine-"));
  const workDir = path.join(base, "work");
  const backendDir = path.join(base, "backend");
  const pulumiHome = path.join(base, "home");
  for (const dir of [workDir, backendDir, pulumiHome]) mkdirSync(dir, { recursive: true });
  symlinkSync(opts.nodeModules ?? path.join(repoRoot, "node_modules"), path.join(workDir, "node_modules"), "dir");

  const projectName = opts.projectName ?? "irv-e2e";
  const pulumiCommand = await automation.PulumiCommand.get({
    root: path.dirname(pulumiBinDir()),
    skipVersionCheck: true,
  });
  const stack = await automation.LocalWorkspace.createStack(
    { stackName: opts.stackName ?? "test", projectName, program: opts.program },
    {
      workDir,
      pulumiHome,
      pulumiCommand,
      envVars: pulumiEnv(pulumiHome, opts.env),
      projectSettings: {
        name: projectName,
        runtime: "nodejs",
        backend: { url: `file://${backendDir}` },
      },
    },
  );
  await stack.setAllConfig(stackConfig(opts));

  return {
    stack,
    workDir,
    backendDir,
    exportState: async () => storedState(backendDir, projectName, stack.name),
    async dispose() {
      rmSync(base, { recursive: true, force: true });
    },
  };
}

function stackConfig(opts: StackOptions): ConfigMap {
  const config: ConfigMap = {};
  const plain = (key: string, value: string) => (config[key] = { value });
  const secret = (key: string, value: string) => (config[key] = { value, secret: true });
  if (opts.server) {
    plain("irv:apiUrl", opts.server.url);
    plain("irv:authUrl", opts.server.authUrl);
    if (!opts.identity) secret("irv:token", opts.server.token);
  }
  if (opts.identity) {
    plain("irv:identity", opts.identity.uid);
    secret("irv:identityToken", opts.identity.token);
  }
  for (const [k, v] of Object.entries(opts.config ?? {})) plain(k, v);
  for (const [k, v] of Object.entries(opts.secrets ?? {})) secret(k, v);
  return config;
}

/** Reads a file backend's checkpoint of `project/stack` as {version, deployment}. */
function storedState(backendDir: string, project: string, stackName: string): Deployment {
  const file = path.join(backendDir, ".pulumi", "stacks", project, `${stackName}.json`);
  const checkpoint = JSON.parse(readFileSync(file, "utf8"));
  return { version: checkpoint.version, deployment: checkpoint.checkpoint.latest ?? {} };
}

/**
 * Records the resource steps of one operation: pass `onEvent` to preview/up/refresh/destroy, then
 * read `steps` (every step as the engine announced it, the stack excluded) or `ops(name)`. The
 * same collector `irv drift` and `irv review` use.
 */
export function recordSteps() {
  const collector = new StepCollector();
  const steps = collector.reported;
  return {
    steps,
    onEvent: collector.onEvent,
    /** The operations planned or done on the resource named `name`, in order. */
    ops(name: string): OpType[] {
      return steps.filter((s) => s.name === name).map((s) => s.op);
    },
  };
}

/**
 * The `__provider` input of every dynamic resource in a state export, by resource name: the
 * serialized provider shim the engine runs on refresh and destroy.
 */
export function serializedProviders(state: Deployment): Map<string, string> {
  const found = new Map<string, string>();
  const resources = (state.deployment as { resources?: Array<Record<string, any>> }).resources ?? [];
  for (const r of resources) {
    const shim = r.inputs?.__provider;
    if (typeof shim === "string") found.set(String(r.urn).split("::").pop()!, shim);
  }
  return found;
}

function findRepoRoot(): string {
  // __dirname is defined both under tsc's CommonJS output (dist/harness) and under vitest.
  let dir = __dirname;
  while (!existsSync(path.join(dir, "scripts", "ensure-pulumi"))) {
    const up = path.dirname(dir);
    if (up === dir) throw new Error(`no pulumi-irv checkout above ${__dirname}`);
    dir = up;
  }
  return dir;
}
