/**
 * The lock of a data directory: one server at a time. It is a lock the operating system holds
 * for the server's process and drops when the process ends, however it ends (SIGKILL, a crash, a
 * container stopped): SQLite's write lock on `lock.db` (an fcntl lock on POSIX systems, LockFileEx
 * on Windows), taken through `node:sqlite` and held by a transaction left open for the server's
 * whole life. The kernel keeps such a lock per file, not per PID namespace, so a second server in
 * another container on the same volume is refused as surely as one beside it; a pid written in a
 * file is not (another namespace cannot see the pid, and would take the directory over).
 *
 * Node has no file locks of its own; `node:sqlite` (Node 22.13 and newer, or 22.5 and newer with
 * `--experimental-sqlite`) is the only built-in way to hold one. Without it `--data-dir` is
 * refused: a directory that cannot be locked could be written by two servers at once.
 *
 * The file is never removed or rewritten by anything but SQLite, and never opened by any other
 * code of this process: closing any descriptor of a file drops the process's fcntl locks on it.
 */
import { closeSync, openSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";

/** The lock's file in the data directory. */
export const LOCK_FILE = "lock.db";

/** A held lock. */
export interface DirLock {
  /** Drops the lock (the process's end drops it too). */
  release(): void;
}

/** What this module uses of `node:sqlite` (its types are not in @types/node 20). */
interface Statement {
  get(...params: unknown[]): unknown;
  run(...params: unknown[]): unknown;
}
interface Database {
  exec(sql: string): void;
  prepare(sql: string): Statement;
  close(): void;
}
type DatabaseSync = new (path: string) => Database;

/** `node:sqlite`'s database class, without its start-up notice, or an error saying what is missing. */
export function sqlite(): DatabaseSync {
  // Loading it prints "SQLite is an experimental feature" on every start: that notice, and only
  // that one, is not passed on.
  const emit = process.emitWarning;
  process.emitWarning = (warning: string | Error, ...rest: unknown[]) => {
    if (!/^SQLite is an experimental feature/.test(typeof warning === "string" ? warning : warning.message))
      (emit as (...a: unknown[]) => void).call(process, warning, ...rest);
  };
  try {
    return (require("node:sqlite") as { DatabaseSync: DatabaseSync }).DatabaseSync;
  } catch {
    throw new Error(
      `a data directory needs node:sqlite, for the lock that keeps a second server off it, and this Node ` +
        `(${process.version}) has none: use Node 22.13 or newer (22.5 to 22.12 with --experimental-sqlite, ` +
        `and never with --no-experimental-sqlite)`,
    );
  } finally {
    process.emitWarning = emit;
  }
}

/** True for SQLite's "the database is locked" (SQLITE_BUSY). */
const busy = (e: unknown) => (e as { errcode?: number }).errcode === 5 || /database is locked/.test(String((e as Error).message));

/** Who holds the lock, as that server wrote it down, in words. */
function holderOf(db: Database): string {
  try {
    const h = db.prepare("SELECT pid, host, since FROM holder WHERE id = 1").get() as { pid: number; host: string; since: string } | undefined;
    if (h) return `another irv-server (process ${h.pid} on host ${h.host}, as it saw itself; started ${h.since})`;
  } catch {
    // It has not written its name yet.
  }
  return "another irv-server";
}

/**
 * Takes the lock of `dir`, or throws naming the directory and who holds it. The holder's pid and
 * host are written in the lock file for that message only: they decide nothing.
 */
export function lockDataDir(dir: string): DirLock {
  const DatabaseSync = sqlite();
  const path = join(dir, LOCK_FILE);
  // Created by hand so that it is private from the start (SQLite would make it 0644).
  closeSync(openSync(path, "a", 0o600));
  const db = new DatabaseSync(path);
  const refuse = () => {
    const who = holderOf(db);
    db.close();
    return new Error(`data directory ${dir} is in use by ${who}; its lock (${LOCK_FILE}) is held until that server stops`);
  };
  try {
    db.exec("BEGIN IMMEDIATE");
  } catch (e) {
    if (busy(e)) throw refuse();
    db.close();
    throw e;
  }
  db.exec("CREATE TABLE IF NOT EXISTS holder (id INTEGER PRIMARY KEY CHECK (id = 1), pid INTEGER NOT NULL, host TEXT NOT NULL, since TEXT NOT NULL)");
  db.prepare("INSERT OR REPLACE INTO holder (id, pid, host, since) VALUES (1, ?, ?, ?)").run(process.pid, hostname(), new Date().toISOString());
  db.exec("COMMIT");
  // The lock itself: a write transaction left open until release. Another server may have taken
  // it between the commit and here; it is then the holder.
  try {
    db.exec("BEGIN IMMEDIATE");
  } catch (e) {
    if (busy(e)) throw refuse();
    db.close();
    throw e;
  }
  let held = true;
  return {
    release: () => {
      if (!held) return;
      held = false;
      db.exec("ROLLBACK");
      db.close();
    },
  };
}
