/**
 * Plugin benchmark: `up`, no-op `preview`, `refresh` and `destroy` of the same 300-resource org
 * through the resource plugin (`pulumi-resource-irv`, found through `plugins.providers[].path`),
 * through the dynamic classes, and as 300 trivial dynamic resources that make no API call, side
 * by side in one run: every repetition runs the three stacks one after the other (in a rotating
 * order), so machine load hits them alike, and each figure is a median.
 *
 *   npm run bench -- plugin [--rounds N]     # this part alone; `npm run bench` runs it with the rest
 */
import { cpus, loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import type { PulumiFn } from "@pulumi/pulumi/automation";
import { startServer } from "../server";
import { createStack, type TestStack } from "../harness/engine";
import { PluginResource, usePluginFrom } from "../harness/plugin";
import { N, OPS, TEAMS, operation, orgProgram, trivialProgram, type Op } from "./engine";

const SIDES = ["trivial", "dynamic", "plugin"] as const;
type Side = (typeof SIDES)[number];
/** Runs of each operation per round; a round is up, previews, refreshes, destroy. */
const RUNS: Record<Op, number> = { up: 1, preview: 3, refresh: 3, destroy: 1 };

/** orgProgram's org (bench/engine.ts), resource for resource, through the plugin. */
function pluginProgram(organization: string): PulumiFn {
  return async () => {
    for (let i = 0; i < TEAMS; i++) {
      const team = new PluginResource("Group", `team-${i}`, { parentUid: organization, name: `team-${i}`, description: `team ${i}` });
      const squad = new PluginResource("Group", `squad-${i}`, { parentUid: team.uid, name: "squad" });
      const role = new PluginResource("Role", `role-${i}`, {
        groupUid: team.uid,
        name: `reader-${i}`,
        capabilities: ["repo.list", "tag.list"],
      });
      const ci = new PluginResource("Identity", `ci-${i}`, {
        groupUid: team.uid,
        name: `ci-${i}`,
        claimMatch: { issuer: "https://ci.example.com", subject: `repo:acme/team-${i}:ref:refs/heads/main` },
      });
      new PluginResource("RoleBinding", `ci-${i}-reader`, { groupUid: squad.uid, identityUid: ci.uid, roleUid: role.uid });
    }
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

type Samples = Record<Side, Record<Op, number[]>>;

/** Runs the benchmark for `rounds` rounds; returns the `## Plugin` section of BENCHMARKS.md (without the heading). */
export async function runPluginBench(rounds = 3): Promise<string> {
  const loadBefore = loadavg()[0];
  const started = performance.now();
  const server = await startServer();
  const stacks = {} as Record<Side, TestStack>;
  const seconds = {} as Samples;
  const requests = {} as Samples;
  let state = {} as Record<Side, number>;
  for (const side of SIDES) {
    seconds[side] = { up: [], preview: [], refresh: [], destroy: [] };
    requests[side] = { up: [], preview: [], refresh: [], destroy: [] };
  }
  try {
    stacks.trivial = await createStack({ stackName: "bench-trivial", program: trivialProgram });
    stacks.dynamic = await createStack({ stackName: "bench-dynamic", program: orgProgram(server.organization), server });
    stacks.plugin = await createStack({ stackName: "bench-plugin", program: pluginProgram(server.organization), server });
    await usePluginFrom(stacks.plugin);
    let turn = 0;
    for (let round = 0; round < rounds; round++) {
      for (const op of OPS) {
        for (let run = 0; run < RUNS[op]; run++) {
          // Rotate who goes first, so no side always runs right after the same other one.
          const order = SIDES.map((_, i) => SIDES[(i + turn) % SIDES.length]);
          turn++;
          for (const side of order) {
            const from = server.requests.length;
            const start = performance.now();
            await operation(stacks[side].stack, op)();
            seconds[side][op].push((performance.now() - start) / 1000);
            requests[side][op].push(server.requests.length - from);
          }
        }
        if (op === "up") state = await stateBytes(stacks);
      }
    }
  } finally {
    for (const t of Object.values(stacks)) await t.dispose();
    await server.close();
  }
  return report(seconds, requests, state, rounds, [loadBefore, loadavg()[0]], (performance.now() - started) / 1000);
}

/**
 * Checks that each stack holds its N resources after up (so no side measures an empty or partial
 * stack); returns the size of each one's state, which the engine writes again after every step.
 */
async function stateBytes(stacks: Record<Side, TestStack>): Promise<Record<Side, number>> {
  const bytes = {} as Record<Side, number>;
  for (const side of SIDES) {
    const state = await stacks[side].exportState();
    const resources = (state.deployment as { resources?: { type: string }[] }).resources ?? [];
    const ours = resources.filter((r) => r.type !== "pulumi:pulumi:Stack" && !r.type.startsWith("pulumi:providers:"));
    if (ours.length !== N) throw new Error(`${side}: ${ours.length} resources in state after up, expected ${N}`);
    bytes[side] = Buffer.byteLength(JSON.stringify(state));
  }
  return bytes;
}

function report(seconds: Samples, requests: Samples, state: Record<Side, number>, rounds: number, load: number[], wall: number): string {
  const s = (side: Side, op: Op) => median(seconds[side][op]);
  const rows = OPS.map((op) => {
    const cells = [
      ...SIDES.map((side) => `${s(side, op).toFixed(1)} s`),
      `${(s("plugin", op) / s("trivial", op)).toFixed(2)}x`,
      `${(s("plugin", op) / s("dynamic", op)).toFixed(2)}x`,
      `${(s("dynamic", op) / s("trivial", op)).toFixed(2)}x`,
      (median(requests.plugin[op]) / N).toFixed(2),
    ];
    return `| ${op} | ${cells.join(" | ")} |`;
  });
  const samples = OPS.map((op) => `${op} ${rounds * RUNS[op]}`).join(", ");
  return [
    `${N} resources per stack; \`npm run bench -- plugin\` (this part alone), ${rounds} rounds.`,
    `The same org (${TEAMS} teams of group, subgroup, custom role, identity and role binding) through`,
    "the resource plugin and through the dynamic classes, against one in-process irv-server, and as",
    "many trivial dynamic resources wired the same way that make no API call. Wall clock, median of",
    `the runs (${samples}), each run of an operation followed by the same run on the other two stacks.`,
    "",
    "| operation | trivial | dynamic | plugin | plugin / trivial | plugin / dynamic | dynamic / trivial | plugin API requests per resource |",
    "|---|---|---|---|---|---|---|---|",
    ...rows,
    "",
    `State after up: ${SIDES.map((side) => `${side} ${Math.round(state[side] / 1024)} KiB`).join(", ")}.`,
    "Goal: the plugin within 1.1x of trivial.",
    `Machine: ${cpus().length} cores; 1-minute load average ${load.map((l) => l.toFixed(1)).join(" before, ")} after; ${Math.round(wall)} s in all.`,
  ].join("\n");
}

/** The `--rounds N` of a command line, if given. */
export function roundsOf(argv: string[]): number | undefined {
  const i = argv.indexOf("--rounds");
  if (i < 0) return undefined;
  const n = Number(argv[i + 1]);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--rounds: expected a positive whole number, got ${argv[i + 1] ?? "nothing"}`);
  return n;
}

if (require.main === module) {
  runPluginBench(roundsOf(process.argv)).then(
    (text) => console.log(text),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
