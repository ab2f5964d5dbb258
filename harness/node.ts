/**
 * A Node that has `node:sqlite`, which `irv-server --data-dir` needs for its lock: this process's
 * own when it has it (Node 22.13 or newer), else Node 22 from the npm registry's
 * `node-<os>-<arch>` package, installed once per machine into the cache that
 * scripts/ensure-pulumi uses (an install goes to a folder of its own, renamed into place, so
 * concurrent callers never see half of one).
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

/** True when this Node can load `node:sqlite` without a flag. */
export function hasSqlite(version = process.versions.node): boolean {
  const [major, minor] = version.split(".").map(Number);
  return major > 23 || (major === 23 && minor >= 4) || (major === 22 && minor >= 13);
}

const MAJOR = 22;

/** The path of a `node` executable that can run `irv-server --data-dir`. */
export function nodeWithSqlite(): string {
  if (hasSqlite()) return process.execPath;
  const cache = process.env.PULUMI_IRV_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "pulumi-irv");
  const pkg = `node-${process.platform}-${process.arch}`;
  const dir = join(cache, `node-${MAJOR}`);
  const bin = join(dir, "node_modules", pkg, "bin", "node");
  if (existsSync(bin)) return bin;
  mkdirSync(cache, { recursive: true });
  const tmp = mkdtempSync(join(cache, `node-${MAJOR}.tmp-`));
  try {
    execFileSync("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", "--prefix", tmp, `${pkg}@${MAJOR}`], { stdio: "ignore" });
    try {
      renameSync(tmp, dir);
    } catch (e) {
      // Another caller installed it first.
      if (!existsSync(bin)) throw e;
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  if (!existsSync(bin)) throw new Error(`npm installed ${pkg}@${MAJOR}, but ${bin} is missing`);
  return bin;
}
