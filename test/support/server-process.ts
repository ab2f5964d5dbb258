/** irv-server as a child process on a data directory, for the durability tests. */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterAll } from "vitest";
import { nodeWithSqlite } from "../../harness/node";

const root = join(__dirname, "..", "..");
export const cli = join(root, "dist", "server", "cli.js");

/**
 * Builds dist when `dist/server/cli.js` is missing or older than one of the server's sources that
 * process tests start through (`npm test` builds first; this serves a test file run on its own).
 */
export function ensureBuilt(): void {
  const newest = ["cli.ts", "index.ts", "shutdown.ts", "store/data-dir.ts", "store/journal.ts", "store/lock.ts", "store/store.ts"]
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
  /** Sends a signal to the server (and its wrapper). */
  signal(sig: NodeJS.Signals): void;
  /** What it wrote on stderr so far. */
  stderr(): string;
  /** Resolves with the exit code or signal. */
  exited: Promise<number | string | null>;
}

/** How to run it. */
export interface LaunchOptions {
  /** Caps the size of any file it writes (RLIMIT_FSIZE): past it, writes fail with EFBIG, as a full disk fails them. */
  fileSizeKiB?: number;
  /** No `--quiet`: the request log goes to stderr. */
  logs?: boolean;
  /** A command (and its arguments) that runs the server, e.g. in new namespaces: `unshare ... --`. */
  wrap?: string[];
  /** Options for Node itself (`--max-old-space-size=192`). */
  nodeOptions?: string[];
}

/**
 * Runs `irv-server --quiet --data-dir dir ...args` on a Node that has node:sqlite (the data
 * directory's lock needs it; harness/node.ts) and waits for its start line. Without `dir`, on
 * this process's Node, keeping nothing.
 */
export async function launch(dir: string | undefined, args: string[] = [], opts: LaunchOptions = {}): Promise<ServerProcess> {
  const node = dir === undefined ? [process.execPath] : [nodeWithSqlite(), "--data-dir", dir];
  const argv = [node[0], ...(opts.nodeOptions ?? []), cli, ...(opts.logs ? [] : ["--quiet"]), ...node.slice(1), ...args];
  const limited = opts.fileSizeKiB === undefined ? argv : ["bash", "-c", `ulimit -f ${opts.fileSizeKiB} && exec "$0" "$@"`, ...argv];
  const [cmd, ...rest] = [...(opts.wrap ?? []), ...limited];
  // A wrapped server gets a process group of its own: signals go to the group, so they reach the
  // server whatever the wrapper does with them (unshare --fork ignores SIGTERM).
  const child = spawn(cmd, rest, { stdio: ["ignore", "pipe", "pipe"], detached: opts.wrap !== undefined });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  const exited = new Promise<number | string | null>((resolve) => child.once("exit", (code, signal) => resolve(signal ?? code)));
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once("line", resolve);
    void exited.then((code) => reject(new Error(`irv-server exited ${code}: ${stderr}`)));
  });
  const signal = (sig: NodeJS.Signals) => (opts.wrap ? process.kill(-child.pid!, sig) : child.kill(sig));
  return { start: JSON.parse(line) as StartLine, child, signal, stderr: () => stderr, exited };
}

/** Kills the process with SIGKILL (no chance to flush or clean up) and waits for it. */
export async function crash(p: ServerProcess): Promise<void> {
  p.signal("SIGKILL");
  await p.exited;
}

/** Stops the process cleanly (SIGTERM) and waits for it. */
export async function stop(p: ServerProcess): Promise<void> {
  p.signal("SIGTERM");
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
