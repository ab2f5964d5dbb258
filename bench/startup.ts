/**
 * The plugin's start-up: the CPU and wall time from its start to its port line (what every
 * operation pays before the engine's first call), of this checkout's build and, with `--against`,
 * of another (a copy of a former build's `bin/` and `dist/`), started in turn, pair by pair, so
 * the machine's load hits both alike. CPU is read at the port line from
 * /proc/<pid>/task/<tid>/schedstat (every thread's time on a CPU, in nanoseconds; `utime` and
 * `stime` count 10 ms ticks), the process then killed. Each build runs once unmeasured first, so
 * that a node other than the build's has written its own code cache (plugin/boot.ts).
 *
 * `--calls 30`: each start then serves one operation's calls (bench/plugin-session.ts: 30 groups
 * created, read, updated and deleted against an irv-server in this process) and is stopped with
 * SIGINT, as the engine stops it; its CPU is read after each step. The unmeasured first run of each
 * build serves them too: a plugin that writes its cache again at exit after new calls has then
 * done so.
 *
 *   npm run bench -- startup [--runs 31] [--node <path>] [--against <root>] [--calls 30]
 */
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { repoRoot } from "../harness/engine";
import { startServer, type RunningServer } from "../server";
import { driveSession, STEPS, type Step } from "./plugin-session";

interface Start {
  cpuMs: number;
  wallMs: number;
  /** With `--calls`: the CPU of each step, from the port line on. */
  steps?: Record<Step, number>;
}

/** With `--calls`: the server the calls go to, and how many groups. */
interface Calls {
  server: RunningServer;
  n: number;
}

/** Nanoseconds on a CPU of every thread of `pid` still alive. */
function cpuNs(pid: number): number {
  let ns = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "latin1").split(" ")[0]);
    } catch {
      // The thread ended in between.
    }
  }
  return ns;
}

/**
 * Starts the plugin of the checkout at `root` with `node`; resolves at its port line, or with
 * `calls`, once it has served them and exited.
 */
function startOnce(node: string, root: string, calls?: Calls): Promise<Start> {
  const t0 = performance.now();
  const child = spawn(node, [path.join(root, "bin", "pulumi-resource-irv")], { stdio: ["ignore", "pipe", "ignore"] });
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  return new Promise<Start>((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      if (!out.includes("\n")) return;
      const start = { cpuMs: cpuNs(child.pid!) / 1e6, wallMs: performance.now() - t0 };
      if (!calls) {
        child.kill();
        return resolve(start);
      }
      const steps = {} as Record<Step, number>;
      let last = cpuNs(child.pid!);
      const mark = (step: Step) => {
        const now = cpuNs(child.pid!);
        steps[step] = (now - last) / 1e6;
        last = now;
      };
      driveSession(out.trim(), calls.server, calls.n, mark)
        .then(() => {
          child.kill("SIGINT");
          return exited;
        })
        .then(() => resolve({ ...start, steps }), reject);
    });
    child.on("error", reject);
    child.on("exit", (code) => out.includes("\n") || reject(new Error(`${root}: the plugin exited with ${code} before printing its port`)));
  });
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

function option(argv: string[], name: string): string | undefined {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
}

export async function runStartupBench(argv: string[] = []): Promise<string> {
  const runs = Number(option(argv, "--runs") ?? 31);
  const node = option(argv, "--node") ?? process.execPath;
  const against = option(argv, "--against");
  const n = Number(option(argv, "--calls") ?? 0);
  const calls = n > 0 ? { server: await startServer(), n } : undefined;
  const builds = [{ name: "this build", root: repoRoot }, ...(against ? [{ name: `against (${against})`, root: path.resolve(against) }] : [])];
  const before = loadavg()[0];
  for (const b of builds) await startOnce(node, b.root, calls);
  const readings = builds.map(() => [] as Start[]);
  for (let i = 0; i < runs; i++) {
    // Alternate which goes first, so neither always follows the other.
    const order = i % 2 ? [...builds.keys()].reverse() : [...builds.keys()];
    for (const j of order) readings[j].push(await startOnce(node, builds[j].root, calls));
  }
  const version = await new Promise<string>((resolve) => {
    const c = spawn(node, ["--version"]);
    let v = "";
    c.stdout.on("data", (d: Buffer) => (v += d.toString()));
    c.on("close", () => resolve(v.trim()));
  });
  await calls?.server.close();
  const rows = builds.map((b, j) => {
    const cpu = readings[j].map((r) => r.cpuMs);
    const wall = readings[j].map((r) => r.wallMs);
    return `| ${b.name} | ${median(cpu).toFixed(0)} ms | ${Math.min(...cpu).toFixed(0)} to ${Math.max(...cpu).toFixed(0)} ms | ${median(wall).toFixed(0)} ms |`;
  });
  const start = [
    `The plugin from its start to its port line, on node ${version}: ${runs} starts of each, in turn; medians.`,
    "",
    "| build | CPU (all threads) | CPU, least to most | wall |",
    "|---|---|---|---|",
    ...rows,
  ];
  const served = calls
    ? [
        "",
        `Then one operation's calls for ${calls.n} groups (bench/plugin-session.ts), the plugin's CPU in each step (all threads), medians; the process stopped with SIGINT after the last.`,
        "",
        `| build | ${STEPS.join(" | ")} | the calls | start and calls |`,
        `|---|${STEPS.map(() => "---|").join("")}---|---|`,
        ...builds.map((b, j) => {
          const of = (f: (r: Start) => number) => `${median(readings[j].map(f)).toFixed(0)} ms`;
          const sum = (r: Start) => STEPS.reduce((t, s) => t + r.steps![s], 0);
          return `| ${b.name} | ${STEPS.map((s) => of((r) => r.steps![s])).join(" | ")} | ${of(sum)} | ${of((r) => r.cpuMs + sum(r))} |`;
        }),
      ]
    : [];
  return [
    ...start,
    ...served,
    "",
    `Machine: ${cpus().length} cores; 1-minute load average ${before.toFixed(1)} before, ${loadavg()[0].toFixed(1)} after.`,
  ].join("\n");
}
