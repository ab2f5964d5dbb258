/**
 * Where the plugin and `irv` keep V8's compiled code between runs, so a process that starts for
 * every operation does not compile the same code again: `$XDG_CACHE_HOME/pulumi-irv/compile-cache`,
 * else `~/.cache/pulumi-irv/compile-cache`. Compiled code is code: a folder that someone else
 * could write to would let them run theirs, so it is used only when it and its parent are the
 * user's own, not writable by anyone else (made 0700), and never through a symbolic link.
 * NODE_DISABLE_COMPILE_CACHE turns it off, as it does Node's own. Any failure (a read-only home,
 * no home) means no cache, never an error: the code then compiles as it would without one.
 */
import { lstatSync, mkdirSync } from "node:fs";
import Module from "node:module";
import { homedir } from "node:os";
import * as path from "node:path";

/** The folder, made if need be; undefined when there is none the user alone may write. */
export function compileCacheDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.NODE_DISABLE_COMPILE_CACHE) return undefined;
  try {
    const root = env.XDG_CACHE_HOME || path.join(env.HOME || homedir(), ".cache");
    if (!path.isAbsolute(root)) return undefined;
    const dir = path.join(root, "pulumi-irv", "compile-cache");
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    return [path.dirname(dir), dir].every(ownedByUser) ? dir : undefined;
  } catch {
    return undefined;
  }
}

/** A real folder (not a link to one) of this user's, which no one else may write to. */
function ownedByUser(dir: string): boolean {
  const st = lstatSync(dir);
  const uid = process.getuid?.();
  return st.isDirectory() && (uid === undefined || st.uid === uid) && (st.mode & 0o022) === 0;
}

/**
 * Turns on Node's module compile cache (Node 22.1 and later; older nodes have none) in that
 * folder, for the modules required after this call. Node writes what it compiled as the process exits.
 */
export function enableModuleCompileCache(): void {
  const enable = (Module as { enableCompileCache?: (dir: string) => unknown }).enableCompileCache;
  if (!enable) return;
  const dir = compileCacheDir();
  if (!dir) return;
  try {
    enable(dir);
  } catch {
    // No cache: the modules compile as they would without one.
  }
}
