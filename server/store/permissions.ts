/**
 * A data directory holds the signing key (`state.json`) and every record: whoever can write to it
 * can mint tokens after the next start. It must be this user's and no one else's to write. The
 * directory, and each file in it, is tightened to 0700 / 0600 when looser (saying so), and refused
 * when another user owns it, since a chmod cannot take it back from them. A symlinked directory is
 * judged by what it points to.
 */
import { chmodSync, lstatSync, readdirSync, realpathSync, statSync } from "node:fs";
import { join } from "node:path";

/** The owner and group/other bits a path must not have more of. */
const DIR_MODE = 0o700;
const FILE_MODE = 0o600;

/** Tightens `dir` and its files to this user alone, calling `warn` for each change; throws when another user owns one. */
export function secureDataDir(dir: string, warn: (message: string) => void): void {
  const real = realpathSync(dir);
  if (real !== dir && lstatSync(dir).isSymbolicLink()) warn(`data directory ${dir} is a link to ${real}: checking that`);
  tighten(real, DIR_MODE, warn);
  for (const name of readdirSync(real)) {
    const path = join(real, name);
    const st = lstatSync(path);
    if (st.isSymbolicLink()) throw new Error(`data directory ${real}: ${name} is a symbolic link; irv-server writes only its own files there: remove it`);
    tighten(path, st.isDirectory() ? DIR_MODE : FILE_MODE, warn);
  }
}

function tighten(path: string, mode: number, warn: (message: string) => void): void {
  const st = statSync(path);
  const uid = process.getuid?.();
  if (uid !== undefined && st.uid !== uid)
    throw new Error(
      `data directory: ${path} belongs to user ${st.uid}, not to this user (${uid}); others could replace the signing key: use a directory of your own`,
    );
  const loose = st.mode & 0o777 & ~mode;
  if (!loose) return;
  chmodSync(path, st.mode & 0o777 & mode);
  warn(`${path} was writable or readable by others (mode ${(st.mode & 0o777).toString(8)}): tightened to ${(st.mode & 0o777 & mode).toString(8)}`);
}
