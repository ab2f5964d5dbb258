/** Crash-safe file writes for the data directory. */
import { closeSync, fsyncSync, openSync, renameSync, writeSync } from "node:fs";
import { dirname } from "node:path";

/** Flushes a directory's entries (a rename or a new file) to disk. */
export function syncDir(dir: string): void {
  const fd = openSync(dir, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Replaces `path` with `data` so that a crash leaves either the old file or the new one, never a
 * mix: write a temporary file, flush it, rename it over `path`, flush the directory.
 */
export function writeFileAtomic(path: string, data: string | Buffer, mode = 0o600): void {
  renameSync(writeFlushed(`${path}.tmp`, data, mode), path);
  syncDir(dirname(path));
}

/** Writes `data` to `path` (replacing it) and flushes it to disk; returns `path`. */
export function writeFlushed(path: string, data: string | Buffer, mode = 0o600): string {
  const fd = openSync(path, "w", mode);
  try {
    const buf = typeof data === "string" ? Buffer.from(data, "utf8") : data;
    let done = 0;
    while (done < buf.length) done += writeSync(fd, buf, done, buf.length - done);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return path;
}
