/**
 * A Pulumi project in a temp folder, driven by the plain `pulumi` CLI as a user runs it (the node
 * language host runs the program), on a file backend, with the irv config of a RunningServer.
 *
 *   const p = await createFolderProject({ program: "/abs/main.js", nodeModules, server });
 *   await p.pulumi("up", "--yes");  ...  p.dispose();
 */
import { execFile } from "node:child_process";
import { mkdtempSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { pulumiEnv, repoRoot, type ServerEndpoint } from "./engine";

const run = promisify(execFile);

/** What createFolderProject needs. */
export interface FolderProjectOptions {
  /** The program's entry file (absolute, or relative to the project folder), the project's `main`. */
  main: string;
  /** The project's node_modules: linked in, unless `dir` already has one. Default this repository's. */
  nodeModules?: string;
  /** The project folder; default a new temp folder. */
  dir?: string;
  /** Sets irv:apiUrl and the secret irv:token. */
  server: ServerEndpoint;
  /** More plain stack config. */
  config?: Record<string, string>;
  /** Run the program as TypeScript (the runtime's `typescript` option); default false. */
  typescript?: boolean;
  /** Folders to put first on PATH, e.g. another Node's bin. */
  path?: string[];
}

/** A folder project with a `dev` stack. */
export interface FolderProject {
  dir: string;
  /** Runs `pulumi <args> --non-interactive --cwd <dir>` and returns its stdout. */
  pulumi(...args: string[]): Promise<string>;
  /**
   * Runs a command line exactly as a user types it (`sh -c`), in the project folder, answering the
   * engine's confirmation prompt with `PULUMI_SKIP_CONFIRMATIONS` (no terminal here); its stdout.
   */
  sh(command: string): Promise<string>;
  /** The environment both run with (the pulumi CLI on PATH, PULUMI_HOME, the passphrase). */
  env: NodeJS.ProcessEnv;
  /** Removes the temp folders. */
  dispose(): void;
}

/** Writes Pulumi.yaml, inits the `dev` stack on a temp file backend and sets its config. */
export async function createFolderProject(opts: FolderProjectOptions): Promise<FolderProject> {
  const base = mkdtempSync(path.join(tmpdir(), "irv-folder-"));
  const dir = opts.dir ?? path.join(base, "project");
  const home = path.join(base, "home");
  const backend = path.join(base, "backend");
  for (const d of [dir, home, backend]) mkdirSync(d, { recursive: true });
  if (!opts.dir) symlinkSync(opts.nodeModules ?? path.join(repoRoot, "node_modules"), path.join(dir, "node_modules"), "dir");
  writeFileSync(
    path.join(dir, "Pulumi.yaml"),
    [
      "name: irv-folder",
      "runtime:",
      "  name: nodejs",
      "  options:",
      `    typescript: ${opts.typescript ?? false}`,
      `main: ${opts.main}`,
      "backend:",
      `  url: file://${backend}`,
      "",
    ].join("\n"),
  );
  const cliEnv = pulumiEnv(home);
  const env = { ...process.env, ...cliEnv, PATH: [...(opts.path ?? []), cliEnv.PATH].join(path.delimiter) };
  const pulumi = async (...args: string[]) => (await run("pulumi", [...args, "--non-interactive", "--cwd", dir], { env, maxBuffer: 16 << 20 })).stdout;

  await pulumi("stack", "init", "dev");
  await pulumi("config", "set", "irv:apiUrl", opts.server.url);
  await pulumi("config", "set", "--secret", "irv:token", opts.server.token);
  for (const [k, v] of Object.entries(opts.config ?? {})) await pulumi("config", "set", k, v);
  const sh = async (command: string) =>
    (await run("sh", ["-c", command], { cwd: dir, env: { ...env, PULUMI_SKIP_CONFIRMATIONS: "true" }, maxBuffer: 16 << 20 })).stdout;
  return {
    dir,
    pulumi,
    sh,
    env,
    dispose: () => rmSync(base, { recursive: true, force: true }),
  };
}
