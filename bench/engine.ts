/**
 * Engine benchmark: `up`, no-op `preview`, `refresh` and `destroy` of an org of 300 irv resources,
 * side by side in one run with 300 trivial dynamic resources that make no API call, so the ratio
 * is our overhead over the engine's own. Also: API requests per resource per operation, and the
 * `__provider` bytes each resource carries in state.
 *
 *   npm run build && node dist/bench/engine.js     # alone; `npm run bench` runs it with the rest
 */
import { cpus, loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import * as pulumi from "@pulumi/pulumi";
import type { PulumiFn, Stack } from "@pulumi/pulumi/automation";
import * as irv from "../dynamic";
import { startServer, type RunningServer } from "../server";
import { createStack, serializedProviders, type TestStack } from "../harness/engine";
import { Trivial } from "../harness/trivial";

/** Resources per stack. */
export const N = 300;
/** Each team is 5 resources: group, subgroup, role, identity, role binding. */
export const TEAMS = N / 5;
export const OPS = ["up", "preview", "refresh", "destroy"] as const;
export type Op = (typeof OPS)[number];
/** Runs of each operation; the no-op ones repeat cheaply, so their median damps machine noise. */
const RUNS: Record<Op, number> = { up: 1, preview: 5, refresh: 5, destroy: 1 };

/** A team's description; the first `updated` teams' read otherwise (an update of a tenth of the org when half the teams). */
export const teamDescription = (i: number, updated = 0): string => (i < updated ? `team ${i}, updated` : `team ${i}`);

/** An org of 5 resources per team under `organization` (N in all by default); `updated`: see teamDescription. */
export function orgProgram(organization: string, teams = TEAMS, updated = 0): PulumiFn {
  return async () => {
    for (let i = 0; i < teams; i++) {
      const team = new irv.iam.Group(`team-${i}`, { parentUid: organization, name: `team-${i}`, description: teamDescription(i, updated) });
      const squad = new irv.iam.Group(`squad-${i}`, { parentUid: team.uid, name: "squad" });
      const role = new irv.iam.Role(`role-${i}`, {
        groupUid: team.uid,
        name: `reader-${i}`,
        capabilities: ["repo.list", "tag.list"],
      });
      const ci = new irv.iam.Identity(`ci-${i}`, {
        groupUid: team.uid,
        name: `ci-${i}`,
        claimMatch: { issuer: "https://ci.example.com", subject: `repo:acme/team-${i}:ref:refs/heads/main` },
      });
      new irv.iam.RoleBinding(`ci-${i}-reader`, { groupUid: squad.uid, identityUid: ci.uid, roleUid: role.uid });
    }
  };
}

/**
 * N resources that only echo their inputs, wired like the org (each team's subgroup, role and
 * identity take the team's output, the binding takes theirs), so both sides give the engine the
 * same dependency graph to walk and only the providers differ.
 */
export const trivialProgram: PulumiFn = trivialProgramOf(TEAMS);

/** trivialProgram for `teams` teams. */
export function trivialProgramOf(teams: number): PulumiFn {
  return async () => {
    for (let i = 0; i < teams; i++) {
      const team = new Trivial(`team-${i}`, { value: `team-${i}` });
      const [squad, role, ci] = ["squad", "role", "ci"].map((what) => new Trivial(`${what}-${i}`, { value: team.value.apply((t) => `${t}/${what}`) }));
      new Trivial(`ci-${i}-reader`, { value: pulumi.interpolate`${squad.value} ${role.value} ${ci.value}` });
    }
  };
}

interface Measured {
  seconds: Record<Op, number>;
  requests: Record<Op, number>;
  providerBytes: number;
}

/** Runs `op` on `stack`; a preview expects no changes. */
export function operation(stack: Stack, op: Op): () => Promise<unknown> {
  return {
    up: () => stack.up(),
    preview: () => stack.preview({ expectNoChanges: true }),
    refresh: () => stack.refresh(),
    destroy: () => stack.destroy(),
  }[op];
}

/** Median seconds and requests per run of `runs` runs of `run`. */
async function timed(server: RunningServer, runs: number, run: () => Promise<unknown>): Promise<[number, number]> {
  const seconds: number[] = [];
  const from = server.requests.length;
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await run();
    seconds.push((performance.now() - start) / 1000);
  }
  seconds.sort((a, b) => a - b);
  return [seconds[Math.floor(runs / 2)], (server.requests.length - from) / runs];
}

/** Runs the benchmark; returns the `## Engine` section of BENCHMARKS.md (without the heading). */
export async function runEngineBench(): Promise<string> {
  const loadBefore = loadavg()[0];
  const server = await startServer();
  const stacks: Record<"trivial" | "irv", TestStack> = {
    trivial: await createStack({ stackName: "bench-trivial", program: trivialProgram }),
    irv: await createStack({ stackName: "bench-irv", program: orgProgram(server.organization), server }),
  };
  const results = {} as Record<"trivial" | "irv", Measured>;
  for (const k of ["trivial", "irv"] as const) results[k] = { seconds: {} as never, requests: {} as never, providerBytes: 0 };
  try {
    // Interleaved per operation, so machine noise hits both sides alike.
    for (const op of OPS) {
      for (const kind of ["trivial", "irv"] as const) {
        [results[kind].seconds[op], results[kind].requests[op]] = await timed(server, RUNS[op], operation(stacks[kind].stack, op));
        if (op === "up") {
          const shims = [...serializedProviders(await stacks[kind].exportState()).values()];
          if (shims.length !== N) throw new Error(`${kind}: ${shims.length} dynamic resources in state, expected ${N}`);
          results[kind].providerBytes = shims.reduce((sum, s) => sum + Buffer.byteLength(s), 0) / N;
        }
      }
    }
  } finally {
    for (const t of Object.values(stacks)) await t.dispose();
    await server.close();
  }
  return report(results.trivial, results.irv, [loadBefore, loadavg()[0]]);
}

function report(trivial: Measured, ours: Measured, load: number[]): string {
  const rows = OPS.map((op) => {
    const ratio = ours.seconds[op] / trivial.seconds[op];
    return `| ${op} | ${trivial.seconds[op].toFixed(1)} s | ${ours.seconds[op].toFixed(1)} s | ${ratio.toFixed(2)}x | ${(ours.requests[op] / N).toFixed(2)} |`;
  });
  return [
    `${N} resources per stack; \`npm run bench\` (the engine part alone: \`node dist/bench/engine.js\`).`,
    `irv: ${TEAMS} teams of group, subgroup, custom role, identity and role binding, against an`,
    "in-process irv-server. Trivial: as many dynamic resources wired the same way (same dependency",
    "graph) that make no API call. Wall clock; preview and refresh are the median of 5 runs.",
    "",
    "| operation | trivial | irv | irv / trivial | API requests per resource |",
    "|---|---|---|---|---|",
    ...rows,
    "",
    `\`__provider\` in state: ${Math.round(ours.providerBytes)} bytes per irv resource, ${Math.round(trivial.providerBytes)} per trivial one.`,
    "Goal: within 1.3x of trivial; one request per resource on refresh.",
    `Machine: ${cpus().length} cores; 1-minute load average ${load.map((l) => l.toFixed(1)).join(" before, ")} after.`,
  ].join("\n");
}

if (require.main === module) {
  runEngineBench().then(
    (text) => console.log(text),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
