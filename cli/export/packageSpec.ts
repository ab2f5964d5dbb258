/**
 * What the exported package.json asks for as its `pulumi-irv` dependency: `irv export
 * --package-spec` (a version or range, a tarball, a folder, or any npm spec), or a default that
 * installs wherever this copy of pulumi-irv came from.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import * as path from "node:path";

/** This package's root folder and version (walks up: dist/cli/export when built, cli/export under vitest). */
export function ownPackage(): { root: string; version: string } {
  for (let dir = __dirname; dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const file = path.join(dir, "package.json");
    if (!existsSync(file)) continue;
    const json = JSON.parse(readFileSync(file, "utf8")) as { name?: string; version: string };
    if (json.name === "pulumi-irv") return { root: dir, version: json.version };
  }
  return { root: "", version: "0.0.0" };
}

/** True when `root` is an installed copy (inside a node_modules folder), not a checkout. */
function installed(root: string): boolean {
  return root.split(path.sep).includes("node_modules");
}

/**
 * The dependency spec for `requested`, resolved against `cwd`:
 * - a path to an existing file or folder (a `npm pack` tarball, a checkout) -> `file:<absolute>`;
 * - anything else (`0.1.0`, `^0.1`, `file:...`, `npm:...`, a URL) is passed to npm as written.
 * With none: `^<version>` from the registry when this copy is installed from a package, else
 * (run from a checkout) `file:<checkout>`.
 */
export function packageSpec(requested: string | undefined, cwd = process.cwd()): string {
  const own = ownPackage();
  if (requested === undefined) return installed(own.root) || !own.root ? `^${own.version}` : `file:${own.root}`;
  if (!requested.trim()) throw new Error("--package-spec: must not be empty");
  const local = path.resolve(cwd, requested);
  if (!/^[a-z]+:/i.test(requested) && existsSync(local) && (statSync(local).isDirectory() || /\.(tgz|tar\.gz|tar)$/.test(local)))
    return `file:${local}`;
  return requested;
}

/**
 * An `.npmrc` for the exported folder, or undefined. A folder dependency is otherwise linked, not
 * copied: pulumi-irv would then load its own `@pulumi/pulumi` from the checkout, a second copy
 * beside the program's, and the program's resources would register with neither runtime.
 */
export function npmrcFor(spec: string): string | undefined {
  if (!spec.startsWith("file:")) return undefined;
  const target = spec.slice("file:".length);
  return existsSync(target) && statSync(target).isDirectory() ? "install-links=true\n" : undefined;
}
