/**
 * Plugin benchmark: `up`, no-op `preview`, `refresh` and `destroy` of the same org, at 300 and
 * 1,500 resources, five ways side by side in one run: through the resource plugin
 * (`pulumi-resource-irv`, found through `plugins.providers[].path`), through the dynamic classes,
 * and the engine's floors wired the same way with no API call: trivial dynamic resources
 * (harness/trivial.ts), a trivial resource plugin (harness/trivial-plugin.ts), and the trivial
 * plugin answering with outputs the irv plugin made, so that its state is as large as the irv
 * plugin's. Every repetition runs the five stacks one after the other (in a rotating order), so
 * machine load hits them alike,
 * and each figure is a median. Then `irv drift` of the plugin's and the dynamic classes' stacks,
 * counted in API requests.
 *
 *   npm run bench -- plugin [--rounds N] [--sizes 300,1500]   # this part alone; `npm run bench` runs it with the rest
 */
import { cpus, loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import type { PulumiFn } from "@pulumi/pulumi/automation";
import { startServer } from "../server";
import { createStack, type TestStack } from "../harness/engine";
import { PluginResource, usePluginFrom } from "../harness/plugin";
import * as path from "node:path";
import { writeFileSync } from "node:fs";
import { spawn } from "node:child_process";
import { pulumiEnv, repoRoot } from "../harness/engine";
import { OPS, operation, orgProgram, teamDescription, trivialProgramOf, type Op } from "./engine";

const SIDES = ["trivial dynamic", "trivial plugin", "trivial plugin, irv's outputs", "dynamic", "plugin"] as const;
type Side = (typeof SIDES)[number];
/** Runs of each operation per round; a round is up, previews, refreshes, destroy. */
const RUNS: Record<Op, number> = { up: 1, preview: 3, refresh: 3, destroy: 1 };
/** Resources per stack, by default: each team is 5 (group, subgroup, role, identity, binding). */
export const SIZES = [300, 1500];

/** orgProgram's org (bench/engine.ts), resource for resource, through the plugin `pkg` (`irvtrivial`: the trivial one); `updated`: see teamDescription. */
export function pluginProgram(organization: string, teams: number, pkg = "irv", updated = 0): PulumiFn {
  return async () => {
    const declare = (type: string, name: string, args: Record<string, unknown>) => new PluginResource(type, name, args, pkg);
    for (let i = 0; i < teams; i++) {
      const team = declare("Group", `team-${i}`, { parentUid: organization, name: `team-${i}`, description: teamDescription(i, updated) });
      const squad = declare("Group", `squad-${i}`, { parentUid: team.uid, name: "squad" });
      const role = declare("Role", `role-${i}`, {
        groupUid: team.uid,
        name: `reader-${i}`,
        capabilities: ["repo.list", "tag.list"],
      });
      const ci = declare("Identity", `ci-${i}`, {
        groupUid: team.uid,
        name: `ci-${i}`,
        claimMatch: { issuer: "https://ci.example.com", subject: `repo:acme/team-${i}:ref:refs/heads/main` },
      });
      declare("RoleBinding", `ci-${i}-reader`, { groupUid: squad.uid, identityUid: ci.uid, roleUid: role.uid });
    }
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

type Samples = Record<Side, Record<Op, number[]>>;

/** One size's measurements. */
interface Measured {
  n: number;
  seconds: Samples;
  requests: Samples;
  state: Record<Side, number>;
  /** API requests of `irv drift` (and its exit code) on the dynamic and plugin stacks. */
  drift: Record<"dynamic" | "plugin", { requests: number; code: number | null }>;
  load: number[];
  wall: number;
}

/** Runs `irv drift` on `t`'s stack (built dist/cli); resolves to its exit code. */
export function irvDrift(t: TestStack, stackName: string): Promise<number | null> {
  const env = { ...process.env, ...pulumiEnv(path.join(path.dirname(t.workDir), "home")) };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(repoRoot, "dist", "cli", "bin.js"), "drift", "--stack", stackName, "--cwd", t.workDir], {
      env,
      stdio: "ignore",
    });
    child.on("error", reject);
    child.on("close", resolve);
  });
}

/**
 * Measures `n` resources per stack for `rounds` rounds. `unmeasuredSetup`: up and destroy run
 * once, with PULUMI_SKIP_CHECKPOINTS=true (the state written once at the end, not after every
 * step) and are not reported; only preview, refresh and `irv drift` are measured (for sizes whose
 * up and destroy take too long to repeat).
 */
async function measure(n: number, rounds: number, unmeasuredSetup = false): Promise<Measured> {
  const teams = n / 5;
  const loadBefore = loadavg()[0];
  const started = performance.now();
  const server = await startServer();
  const stacks = {} as Record<Side, TestStack>;
  const seconds = {} as Samples;
  const requests = {} as Samples;
  let state = {} as Record<Side, number>;
  const drift = {} as Measured["drift"];
  for (const side of SIDES) {
    seconds[side] = { up: [], preview: [], refresh: [], destroy: [] };
    requests[side] = { up: [], preview: [], refresh: [], destroy: [] };
  }
  const names: Record<Side, string> = {
    "trivial dynamic": "bench-trivial",
    "trivial plugin": "bench-trivial-plugin",
    // 7 letters fewer than "bench-plugin", as its package "irvtrivial" has 7 more than "irv":
    // every URN in its state (and there are several per resource) is then as long as the plugin's.
    "trivial plugin, irv's outputs": "bench",
    dynamic: "bench-dynamic",
    plugin: "bench-plugin",
  };
  try {
    stacks["trivial dynamic"] = await createStack({ stackName: names["trivial dynamic"], program: trivialProgramOf(teams) });
    stacks["trivial plugin"] = await createStack({ stackName: names["trivial plugin"], program: pluginProgram(server.organization, teams, "irvtrivial") });
    await usePluginFrom(stacks["trivial plugin"], "irvtrivial", path.join(repoRoot, "harness", "bin"));
    stacks.dynamic = await createStack({ stackName: names.dynamic, program: orgProgram(server.organization, teams), server });
    stacks.plugin = await createStack({ stackName: names.plugin, program: pluginProgram(server.organization, teams), server });
    await usePluginFrom(stacks.plugin);
    // The trivial plugin again, answering creates with outputs the irv plugin made (an unmeasured
    // up and destroy): the same floor, with state and messages as large as the irv plugin's.
    const outputs = path.join(path.dirname(stacks.plugin.workDir), "irv-outputs.json");
    writeFileSync(outputs, JSON.stringify(await outputsByName(stacks.plugin)));
    stacks["trivial plugin, irv's outputs"] = await createStack({
      stackName: names["trivial plugin, irv's outputs"],
      program: pluginProgram(server.organization, teams, "irvtrivial"),
      env: { IRV_TRIVIAL_OUTPUTS: outputs },
    });
    await usePluginFrom(stacks["trivial plugin, irv's outputs"], "irvtrivial", path.join(repoRoot, "harness", "bin"));
    let turn = 0;
    for (let round = 0; round < rounds; round++) {
      for (const op of OPS) {
        // After the last refresh of the last round, before destroy: `irv drift` of each irv stack.
        if (op === "destroy" && round === rounds - 1)
          for (const side of ["dynamic", "plugin"] as const) {
            const from = server.requests.length;
            const code = await irvDrift(stacks[side], names[side]);
            drift[side] = { requests: server.requests.length - from, code };
          }
        for (let run = 0; run < RUNS[op]; run++) {
          // Rotate who goes first, so no side always runs right after the same other one.
          const order = SIDES.map((_, i) => SIDES[(i + turn) % SIDES.length]);
          turn++;
          for (const side of order) {
            const setup = unmeasuredSetup && (op === "up" || op === "destroy");
            const env = stacks[side].stack.workspace.envVars;
            if (setup) env.PULUMI_SKIP_CHECKPOINTS = "true";
            const from = server.requests.length;
            const start = performance.now();
            try {
              await operation(stacks[side].stack, op)();
            } finally {
              delete env.PULUMI_SKIP_CHECKPOINTS;
            }
            if (setup) continue;
            seconds[side][op].push((performance.now() - start) / 1000);
            requests[side][op].push(server.requests.length - from);
          }
        }
        if (op === "up") state = await stateBytes(stacks, n);
      }
    }
  } finally {
    for (const t of Object.values(stacks)) await t.dispose();
    await server.close();
  }
  return { n, seconds, requests, state, drift, load: [loadBefore, loadavg()[0]], wall: (performance.now() - started) / 1000 };
}

/** The resources a state holds that the program declared: not the stack, not the providers. */
function declared(state: Awaited<ReturnType<TestStack["exportState"]>>): { urn: string; type: string; outputs?: unknown }[] {
  const resources = (state.deployment as { resources?: { urn: string; type: string; outputs?: unknown }[] }).resources ?? [];
  return resources.filter((r) => r.type !== "pulumi:pulumi:Stack" && !r.type.startsWith("pulumi:providers:"));
}

/** The outputs of `t`'s program by resource name, from an up and a destroy with no state written between steps. */
async function outputsByName(t: TestStack): Promise<Record<string, unknown>> {
  const env = t.stack.workspace.envVars;
  env.PULUMI_SKIP_CHECKPOINTS = "true";
  try {
    await t.stack.up();
    const state = await t.exportState();
    const ours = declared(state);
    await t.stack.destroy();
    return Object.fromEntries(ours.map((r) => [r.urn.split("::").pop(), r.outputs]));
  } finally {
    delete env.PULUMI_SKIP_CHECKPOINTS;
  }
}

/**
 * Runs the benchmark at each size for `rounds` rounds (`unmeasuredSetup`: see measure); returns
 * the `## Plugin` section of BENCHMARKS.md (without the heading).
 */
export async function runPluginBench(rounds = 3, sizes = SIZES, unmeasuredSetup = false): Promise<string> {
  const out: string[] = [];
  for (const n of sizes) out.push(report(await measure(n, rounds, unmeasuredSetup), rounds));
  return out.join("\n\n");
}

/**
 * Checks that each stack holds its n resources after up (so no side measures an empty or partial
 * stack); returns the size of each one's state, which the engine writes again after every step.
 */
async function stateBytes(stacks: Record<Side, TestStack>, n: number): Promise<Record<Side, number>> {
  const bytes = {} as Record<Side, number>;
  for (const side of SIDES) {
    const state = await stacks[side].exportState();
    const ours = declared(state);
    if (ours.length !== n) throw new Error(`${side}: ${ours.length} resources in state after up, expected ${n}`);
    bytes[side] = Buffer.byteLength(JSON.stringify(state));
  }
  return bytes;
}

function report(m: Measured, rounds: number): string {
  const s = (side: Side, op: Op) => median(m.seconds[side][op]);
  const r = (side: Side, op: Op) => median(m.requests[side][op]);
  const ratio = (a: Side, b: Side, op: Op) => `${(s(a, op) / s(b, op)).toFixed(2)}x`;
  const measured = OPS.filter((op) => m.seconds.plugin[op].length > 0);
  const rows = measured.map((op) => {
    const cells = [
      ...SIDES.map((side) => `${s(side, op).toFixed(1)} s`),
      ratio("plugin", "trivial plugin", op),
      ratio("plugin", "trivial plugin, irv's outputs", op),
      ratio("dynamic", "trivial dynamic", op),
      ratio("plugin", "trivial dynamic", op),
      ratio("trivial plugin", "trivial dynamic", op),
      String(r("dynamic", op)),
      String(r("plugin", op)),
    ];
    return `| ${op} | ${cells.join(" | ")} |`;
  });
  const samples = measured.map((op) => `${op} ${m.seconds.plugin[op].length}`).join(", ");
  return [
    `### ${m.n.toLocaleString("en")} resources`,
    "",
    `${m.n / 5} teams of group, subgroup, custom role, identity and role binding, ${rounds} round(s); wall clock, median of the`,
    `runs (${samples}), each run of an operation followed by the same run on the other four stacks.`,
    "",
    "| operation | trivial dynamic | trivial plugin | trivial plugin, irv's outputs | dynamic | plugin | plugin / trivial plugin | plugin / trivial plugin, irv's outputs | dynamic / trivial dynamic | plugin / trivial dynamic | trivial plugin / trivial dynamic | API requests, dynamic | API requests, plugin |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ...rows,
    ...(measured.length < OPS.length
      ? ["", "Up and destroy ran once per stack with PULUMI_SKIP_CHECKPOINTS=true, to set up and tear down: not measured (`--unmeasured-setup`)."]
      : []),
    "",
    "What a plugin that makes no API call costs once it answers with irv's outputs (the floor with irv's data), against the",
    "floors the goals are set on: a plugin can only come near the goals where this is below them.",
    "",
    "| operation | trivial plugin, irv's outputs / trivial plugin (goal for the plugin: at most 1.1x) | trivial plugin, irv's outputs / trivial dynamic (goal for refresh: at most 0.8x) |",
    "|---|---|---|",
    ...measured.map(
      (op) => `| ${op} | ${ratio("trivial plugin, irv's outputs", "trivial plugin", op)} | ${ratio("trivial plugin, irv's outputs", "trivial dynamic", op)} |`,
    ),
    "",
    `\`irv drift\` (no drift, exit ${m.drift.plugin.code}): ${m.drift.dynamic.requests} API requests on the dynamic classes' stack, ${m.drift.plugin.requests} on the plugin's.`,
    `State after up: ${SIDES.map((side) => `${side} ${Math.round(m.state[side] / 1024)} KiB`).join(", ")}.`,
    `Machine: ${cpus().length} cores; 1-minute load average ${m.load.map((l) => l.toFixed(1)).join(" before, ")} after; ${Math.round(m.wall)} s in all.`,
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

/** The `--sizes 300,1500` of a command line, if given. */
export function sizesOf(argv: string[]): number[] | undefined {
  const i = argv.indexOf("--sizes");
  if (i < 0) return undefined;
  const sizes = (argv[i + 1] ?? "").split(",").map(Number);
  if (!sizes.every((n) => Number.isInteger(n) && n > 0 && n % 5 === 0))
    throw new Error(`--sizes: expected multiples of 5, comma-separated, got ${argv[i + 1] ?? "nothing"}`);
  return sizes;
}

if (require.main === module) {
  runPluginBench(roundsOf(process.argv), sizesOf(process.argv), process.argv.includes("--unmeasured-setup")).then(
    (text) => console.log(text),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
