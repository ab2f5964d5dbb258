/**
 * irv-server stops gracefully: on SIGTERM or SIGINT it stops accepting, lets the requests in
 * flight finish (so a client learns whether its write landed), and exits; a request still running
 * when the grace period ends is cut off and the exit code says so. Real child processes.
 */
import { spawn, type ChildProcess } from "node:child_process";
import http from "node:http";
import net from "node:net";
import { createInterface } from "node:readline";
import { setTimeout as sleep } from "node:timers/promises";
import { cli, ensureBuilt } from "../support/server-process";
import { beforeAll, describe, expect, it } from "vitest";
import { path } from "../support/server";

beforeAll(ensureBuilt, 180_000);

interface Started {
  child: ChildProcess;
  start: { url: string; token: string; organization: string };
  stderr: () => string;
  exited: Promise<number | null>;
}

async function startChild(env: Record<string, string> = {}): Promise<Started> {
  const child = spawn(process.execPath, [cli, "--port", "0", "--quiet"], { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ...env } });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once("line", resolve);
    void exited.then((code) => reject(new Error(`exited ${code}: ${stderr}`)));
  });
  return { child, start: JSON.parse(line), stderr: () => stderr, exited };
}

/**
 * Starts a POST that creates a group, sending all but the last byte of its body. `inFlight`
 * resolves once the server has the request: it asks for `100 Continue`, which Node's server sends
 * as it takes the request in (no waiting for a while and hoping, which a loaded machine defeats).
 */
function halfSentCreate(s: Started) {
  const body = JSON.stringify({ name: "in-flight" });
  const req = http.request(`${s.start.url}${path("groups", s.start.organization)}`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${s.start.token}`,
      "content-type": "application/json",
      "content-length": Buffer.byteLength(body),
      expect: "100-continue",
    },
  });
  const inFlight = new Promise<void>((resolve) => req.once("continue", () => resolve()));
  const answer = new Promise<{ status: number; body: any }>((resolve, reject) => {
    req.on("response", (res) => {
      let text = "";
      res.on("data", (d) => (text += d));
      res.on("end", () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
    });
    req.on("error", reject);
  });
  req.flushHeaders();
  void inFlight.then(() => req.write(body.slice(0, -1)));
  return { answer, inFlight, finish: () => req.end(body.slice(-1)) };
}

/** Resolves once the server refuses new connections: its stop has begun. */
async function refusing(url: string): Promise<void> {
  const { port } = new URL(url);
  for (;;) {
    const refused = await new Promise<boolean>((resolve) => {
      const s = net.connect(Number(port), "127.0.0.1");
      s.once("connect", () => (s.destroy(), resolve(false)));
      s.once("error", () => resolve(true));
    });
    if (refused) return;
    await sleep(20);
  }
}

describe("irv-server graceful stop", () => {
  it.each(["SIGTERM", "SIGINT"] as const)("on %s answers the request in flight, then exits 0", async (signal) => {
    const s = await startChild();
    const create = halfSentCreate(s);
    // The server has the request, and waits for the last byte of its body.
    await create.inFlight;
    s.child.kill(signal);
    await refusing(s.start.url);
    create.finish();
    const answer = await create.answer;
    expect(answer.status).toBe(200);
    expect(answer.body.name).toBe("in-flight");
    expect(await s.exited).toBe(0);
  });

  it("cuts off a request that outlasts the grace period, and exits 1 saying so", async () => {
    const s = await startChild({ IRV_SHUTDOWN_GRACE_MS: "300" });
    const create = halfSentCreate(s);
    await create.inFlight;
    s.child.kill("SIGTERM");
    // The last byte never comes.
    await expect(create.answer).rejects.toThrow();
    expect(await s.exited).toBe(1);
    expect(s.stderr()).toContain("requests still running after 300 ms were cut off");
  });
});
