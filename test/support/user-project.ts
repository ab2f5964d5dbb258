/**
 * A user's project, outside the clone: this repository's packages as `npm pack` makes them
 * (pulumi-irv and irv-server), installed by npm into a fresh `npm init -y` folder in the temp dir.
 *
 *   const packed = await packPackages(dir);            // dist/ is built by `npm test`
 *   const u = await userProject([[packed.sdk, "@pulumi/pulumi"], ["--save-dev", "typescript"]]);
 *   u.dir; u.installed("@pulumi/pulumi")?.version; u.dispose();
 */
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { repoRoot } from "./engine";

const run = promisify(execFile);

/** The tarballs `npm pack` wrote, and what each holds. */
export interface Packed {
  /** pulumi-irv's tarball. */
  sdk: string;
  /** irv-server's tarball. */
  server: string;
  /** The files of each, by package name. */
  files: Record<string, string[]>;
}

/**
 * Packs pulumi-irv (the root) and irv-server (its workspace) into `dest`. `--ignore-scripts`
 * skips `prepack`, the build `npm test` has just run; nothing else differs from a plain `npm pack`.
 */
export async function packPackages(dest: string): Promise<Packed> {
  const pack = async (...args: string[]) => {
    const { stdout } = await run("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", dest, ...args], { cwd: repoRoot, maxBuffer: 16 << 20 });
    const [p] = JSON.parse(stdout) as { name: string; filename: string; files: { path: string }[] }[];
    return p;
  };
  const sdk = await pack();
  const server = await pack("--workspace", "irv-server");
  return {
    sdk: path.join(dest, sdk.filename),
    server: path.join(dest, server.filename),
    files: { [sdk.name]: sdk.files.map((f) => f.path), [server.name]: server.files.map((f) => f.path) },
  };
}

/** A project folder npm installed into. */
export interface UserProject {
  dir: string;
  /** What each `npm install` printed on stderr (its warnings), in order. */
  warnings: string[];
  /** Runs `npm <args>` in the project. */
  npm(...args: string[]): Promise<{ stdout: string; stderr: string }>;
  /** The package.json of an installed package, or undefined; `under` nests it (`pulumi-irv`). */
  installed(name: string, under?: string): { version: string; scripts?: Record<string, string>; dependencies?: Record<string, string> } | undefined;
  dispose(): void;
}

/**
 * `npm init -y` in a new temp folder, then one `npm install <specs...>` per entry of `installs`.
 * `pathFirst` puts folders first on PATH for npm (another Node's bin: npm then picks versions for it).
 */
export async function userProject(installs: string[][], pathFirst: string[] = []): Promise<UserProject> {
  const dir = mkdtempSync(path.join(tmpdir(), "irv-user-project-"));
  const env = { ...process.env, PATH: [...pathFirst, process.env.PATH ?? ""].join(path.delimiter) };
  const npm = (...args: string[]) => run("npm", args, { cwd: dir, env, maxBuffer: 16 << 20 });
  const warnings: string[] = [];
  await npm("init", "-y");
  for (const specs of installs) warnings.push((await npm("install", "--no-audit", "--no-fund", "--prefer-offline", ...specs)).stderr);
  const installed = (name: string, under?: string) => {
    const file = path.join(dir, "node_modules", ...(under ? [under, "node_modules"] : []), name, "package.json");
    return existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : undefined;
  };
  return { dir, warnings, npm, installed, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * The bin folder of Node `major` for this platform, from the npm registry's `node-<os>-<arch>`
 * package, installed once into `dest`.
 */
export async function nodeFromRegistry(major: number, dest: string): Promise<string> {
  const dir = path.join(dest, `node-${major}`);
  const pkg = `node-${process.platform}-${process.arch}`;
  await run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", "--prefix", dir, `${pkg}@${major}`], { maxBuffer: 16 << 20 });
  return path.join(dir, "node_modules", pkg, "bin");
}

/** The pnpm the pnpm tests install, pinned. */
export const PNPM_VERSION = "12.21.0";

/** The bin folder of pnpm `PNPM_VERSION`, from the npm registry, installed once into `dest`. */
export async function pnpmFromRegistry(dest: string): Promise<string> {
  const dir = path.join(dest, "pnpm");
  await run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", "--prefix", dir, `pnpm@${PNPM_VERSION}`], { maxBuffer: 16 << 20 });
  return path.join(dir, "node_modules", ".bin");
}
