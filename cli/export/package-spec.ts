/**
 * What the exported package.json asks for as its `pulumi-irv` dependency: `irv export
 * --package-spec` (a version or range, a tarball, a folder, or any npm spec), or a default that
 * installs wherever this copy of pulumi-irv came from.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import * as path from "node:path";

/** This package's root folder, version and npm `overrides` (walks up: dist/cli/export when built, cli/export under vitest). */
export function ownPackage(): { root: string; version: string; overrides?: Record<string, unknown> } {
  for (let dir = __dirname; dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const file = path.join(dir, "package.json");
    if (!existsSync(file)) continue;
    const json = JSON.parse(readFileSync(file, "utf8")) as { name?: string; version: string; overrides?: Record<string, unknown> };
    if (json.name === "pulumi-irv") return { root: dir, version: json.version, overrides: json.overrides };
  }
  return { root: "", version: "0.0.0" };
}

/**
 * The dependency spec for `requested`, resolved against `cwd`:
 * - a path to an existing file or folder (a `npm pack` tarball, a checkout) -> `file:<absolute>`;
 * - anything else (`0.1.0`, `^0.1`, `file:...`, `npm:...`, a URL) is passed to npm as written.
 * With none: exactly what this `irv` runs from: a checkout as `file:<its root>`; an installed copy
 * as its project's lockfile says it was installed (the same tarball or folder, or the exact
 * version from the registry it came from), or an error asking for --package-spec.
 * Never a registry range by default: a name this package does not own there would install
 * someone else's code, with the org's token, into every exported project.
 */
export function packageSpec(requested: string | undefined, cwd = process.cwd(), own = ownPackage()): string {
  if (requested === undefined) {
    const spec = own.root && (isInstalled(own.root) ? installedFrom(own.root, own.version) : `file:${own.root}`);
    if (!spec)
      throw new Error("--package-spec: cannot tell where this copy of pulumi-irv was installed from; name the version, tarball or folder to depend on");
    return spec;
  }
  if (!requested.trim()) throw new Error("--package-spec: must not be empty");
  const local = path.resolve(cwd, requested);
  if (!/^[a-z]+:/i.test(requested) && existsSync(local) && (statSync(local).isDirectory() || /\.(tgz|tar\.gz|tar)$/.test(local))) return `file:${local}`;
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

/** True when `root` is an installed copy (inside a node_modules folder), not a checkout. */
function isInstalled(root: string): boolean {
  return path.basename(path.dirname(root)) === "node_modules";
}

/**
 * Where the project that installed `root` got it, from npm's hidden lockfile
 * (`node_modules/.package-lock.json`): `file:` specs made absolute, a registry download as its
 * exact version; undefined when npm left no record.
 */
function installedFrom(root: string, version: string): string | undefined {
  const modules = path.dirname(root);
  const project = path.dirname(modules);
  let lock: { packages?: Record<string, { resolved?: string }> };
  try {
    lock = JSON.parse(readFileSync(path.join(modules, ".package-lock.json"), "utf8"));
  } catch {
    return undefined;
  }
  const resolved = lock.packages?.[`node_modules/${path.basename(root)}`]?.resolved;
  if (!resolved) return undefined;
  if (resolved.startsWith("file:")) return `file:${path.resolve(project, resolved.slice("file:".length))}`;
  if (/^https?:/.test(resolved) && /\/-\/[^/]+\.tgz$/.test(resolved)) return version;
  return resolved;
}
