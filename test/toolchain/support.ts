/**
 * What the toolchain tests share: running a command with its output kept for the failure message,
 * the tools they need (failing loudly when one is missing, never skipping), and the Go settings
 * the repository's scripts build with.
 */
import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import { pulumiBinDir } from "../support/engine";

const execFileP = promisify(execFile);

export interface RunOptions {
  cwd?: string;
  env?: Record<string, string | undefined>;
}

/** Runs a command to completion; a failure carries its stdout and stderr. */
export async function run(cmd: string, args: string[], opts: RunOptions = {}): Promise<{ stdout: string; stderr: string }> {
  try {
    return await execFileP(cmd, args, { cwd: opts.cwd, env: opts.env ?? process.env, maxBuffer: 64 << 20 });
  } catch (e) {
    const err = e as Error & { stdout?: string; stderr?: string };
    throw new Error(`${cmd} ${args.join(" ")} failed: ${err.message}\n${err.stdout ?? ""}\n${err.stderr ?? ""}`);
  }
}

/** The absolute path of `name` on PATH, or an error saying what needs it and how to get it. */
export async function requireCommand(name: string, why: string): Promise<string> {
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    const p = path.join(dir, name);
    if (dir && existsSync(p)) return p;
  }
  throw new Error(`\`${name}\` is not on PATH: ${why}`);
}

/**
 * The `pulumi-language-yaml` that scripts/ensure-pulumi builds beside the CLI, and the version it
 * recorded. Missing means the build failed: its log (on stderr above) says why.
 */
export function yamlHost(): { path: string; version: string } {
  const bin = pulumiBinDir();
  const exe = path.join(bin, "pulumi-language-yaml");
  const stamp = path.join(bin, ".pulumi-language-yaml.version");
  if (!existsSync(exe) || !existsSync(stamp)) {
    throw new Error(`no pulumi-language-yaml in ${bin}: scripts/ensure-pulumi could not build it (see its log)`);
  }
  return { path: exe, version: readFileSync(stamp, "utf8").trim() };
}

/**
 * The environment for `go` as scripts/ensure-pulumi and scripts/gen-sdks build: modules resolved
 * as go.mod says, and no checksum database lookups for pulumi's pkg/sdk modules (it has no
 * entries for their tags; the module proxy serves them).
 */
export function goEnv(): Record<string, string | undefined> {
  return {
    ...process.env,
    GOFLAGS: "-mod=mod",
    GONOSUMDB: ["github.com/pulumi/pulumi", process.env.GONOSUMDB].filter(Boolean).join(","),
  };
}

/**
 * The flags the Pulumi CLI is built with: building with the same ones reuses the compiled
 * pulumi/sdk packages in Go's per-machine build cache instead of compiling them again.
 */
export const GO_BUILD_FLAGS = ["-trimpath", "-tags", "osusergo,grpcnotrace"];
