/**
 * `npm run bench -- follow`: how soon `irv drift --follow` reports a hand edit, on irv-server's
 * own deliveries, with irv-server answering at once and after 40 ms per request; and what the
 * same number of API requests per hour buys a scheduled `irv drift` instead.
 *
 * A stack of GROUPS groups and the subscription whose sink is the receiver (https to
 * loopback, over https with a self-signed certificate irv-server trusts: `allowPrivateSinks`, `ca`). Each round edits one group by hand and times the
 * wait until the receiver's JSON report names it; the requests the receiver made for it are
 * counted at the server. A scheduled drift's full run is measured too (its requests and time):
 * at the receiver's cost in requests per hour for EDITS_PER_HOUR edits, a schedule could run a
 * full drift every `full requests / (receiver requests per edit × edits per hour)` hours, and
 * finds an edit on average half an interval, plus its run, after it is made.
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { createInterface } from "node:readline";
import * as irv from "../dynamic";
import { startServer, type RunningServer } from "../server";
import { createStack, pulumiBinDir, pulumiEnv, repoRoot } from "../harness/engine";
import type { FollowReport } from "../cli/follow/follow";

const GROUPS = 30;
const ROUNDS = 10;
/** The hand edits per hour the comparison assumes: a busy org. */
const EDITS_PER_HOUR = 60;
const IRV = path.join(repoRoot, "dist", "cli", "bin.js");

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** A self-signed certificate for 127.0.0.1 (openssl), in a fresh folder: the platform delivers only to https sinks. */
function certificate(): { dir: string; cert: string; key: string } {
  const dir = mkdtempSync(path.join(tmpdir(), "irv-follow-bench-"));
  const cert = path.join(dir, "cert.pem");
  const key = path.join(dir, "key.pem");
  execFileSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:P-256",
      "-nodes",
      "-keyout",
      key,
      "-out",
      cert,
      "-days",
      "1",
      "-subj",
      "/CN=127.0.0.1",
      "-addext",
      "subjectAltName=IP:127.0.0.1",
    ],
    { stdio: "ignore" },
  );
  return { dir, cert, key };
}

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

async function patch(server: RunningServer, uid: string, description: string): Promise<void> {
  const res = await fetch(`${server.url}/iam/v2beta1/groups/${uid}?update_mask=description`, {
    method: "PATCH",
    headers: { authorization: `Bearer ${server.token}`, "content-type": "application/json" },
    body: JSON.stringify({ description }),
  });
  if (res.status !== 200) throw new Error(`PATCH ${uid}: ${res.status} ${await res.text()}`);
}

interface Measured {
  latencyMs: number;
  detect: number[];
  followRequests: number[];
  full: { seconds: number; requests: number };
}

async function measure(latencyMs: number): Promise<Measured> {
  const tls = certificate();
  const server = await startServer({
    port: 0,
    host: "127.0.0.1",
    delivery: { allowPrivateSinks: true, ca: readFileSync(tls.cert, "utf8"), initialBackoffMs: 100, maxBackoffMs: 1000 },
  });
  const port = await freePort();
  const org = server.organization;
  const t = await createStack({
    stackName: `follow-${latencyMs}`,
    server,
    program: async () => {
      for (let i = 0; i < GROUPS; i++) new irv.iam.Group(`g${i}`, { parentUid: org, name: `team-${i}` });
      new irv.events.Subscription("drift", { parentUid: org, sink: `https://127.0.0.1:${port}/` });
    },
  });
  const env = { ...process.env, ...pulumiEnv(path.join(path.dirname(t.workDir), "home")), PATH: `${pulumiBinDir()}${path.delimiter}${process.env.PATH}` };
  let child: ReturnType<typeof spawn> | undefined;
  try {
    // Deliveries of the stack's creation find no receiver yet: irv-server retries them.
    await t.stack.up();
    child = spawn(
      process.execPath,
      [
        IRV,
        "drift",
        "--follow",
        "--format",
        "json",
        "--listen",
        `127.0.0.1:${port}`,
        "--stack",
        t.stack.name,
        "--cwd",
        t.workDir,
        "--tls-cert",
        tls.cert,
        "--tls-key",
        tls.key,
      ],
      { env, stdio: ["ignore", "pipe", "inherit"] },
    );
    const uids = ((await t.stack.exportStack()).deployment.resources as { type: string; outputs?: { uid?: string } }[])
      .filter((r) => r.type.endsWith("irv:Group"))
      .map((r) => r.outputs!.uid!);
    const reports: FollowReport[] = [];
    const waiters = new Set<() => void>();
    createInterface({ input: child.stdout! }).on("line", (l) => {
      reports.push(JSON.parse(l) as FollowReport);
      for (const w of waiters) w();
    });
    const waitFor = (test: (r: FollowReport) => boolean, from: number) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error("no report within 120 s")), 120_000);
        const check = () => {
          if (reports.slice(from).some(test)) {
            clearTimeout(timer);
            waiters.delete(check);
            resolve();
          }
        };
        waiters.add(check);
        check();
      });
    await waitFor((r) => r.follow.trigger === "start", 0);
    // The deliveries of the stack's own creation, re-read and found in sync, before measuring.
    const settle = async () => {
      while (server.deliveryStats().queued > 0) await new Promise((r) => setTimeout(r, 100));
    };
    await settle();
    if (latencyMs > 0) server.faults.add({ action: "delay", delayMs: latencyMs, times: Infinity });
    const detect: number[] = [];
    const followRequests: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const uid = uids[round % uids.length];
      const from = reports.length;
      const before = server.requests.length;
      const started = performance.now();
      await patch(server, uid, `edited by hand, round ${round}`);
      await waitFor((r) => r.follow.trigger === "events" && r.resources.some((x) => x.uid === uid && x.status === "changed"), from);
      detect.push(performance.now() - started);
      await settle();
      followRequests.push(server.requests.length - before - 1); // the edit itself is not the receiver's
    }
    // A scheduled drift's run, at the same latency.
    const before = server.requests.length;
    const started = performance.now();
    await new Promise<void>((resolve, reject) => {
      const run = spawn(process.execPath, [IRV, "drift", "--format", "json", "--stack", t.stack.name, "--cwd", t.workDir], {
        env,
        stdio: ["ignore", "ignore", "inherit"],
      });
      run.on("exit", (code) => (code === 2 || code === 0 ? resolve() : reject(new Error(`irv drift exited ${code}`))));
    });
    const full = { seconds: (performance.now() - started) / 1000, requests: server.requests.length - before };
    return { latencyMs, detect, followRequests, full };
  } finally {
    if (child && child.exitCode === null) {
      child.kill("SIGTERM");
      await new Promise((r) => child!.once("exit", r));
    }
    await t.dispose();
    await server.close();
    rmSync(tls.dir, { recursive: true, force: true });
  }
}

function report(m: Measured): string {
  const perEdit = median(m.followRequests);
  const perHour = perEdit * EDITS_PER_HOUR;
  const every = perHour > 0 ? m.full.requests / perHour : Infinity; // hours between scheduled runs
  const scheduled = (every * 3600) / 2 + m.full.seconds;
  return [
    `### irv-server answering ${m.latencyMs ? `after ${m.latencyMs} ms` : "at once"}`,
    "",
    "| | time from a hand edit to its report | API requests |",
    "|---|---|---|",
    `| \`irv drift --follow\` (median of ${m.detect.length}; min ${(Math.min(...m.detect) / 1000).toFixed(2)} s, max ${(Math.max(...m.detect) / 1000).toFixed(2)} s) | ${(median(m.detect) / 1000).toFixed(2)} s | ${perEdit} per edit, ${perHour} per hour at ${EDITS_PER_HOUR} edits an hour |`,
    `| scheduled \`irv drift\` at the same ${perHour} requests an hour (one run: ${m.full.requests} requests, ${m.full.seconds.toFixed(1)} s; every ${(every * 60).toFixed(1)} min) | ${scheduled.toFixed(0)} s on average | ${m.full.requests} per run |`,
  ].join("\n");
}

/** Runs both latencies; returns the section of BENCHMARKS.md. */
export async function runFollowBench(argv: string[] = []): Promise<string> {
  const i = argv.indexOf("--latency");
  const latencies = i >= 0 ? argv[i + 1].split(",").map(Number) : [0, 40];
  const out = [`## irv drift --follow: time to report a hand edit (${GROUPS} groups, ${ROUNDS} edits)`, ""];
  for (const l of latencies) out.push(report(await measure(l)), "");
  return out.join("\n");
}
