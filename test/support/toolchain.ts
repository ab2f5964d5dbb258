/**
 * What the toolchain tests share: running a command with its output kept for the failure message,
 * the tools they need (failing loudly when one is missing, never skipping), and the Go settings
 * the repository's scripts build with.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { expect, it } from "vitest";
import { filesUnder } from "../../scripts/gen-plugin-sdk";
import { pulumiBinDir, repoRoot } from "./engine";

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

/** The same flags as GOFLAGS holds them, for a `go build` run by another program (the Go language host). */
export function goFlags(): string {
  return [process.env.GOFLAGS, "-trimpath", "-tags=osusergo,grpcnotrace"].filter(Boolean).join(" ");
}

/** The version of @pulumi/pulumi installed here, which is the CLI's: Go programs build against it. */
export function pulumiSdkVersion(): string {
  return JSON.parse(readFileSync(path.join(repoRoot, "node_modules/@pulumi/pulumi/package.json"), "utf8")).version;
}

/**
 * Builds `main.go` in a new module at `dir` that uses a generated Go SDK (module `sdkModule`,
 * found at `sdkDir`) with the CLI's pulumi SDK. Returns the pulumi SDK version the build chose.
 */
export async function buildGoProgram(dir: string, sdkModule: string, sdkDir: string, program: string): Promise<string> {
  const sdkVersion = pulumiSdkVersion();
  const goMod = [
    "module example.com/sdkprogram",
    "",
    "go 1.25",
    "",
    "require (",
    `\tgithub.com/pulumi/pulumi/sdk/v3 v${sdkVersion}`,
    ")",
    "",
    `replace ${sdkModule} => ${sdkDir}`,
    "",
  ].join("\n");
  return buildGoModule(dir, goMod, program);
}

/**
 * Builds `main.go` in a new module at `dir` with `goMod` as its go.mod (which points at a Go SDK
 * of the plugin). Returns the pulumi SDK version the build chose.
 */
export async function buildGoModule(dir: string, goMod: string, program: string): Promise<string> {
  await requireCommand("go", "the Go SDK test builds with Go 1.25+ (scripts/ensure-pulumi needs it too)");
  mkdirSync(dir);
  writeFileSync(path.join(dir, "main.go"), program);
  // pkg/v3 is not imported: requiring it selects the dependency versions the CLI was built
  // with, so that their compiled packages in Go's per-machine build cache serve this build too
  // (otherwise a first run compiles a set of its own: minutes on 2 cores).
  // `go build -mod=mod` adds the missing requirements; `go mod tidy` would drop pkg/v3.
  writeFileSync(path.join(dir, "go.mod"), `${goMod.trimEnd()}\n\nrequire github.com/pulumi/pulumi/pkg/v3 v${pulumiSdkVersion()}\n`);
  const env = goEnv();
  await run("go", ["build", ...GO_BUILD_FLAGS, "-o", "program", "."], { cwd: dir, env });
  if (!existsSync(path.join(dir, "program"))) throw new Error(`go build wrote no program in ${dir}`);
  return (await run("go", ["list", "-m", "github.com/pulumi/pulumi/sdk/v3"], { cwd: dir, env })).stdout.trim();
}

/** Type-checks a generated TypeScript SDK in `dir` plus `program.ts` against @pulumi/pulumi. */
export async function typeCheckTsSdk(dir: string, program: string): Promise<void> {
  symlinkSync(path.join(repoRoot, "node_modules"), path.join(dir, "node_modules"), "dir");
  writeFileSync(path.join(dir, "program.ts"), program);
  // The generated tsconfig (its compiler options as published), over every file plus the program.
  writeFileSync(
    path.join(dir, "tsconfig.check.json"),
    JSON.stringify({ extends: "./tsconfig.json", compilerOptions: { noEmit: true }, files: null, include: ["**/*.ts"], exclude: ["node_modules"] }),
  );
  await run(process.execPath, [path.join(repoRoot, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.check.json"], { cwd: dir });
}

/** A first run may build the generator and compile Go modules: minutes. */
export const BUILD_TIMEOUT = 900_000;

/** What a set of generated SDKs is checked with: the Go module and a program in each language. */
export interface GeneratedSdks {
  /** The folder gen-sdks wrote (known once the file's set-up ran). */
  out: () => string;
  /** The Go SDK's module path (with the schema's `supportPack`, a module of its own). */
  goModule: string;
  /** The Python SDK's package (the folder beside setup.py). */
  pythonPackage: string;
  goProgram: string;
  tsProgram: string;
}

/**
 * Registers the checks every generated SDK set gets: the Go SDK with a program builds against the
 * CLI's pulumi SDK (not a newer one the generated code pulls in), the TypeScript SDK with a program
 * type-checks, and the Python SDK byte-compiles.
 */
export function itBuildsGeneratedSdks(sdks: GeneratedSdks): void {
  it("builds the Go SDK and a program using it", { timeout: BUILD_TIMEOUT }, async () => {
    const out = sdks.out();
    const module = readFileSync(path.join(out, "go", "go.mod"), "utf8").match(/^module (\S+)$/m)?.[1];
    expect(module).toBe(sdks.goModule);
    const chosen = await buildGoProgram(path.join(out, "goprogram"), sdks.goModule, "../go", sdks.goProgram);
    expect(chosen).toBe(`github.com/pulumi/pulumi/sdk/v3 v${pulumiSdkVersion()}`);
  });

  it("type-checks the TypeScript SDK and a program using it against @pulumi/pulumi", { timeout: BUILD_TIMEOUT }, async () => {
    await typeCheckTsSdk(path.join(sdks.out(), "nodejs"), sdks.tsProgram);
  });

  it("writes a Python SDK that byte-compiles", { timeout: BUILD_TIMEOUT }, async () => {
    await expectPythonCompiles(path.join(sdks.out(), "python"), sdks.pythonPackage);
  });
}

/**
 * Byte-compiles the Python SDK at `dir` (its caches in a temporary folder, never beside the
 * sources) and checks that it is there to compile: `setup.py`, the package `pkg`, and a cache
 * file for every source. `compileall` itself passes a folder that does not exist.
 */
export async function expectPythonCompiles(dir: string, pkg: string): Promise<void> {
  await requireCommand("python3", "the Python SDK test byte-compiles the generated package");
  expect(existsSync(path.join(dir, "setup.py")), `${dir}/setup.py`).toBe(true);
  expect(existsSync(path.join(dir, pkg, "__init__.py")), `${dir}/${pkg}/__init__.py`).toBe(true);
  const sources = filesUnder(dir).filter((f) => f.endsWith(".py"));
  const cache = mkdtempSync(path.join(tmpdir(), "irv-pycache-"));
  try {
    await run("python3", ["-m", "compileall", "-q", dir], { env: { ...process.env, PYTHONPYCACHEPREFIX: cache } });
    expect(filesUnder(cache).filter((f) => f.endsWith(".pyc")).length, "a compiled file for every source").toBe(sources.length);
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
}
