/**
 * `irv drift --follow` as a child process for tests: started on 127.0.0.1 port 0, its reports
 * read as JSON lines, with waits on conditions (never fixed sleeps), and a TCP door in front of
 * an irv-server that can be shut and opened again on the same port (the server down and back).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createServer, connect, type Server, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { createInterface } from "node:readline";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import type { FollowReport } from "../../cli/follow/follow";
import { IRV_BIN } from "./cli";

/** A running follower. */
export interface FollowProcess {
  /** The receiver's URL (`http://127.0.0.1:<port>/`). */
  url: string;
  reports: FollowReport[];
  stderr(): string;
  /** Resolves with the first report (from `from` on) that `test` accepts; rejects after `timeoutMs` or when the process exits. */
  waitFor(test: (r: FollowReport) => boolean, timeoutMs?: number, from?: number): Promise<FollowReport>;
  health(): Promise<Record<string, any>>;
  stop(): Promise<number | null>;
  child: ChildProcess;
}

/** Generous: a loaded CI machine runs the engine's reads slowly. */
export const FOLLOW_WAIT_MS = 120_000;

/** A folder holding an `irv` that runs this checkout's build, to put on PATH for commands as a doc prints them. */
export function irvOnPath(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "irv-bin-"));
  writeFileSync(path.join(dir, "irv"), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(IRV_BIN)} "$@"\n`, { mode: 0o755 });
  return dir;
}

/**
 * Starts `command` (a shell command line running `irv drift --follow`, as a doc prints it; `irv`
 * on PATH from irvOnPath) with `args` appended, in `env`. It must print JSON reports
 * (`--format json`); `--listen 127.0.0.1:0` picks a free port.
 */
export async function startFollow(command: string, args: string[], env: Record<string, string>): Promise<FollowProcess> {
  const line = `exec ${command} ${args.map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(" ")}`;
  const child = spawn("sh", ["-c", line], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  const reports: FollowReport[] = [];
  const waiters = new Set<() => void>();
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  createInterface({ input: child.stdout! }).on("line", (line) => {
    reports.push(JSON.parse(line) as FollowReport);
    for (const w of waiters) w();
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr!.on("data", (d) => {
      stderr += d;
      for (const w of waiters) w();
      const m = /listening on (\S+)/.exec(stderr);
      if (m) resolve(m[1]);
    });
    void exited.then((code) => reject(new Error(`irv drift --follow exited ${code}: ${stderr}`)));
  });
  let done = false;
  void exited.then(() => {
    done = true;
    for (const w of waiters) w();
  });
  return {
    url,
    reports,
    child,
    stderr: () => stderr,
    waitFor(test, timeoutMs = FOLLOW_WAIT_MS, from = 0) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = reports.slice(from).find(test);
          if (found || done) {
            waiters.delete(check);
            clearTimeout(timer);
            if (found) resolve(found);
            else reject(new Error(`irv drift --follow exited before the report came: ${stderr}`));
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no such report within ${timeoutMs} ms; reports: ${JSON.stringify(reports.map((r) => r.follow))}; stderr: ${stderr}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    health: async () => (await fetch(new URL("/healthz", url))).json() as Promise<Record<string, any>>,
    async stop() {
      child.kill("SIGTERM");
      return exited;
    },
  };
}

/**
 * A TCP door on a fixed port to `upstream` (host:port; a function: where it leads now, and
 * nowhere, connections cut, while it gives undefined), that can be shut (connections refused
 * and cut) and opened again. TLS passes through it untouched.
 */
export async function startDoor(
  upstream: URL | (() => URL | undefined),
): Promise<{ url: string; shut(): Promise<void>; open(): Promise<void>; close(): Promise<void> }> {
  const to = typeof upstream === "function" ? upstream : () => upstream;
  let server: Server | undefined;
  const sockets = new Set<Socket>();
  let port = 0;
  const open = async () => {
    server = createServer((s) => {
      const where = to();
      if (!where) return void s.destroy();
      const u = connect(Number(where.port), where.hostname);
      sockets.add(s).add(u);
      const drop = () => {
        s.destroy();
        u.destroy();
        sockets.delete(s);
        sockets.delete(u);
      };
      s.on("error", drop).on("close", drop);
      u.on("error", drop).on("close", drop);
      s.pipe(u).pipe(s);
    });
    await new Promise<void>((resolve) => server!.listen(port, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  };
  const shut = async () => {
    for (const s of sockets) s.destroy();
    sockets.clear();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server = undefined;
  };
  await open();
  return { url: `http://127.0.0.1:${port}`, shut, open, close: shut };
}

/** Waits until `test` holds, checking every 50 ms, at most `timeoutMs` (generous: CI is loaded). */
export async function waitUntil(test: () => boolean | Promise<boolean>, timeoutMs = FOLLOW_WAIT_MS): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await test())) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 50));
  }
}
