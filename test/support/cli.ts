/**
 * Helpers for the `irv` CLI tests: run the compiled command (dist/cli/bin.js, built by
 * `npm test`) as a child process and capture its exit code and output.
 */
import { spawn } from "node:child_process";
import * as path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { createStack, ENGINE_TIMEOUT, pulumiEnv, repoRoot, type TestStack } from "./engine";
import { startTestServer, type TestServer } from "./server";

/** What one `irv` run printed and how it exited. */
export interface IrvRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The compiled `irv` bin. */
export const IRV_BIN = path.join(repoRoot, "dist", "cli", "bin.js");

/** Runs `node dist/cli/bin.js ...args` with `env` added to this process's environment. */
export function runIrv(args: string[], env: Record<string, string> = {}, cwd = repoRoot): Promise<IrvRun> {
  return runNode([IRV_BIN, ...args], env, cwd);
}

/** Runs `node ...args` (a script, or `-e` and code) with `env` added to this process's environment. */
export function runNode(args: string[], env: Record<string, string> = {}, cwd = repoRoot): Promise<IrvRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd, env: { ...process.env, ...env } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** A stack applied to a live irv-server for `irv`'s engine tests, and the environment `irv` runs in beside it. */
export interface AppliedStack {
  srv: TestServer;
  t: TestStack;
  env: Record<string, string>;
}

/**
 * Before the file's tests: starts an irv-server, and creates and applies stack `stackName` of
 * `program` (given the organization's uid) on it; after them, removes both.
 */
export function useAppliedStack(stackName: string, program: (org: string) => Promise<void>): AppliedStack {
  const s = {} as AppliedStack;
  beforeAll(async () => {
    s.srv = await startTestServer();
    s.t = await createStack({ stackName, server: s.srv.server, program: () => program(s.srv.server.organization) });
    s.env = pulumiEnv(path.join(path.dirname(s.t.workDir), "home"));
    await s.t.stack.up();
  }, ENGINE_TIMEOUT);
  afterAll(async () => {
    await s.t?.dispose();
    await s.srv?.close();
  });
  return s;
}
