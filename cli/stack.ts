import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import * as path from "node:path";
import type { ConfigMap, Deployment, LocalWorkspace, Stack } from "@pulumi/pulumi/automation";
import { UsageError } from "./command";

/** Which stack a command works on: a Pulumi project folder and a stack name in it. */
export interface StackSelection {
  /** The stack name; default: the project's currently selected stack. */
  stack?: string;
  /** The project folder (holding Pulumi.yaml); default: the current directory. */
  cwd?: string;
}

/**
 * Opens an existing stack of the Pulumi project in `cwd`, like the `pulumi` CLI would there:
 * the backend, PULUMI_HOME and the passphrase come from the project settings and environment.
 * The Automation API is loaded here, when a command needs it (a second of start-up).
 */
export async function openStack({ stack, cwd }: StackSelection): Promise<Stack> {
  const { LocalWorkspace, Stack } = await import("@pulumi/pulumi/automation");
  const workDir = path.resolve(cwd ?? process.cwd());
  const ws = await LocalWorkspace.create({ workDir });
  const name = stack ?? (await ws.stack())?.name;
  if (!name) throw noStack(workDir);
  return Stack.select(name, ws);
}

/** A stack's name, state and config as its files hold them now (secrets decrypted in memory, never to be printed), and the environment its provider sees. */
export interface StackContents {
  name: string;
  state: Deployment;
  config: ConfigMap;
  /** The environment the stack's operations run in (the workspace's variables over this process's). */
  env: NodeJS.ProcessEnv;
}

/** Reads an opened stack's contents (two runs of the pulumi CLI, side by side), once for a whole command. */
export async function contentsOf(stack: Stack): Promise<StackContents> {
  const [state, config] = await Promise.all([stack.exportStack(), stack.getAllConfig()]);
  return { name: stack.name, state, config, env: { ...process.env, ...(stack.workspace as LocalWorkspace).envVars } };
}

/**
 * Reads a stack's contents without opening it, for a command that may not need the engine at all
 * (`irv drift`): from its files, where irv reads them itself (./stack-files.ts: a local file
 * backend and the passphrase provider, one key derivation); otherwise by `pulumi stack export`
 * and `pulumi config` in its project folder, side by side, as the Automation API runs them, but
 * without loading it (a second of start-up) or running `pulumi version` and `pulumi stack select` first.
 */
export async function readStack({ stack, cwd }: StackSelection): Promise<StackContents> {
  const workDir = path.resolve(cwd ?? process.cwd());
  const name = stack ?? (await selectedName(workDir));
  const { readStackFiles } = await import("./stack-files");
  const files = await readStackFiles(workDir, name, process.env);
  if (files) return { name, ...files, env: process.env };
  const [state, config] = await Promise.all([
    pulumi(workDir, ["stack", "export", "--show-secrets", "--stack", name]).then(JSON.parse),
    pulumi(workDir, ["config", "--show-secrets", "--json", "--stack", name]).then(JSON.parse),
  ]);
  return { name, state, config, env: process.env };
}

/** The stack selected in the project in `workDir`, as the CLI says. */
function selectedName(workDir: string): Promise<string> {
  return pulumi(workDir, ["stack", "--show-name"]).then(
    (s) => s.trim(),
    (e: Error) => Promise.reject(/no stack/i.test(e.message) ? noStack(workDir) : e),
  );
}

/**
 * The name and config of the stack selected in the Pulumi project in `cwd` (secrets decrypted in
 * memory), or undefined when there is no project there, or no stack selected in it. With `stack`,
 * that stack's. A config that cannot be read (no passphrase, say) is an error: its settings were meant.
 */
export async function selectedStackConfig({ stack, cwd }: StackSelection): Promise<{ name: string; config: ConfigMap } | undefined> {
  const workDir = path.resolve(cwd ?? process.cwd());
  if (!["Pulumi.yaml", "Pulumi.yml"].some((f) => existsSync(path.join(workDir, f)))) {
    if (stack) throw new UsageError(`no Pulumi project in ${workDir}: pass --cwd <project folder> with --stack`);
    return undefined;
  }
  let name = stack;
  if (!name) {
    try {
      name = (await pulumi(workDir, ["stack", "--show-name"])).trim();
    } catch {
      return undefined;
    }
  }
  if (!name) return undefined;
  const { readStackFiles } = await import("./stack-files");
  const files = await readStackFiles(workDir, name, process.env);
  if (files) return { name, config: files.config };
  return { name, config: JSON.parse(await pulumi(workDir, ["config", "--show-secrets", "--json", "--stack", name])) as ConfigMap };
}

/** What a run of the pulumi CLI printed; its own error message when it fails. */
function pulumi(cwd: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      "pulumi",
      [...args, "--non-interactive"],
      { cwd, env: { ...process.env, PULUMI_SKIP_UPDATE_CHECK: "true" }, maxBuffer: 1 << 30 },
      (err, stdout, stderr) => {
        if (!err) return resolve(stdout);
        const said = stderr.trim().split("\n").filter(Boolean).slice(-3).join("\n");
        reject(new Error(`pulumi ${args.slice(0, 2).join(" ")} failed in ${cwd}${said ? `: ${said}` : ` (${err.message})`}`));
      },
    );
  });
}

function noStack(workDir: string): UsageError {
  return new UsageError(`no stack selected in ${workDir}: pass --stack <name> or run \`pulumi stack select\``);
}
