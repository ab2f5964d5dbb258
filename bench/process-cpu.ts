/**
 * CPU by process for a benchmark's operation, on Linux: what the processes this one started (and
 * theirs) spent, read from /proc. Two readings:
 * - the total, exact: this process's `cutime + cstime` (the CPU of every descendant once it has
 *   been waited for: a CLI waits for the plugins it starts, and this process waits for the CLI);
 * - the split by program, sampled: /proc/<pid>/stat of every descendant every `intervalMs`, the
 *   last reading of each process kept, so what a process spends after its last sample, or a
 *   process that lives less than one interval, is missed.
 * This process's own CPU (the program, an in-process server) is `process.cpuUsage()`.
 */
import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";

/** Clock ticks per second of /proc's times (USER_HZ, 100 on Linux). */
const TICKS = 100;

/** The fields of /proc/<pid>/stat after the command (which may hold spaces and parentheses). */
function statFields(pid: string | number): string[] | undefined {
  try {
    const s = readFileSync(`/proc/${pid}/stat`, "latin1");
    return s.slice(s.lastIndexOf(")") + 2).split(" ");
  } catch {
    return undefined;
  }
}

/** CPU seconds of waited-for descendants of this process. */
function childrenSeconds(): number {
  const f = statFields("self")!;
  // After the command: state(0) ppid(1) ... utime(11) stime(12) cutime(13) cstime(14).
  return (Number(f[13]) + Number(f[14])) / TICKS;
}

/** Names a process by what it runs: `argv[0]`'s file name, or for node the script's. */
export function programOf(pid: string): string {
  let argv: string[];
  try {
    argv = readFileSync(`/proc/${pid}/cmdline`, "latin1").split("\0").filter(Boolean);
  } catch {
    return "?";
  }
  const exe = path.basename(argv[0] ?? "?");
  if (exe !== "node") return exe.replace(/_v[\d.]+$/, "");
  if (argv.some((a) => a === "-e" || a === "--eval")) return "node -e";
  // The script's folder too: `cli/index.js` (irv) is not `dynamic-provider/index.js` (Pulumi's host).
  const script = argv.slice(1).find((a) => !a.startsWith("-"));
  return script ? `node ${script.split("/").slice(-2).join("/")}` : "node";
}

/** What `measure` resolves to: seconds of CPU. */
export interface CpuReading {
  /** Every descendant, exact (see above). */
  children: number;
  /** This process (its program and anything in process, such as a server). */
  self: number;
  /** Descendants by program, sampled. */
  byProgram: Record<string, number>;
}

/** Runs `work`, sampling its descendants' CPU every `intervalMs`. */
export async function measureCpu<T>(work: () => Promise<T>, intervalMs = 200): Promise<[T, CpuReading]> {
  const last = new Map<string, { program: string; seconds: number }>();
  const sample = () => {
    const parents = new Map<string, string>();
    const times = new Map<string, number>();
    for (const pid of readdirSync("/proc")) {
      if (!/^\d+$/.test(pid)) continue;
      const f = statFields(pid);
      if (!f) continue;
      parents.set(pid, f[1]);
      times.set(pid, (Number(f[11]) + Number(f[12])) / TICKS);
    }
    const me = String(process.pid);
    for (const [pid, seconds] of times) {
      let p: string | undefined = parents.get(pid);
      while (p && p !== "0" && p !== "1" && p !== me) p = parents.get(p);
      if (p !== me) continue;
      const known = last.get(pid);
      last.set(pid, { program: known?.program ?? programOf(pid), seconds });
    }
  };
  const children = childrenSeconds();
  const self = process.cpuUsage();
  const timer = setInterval(sample, intervalMs);
  let result: T;
  try {
    result = await work();
  } finally {
    clearInterval(timer);
  }
  const used = process.cpuUsage(self);
  const byProgram: Record<string, number> = {};
  for (const { program, seconds } of last.values()) byProgram[program] = (byProgram[program] ?? 0) + seconds;
  return [result, { children: childrenSeconds() - children, self: (used.user + used.system) / 1e6, byProgram }];
}
