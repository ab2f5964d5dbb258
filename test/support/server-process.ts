/** irv-server as a child process on a data directory, for the durability tests. */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterAll } from "vitest";

const root = join(__dirname, "..", "..");
export const cli = join(root, "dist", "server", "cli.js");

/**
 * Builds dist when `dist/server/cli.js` is missing or older than one of the server's sources that
 * process tests start through (`npm test` builds first; this serves a test file run on its own).
 */
export function ensureBuilt(): void {
  const newest = ["cli.ts", "index.ts", "shutdown.ts", "store/data-dir.ts", "store/journal.ts", "store/store.ts"]
    .map((f) => statSync(join(root, "server", f)).mtimeMs)
    .reduce((a, b) => Math.max(a, b));
  if (!existsSync(cli) || statSync(cli).mtimeMs < newest) spawnSync("npx", ["tsc", "-p", "."], { cwd: root, stdio: "ignore" });
}

/**
 * For a test file: a function returning a fresh data directory path (not created yet, so the
 * server initializes it); the temporary parents are removed after the file's tests.
 */
export function useDataDirs(prefix: string): () => string {
  const made: string[] = [];
  afterAll(() => {
    for (const d of made) rmSync(d, { recursive: true, force: true });
  });
  return () => {
    made.push(mkdtempSync(join(tmpdir(), prefix)));
    return join(made[made.length - 1], "data");
  };
}

/** The start line. */
export interface StartLine {
  url: string;
  authUrl: string;
  organization: string;
  token: string;
}

/** A running irv-server process. */
export interface ServerProcess {
  start: StartLine;
  child: ChildProcess;
  /** What it wrote on stderr so far. */
  stderr(): string;
  /** Resolves with the exit code or signal. */
  exited: Promise<number | string | null>;
}

/**
 * Runs `irv-server --quiet --data-dir dir ...args` and waits for its start line. `fileSizeKiB`
 * caps the size of any file it writes (RLIMIT_FSIZE): past it, writes fail with EFBIG, as a full
 * disk fails them. With `logs`, no `--quiet`: the request log goes to stderr.
 */
export async function launch(dir: string, args: string[] = [], fileSizeKiB?: number, logs = false): Promise<ServerProcess> {
  const argv = [cli, ...(logs ? [] : ["--quiet"]), "--data-dir", dir, ...args];
  const child =
    fileSizeKiB === undefined
      ? spawn(process.execPath, argv, { stdio: ["ignore", "pipe", "pipe"] })
      : spawn("bash", ["-c", `ulimit -f ${fileSizeKiB} && exec "$0" "$@"`, process.execPath, ...argv], { stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr!.on("data", (d) => (stderr += d));
  const exited = new Promise<number | string | null>((resolve) => child.once("exit", (code, signal) => resolve(signal ?? code)));
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once("line", resolve);
    void exited.then((code) => reject(new Error(`irv-server exited ${code}: ${stderr}`)));
  });
  return { start: JSON.parse(line) as StartLine, child, stderr: () => stderr, exited };
}

/** Kills the process with SIGKILL (no chance to flush or clean up) and waits for it. */
export async function crash(p: ServerProcess): Promise<void> {
  p.child.kill("SIGKILL");
  await p.exited;
}

/** Stops the process cleanly (SIGTERM) and waits for it. */
export async function stop(p: ServerProcess): Promise<void> {
  p.child.kill("SIGTERM");
  await p.exited;
}

/** The byte offsets where the journal's records start, and its length (the record framing). */
export function journalRecords(path: string): { starts: number[]; length: number } {
  const buf = readFileSync(path);
  const starts: number[] = [];
  for (let at = 0; at + 8 <= buf.length; at += 8 + buf.readUInt32LE(at)) starts.push(at);
  return { starts, length: buf.length };
}

/** The port of a URL. */
export const portOf = (url: string): string => new URL(url).port;
