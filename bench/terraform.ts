/**
 * Side by side with the platform's Terraform provider: the same org (teams of group, subgroup,
 * custom role, identity and role binding, bench/engine.ts's graph) in HCL run by OpenTofu with
 * `terraform-provider-chainguard`, as a Pulumi program on pulumi-irv, and as the same Pulumi
 * program on that Terraform provider bridged into Pulumi (bench/bridged.ts: what `pulumi package
 * add terraform-provider chainguard-dev/chainguard` gives), against one in-process irv-server.
 * Each operation runs on every side in turn (a rotating order), so machine load hits them alike:
 *
 *   create   `tofu apply -auto-approve`                 / `pulumi up`
 *   plan     `tofu plan -detailed-exitcode`             / `pulumi preview` (no changes)
 *   refresh  `tofu apply -refresh-only -auto-approve`   / `pulumi refresh`
 *   targeted the same, of the first 10 teams' groups only (`-target=...` / `--target <urn>...`)
 *   drift    `tofu plan -refresh-only -detailed-exitcode` / `irv drift`, after 10 hand edits
 *            through the API (undone through the API afterwards, not measured)
 *   update   `tofu apply` / `pulumi up` of the org with a tenth of its resources changed
 *   import   (none)  / `pulumi import` of the side's org, by the ids in its state, into a new
 *            stack (not the dynamic classes: the engine cannot import them)
 *   destroy  `tofu destroy -auto-approve`               / `pulumi destroy`
 *
 * The bridged provider's drift is `pulumi refresh --preview-only --expect-no-changes` (it has no
 * `irv drift`).
 *
 * Two settings: each tool's defaults (tofu's -parallelism=10; Pulumi's --parallel of 4 per core
 * and the SDK's dynamic classes), and what a user after speed picks (tofu -parallelism=50;
 * Pulumi --parallel 50 and the resource plugin; the bridged provider at --parallel 50). Wall time, API requests counted at the server,
 * and CPU by process (bench/process-cpu.ts). `--latency 0,40`: milliseconds irv-server waits
 * before answering every request, REST and gRPC alike (its `delay` fault: the chaos proxy speaks
 * HTTP/1.1 only, and the provider speaks gRPC over HTTP/2).
 *
 * tofu and the provider are built once per machine by scripts/ensure-terraform, the bridge by
 * scripts/ensure-terraform-bridge. `--tools tofu,pulumi,bridged` (all by default) picks the sides.
 *
 * `--skip-checkpoints`: the Pulumi sides run with PULUMI_SKIP_CHECKPOINTS=true (the engine writes
 * the state once, at the end, instead of as each step starts and ends), to measure what those
 * writes cost; a crash mid-operation then loses what it did, so no one should pick it for speed.
 *
 * `--settings speed` measures only the speed settings (both by default): at 1,500 resources the
 * defaults' creates and destroys take most of an hour on a loaded machine.
 *
 * `--rounds 4`: the whole measurement of each size and latency four times (a fresh irv-server and
 * fresh stacks each time), the tables showing medians over all rounds. Each round starts the
 * sides' rotation one place later: an operation run once per round (create, drift, update,
 * import, destroy) otherwise has the same side go first in every round, and on a loaded machine
 * the second one pays for what the first leaves behind (plugins exiting, the engine's last writes).
 *
 *   npm run bench -- terraform [--sizes 300,1500] [--latency 0,40] [--runs 3] [--rounds 1] [--tools tofu,pulumi,bridged] [--settings defaults,speed] [--unmeasured-setup] [--skip-checkpoints]
 */
import { execFileSync, spawn } from "node:child_process";
import { createWriteStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { startServer, type RunningServer } from "../server";
import { createStack, repoRoot, type TestStack } from "../harness/engine";
import { usePluginFrom } from "../harness/plugin";
import { orgProgram, teamDescription } from "./engine";
import { irvDrift, pluginProgram, sizesOf } from "./plugin";
import { bridgedProgram, bridgedProviderArgs, createBridgedStack, ensureBridge, fillTokenCache, loadBridgedSdk, type Bridge } from "./bridged";
import { measureCpu, type CpuReading } from "./process-cpu";
import { median } from "./side-by-side";

export const OPS = ["create", "plan", "refresh", "targeted", "drift", "update", "import", "destroy"] as const;
type Op = (typeof OPS)[number];

/** Hand edits before `drift`. */
const HAND_EDITS = 10;
/** The parallelism a user after speed gives either tool. */
const FAST = 50;

const TOOLS = ["tofu", "pulumi", "bridged"] as const;
type Tool = (typeof TOOLS)[number];
const SETTINGS = ["defaults", "speed"] as const;
type Setting = (typeof SETTINGS)[number];

/** One side: a tool at a setting, with its own org under its own group. */
interface Side {
  tool: Tool;
  setting: Setting;
  /** The group its org lives in. */
  parent: string;
  /** What `op` needs before it is measured (import: the new stack); false if the side cannot do `op`. */
  prepare?(op: Op): Promise<boolean>;
  /** Runs `op`; resolves to the exit code where the tool gives one that means something (plan, drift). */
  run(op: Op): Promise<number | undefined>;
  dispose(): Promise<void>;
}

/** Where scripts/ensure-terraform put tofu, the provider's mirror and tofu.rc (building them once per machine). */
function terraformDir(): string {
  return execFileSync(path.join(repoRoot, "scripts", "ensure-terraform"), { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }).trim();
}

const hclName = (s: string) => s.replace(/-/g, "_");

/**
 * The org in HCL: the Pulumi programs' resources, block for block, so the graph is the same. An
 * unset description is written `""`: the provider reads the API's empty description back as `""`,
 * so a description left null would plan a change on every run (and its apply fails with
 * "Provider produced inconsistent result"); the API holds `""` either way.
 */
export function orgHcl(apiUrl: string, parent: string, teams: number, updated = 0): string {
  const blocks = [
    `terraform {\n  required_providers {\n    chainguard = { source = "chainguard-dev/chainguard" }\n  }\n}`,
    // No login flow: the token is read from the provider's token cache (see tofuSide).
    `provider "chainguard" {\n  console_api = "${apiUrl}"\n  login_options {\n    disabled = true\n  }\n}`,
  ];
  for (let i = 0; i < teams; i++) {
    const [team, squad, role, ci] = [`team-${i}`, `squad-${i}`, `role-${i}`, `ci-${i}`].map(hclName);
    blocks.push(
      `resource "chainguard_group" "${team}" {\n  parent_id   = "${parent}"\n  name        = "team-${i}"\n  description = "${teamDescription(i, updated)}"\n}`,
      `resource "chainguard_group" "${squad}" {\n  parent_id   = chainguard_group.${team}.id\n  name        = "squad"\n  description = ""\n}`,
      `resource "chainguard_role" "${role}" {\n  parent_id    = chainguard_group.${team}.id\n  name         = "reader-${i}"\n  description  = ""\n  capabilities = ["repo.list", "tag.list"]\n}`,
      `resource "chainguard_identity" "${ci}" {\n  parent_id   = chainguard_group.${team}.id\n  name        = "ci-${i}"\n  description = ""\n  claim_match {\n    issuer  = "https://ci.example.com"\n    subject = "repo:acme/team-${i}:ref:refs/heads/main"\n  }\n}`,
      `resource "chainguard_rolebinding" "${hclName(`ci-${i}-reader`)}" {\n  group    = chainguard_group.${squad}.id\n  identity = chainguard_identity.${ci}.id\n  role     = chainguard_role.${role}.id\n}`,
    );
  }
  return blocks.join("\n\n") + "\n";
}

/** Runs `tofu args` in `dir`, its output appended to dir/tofu.log; resolves to its exit code (1 or more than 2 throws). */
function tofu(bin: string, dir: string, env: Record<string, string>, args: string[]): Promise<number> {
  const log = path.join(dir, "tofu.log");
  return new Promise((resolve, reject) => {
    const out = createWriteStream(log, { flags: "a" });
    out.write(`$ tofu ${args.join(" ")}\n`);
    const child = spawn(path.join(bin, "tofu"), args, { cwd: dir, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    child.stdout.pipe(out, { end: false });
    child.stderr.pipe(out, { end: false });
    child.on("error", reject);
    child.on("close", (code) => {
      out.end(() => {
        if (code === 0 || code === 2) return resolve(code);
        const tail = readFileSync(log, "utf8").split("\n").slice(-40).join("\n");
        reject(new Error(`tofu ${args[0]} exited ${code} in ${dir}:\n${tail}`));
      });
    });
  });
}

/**
 * A tofu side: a folder with the org's HCL, `tofu init` from the local mirror (nothing fetched),
 * and the server's admin token where the provider's token cache keeps one for its audience (the
 * API's URL), so it never starts a login flow.
 */
async function tofuSide(bin: string, server: RunningServer, parent: string, teams: number, setting: Setting): Promise<Side> {
  const dir = mkdtempSync(path.join(tmpdir(), "irv-tofu-"));
  const cache = path.join(dir, "cache");
  fillTokenCache(cache, server.url, server.token);
  const env = { TF_CLI_CONFIG_FILE: path.join(bin, "tofu.rc"), XDG_CACHE_HOME: cache, TF_IN_AUTOMATION: "1", CHECKPOINT_DISABLE: "1" };
  const write = (updated: number) => writeFileSync(path.join(dir, "main.tf"), orgHcl(server.url, parent, teams, updated));
  write(0);
  await tofu(bin, dir, env, ["init", "-input=false", "-no-color"]).catch((e) => {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  });
  const p = setting === "speed" ? [`-parallelism=${FAST}`] : [];
  const common = ["-input=false", "-no-color", ...p];
  return {
    tool: "tofu",
    setting,
    parent,
    async prepare(op) {
      return op !== "import";
    },
    async run(op) {
      switch (op) {
        case "import":
          throw new Error("tofu imports nothing here");
        case "create":
          return void (await tofu(bin, dir, env, ["apply", "-auto-approve", ...common]));
        case "plan":
          return tofu(bin, dir, env, ["plan", "-detailed-exitcode", ...common]);
        case "refresh":
          return void (await tofu(bin, dir, env, ["apply", "-refresh-only", "-auto-approve", ...common]));
        case "targeted":
          return void (await tofu(bin, dir, env, [
            "apply",
            "-refresh-only",
            "-auto-approve",
            ...common,
            ...targetTeams(teams).map((i) => `-target=chainguard_group.${hclName(`team-${i}`)}`),
          ]));
        case "drift":
          return tofu(bin, dir, env, ["plan", "-refresh-only", "-detailed-exitcode", ...common]);
        case "update":
          write(teams / 2);
          return void (await tofu(bin, dir, env, ["apply", "-auto-approve", ...common]));
        case "destroy":
          return void (await tofu(bin, dir, env, ["destroy", "-auto-approve", ...common]));
      }
    },
    async dispose() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A Pulumi side: the dynamic classes at the engine's defaults, or the resource plugin at --parallel 50. */
async function pulumiSide(server: RunningServer, parent: string, teams: number, setting: Setting, skipCheckpoints: boolean): Promise<Side> {
  const program = (updated: number) => (setting === "speed" ? pluginProgram(parent, teams, "irv", updated) : orgProgram(parent, teams, updated));
  const stackName = `bench-${setting}`;
  const t: TestStack = await createStack({ stackName, program: program(0), server });
  if (setting === "speed") await usePluginFrom(t);
  if (skipCheckpoints) t.stack.workspace.envVars.PULUMI_SKIP_CHECKPOINTS = "true";
  const parallel = setting === "speed" ? { parallel: FAST } : {};
  const { stack } = t;
  // The dynamic classes cannot be imported (an engine rule); the plugin's resources can.
  const importer =
    setting === "speed"
      ? stackImporter(t, async (name) => {
          const fresh = await createStack({ stackName: name, program: program(teams / 2), server });
          await usePluginFrom(fresh);
          return { t: fresh };
        })
      : undefined;
  let urns: string[] = [];
  return {
    tool: "pulumi",
    setting,
    parent,
    async prepare(op) {
      if (op === "targeted") urns = await teamUrns(stack, teams);
      if (op !== "import") return true;
      return importer ? (await importer.prepare(), true) : false;
    },
    async run(op) {
      switch (op) {
        case "create":
          return void (await stack.up(parallel));
        case "plan":
          return void (await stack.preview({ expectNoChanges: true, ...parallel }));
        case "refresh":
          return void (await stack.refresh(parallel));
        case "targeted":
          return void (await stack.refresh({ target: urns, ...parallel }));
        case "drift":
          return (await irvDrift(t, stackName)) ?? undefined;
        case "update":
          stack.workspace.program = program(teams / 2);
          return void (await stack.up(parallel));
        case "import":
          return void (await importer!.run(parallel));
        case "destroy":
          return void (await stack.destroy(parallel));
      }
    },
    async dispose() {
      await importer?.dispose();
      await t.dispose();
    },
  };
}

/** A new stack to import into, and the provider (its URN) the imports name, if they name one. */
interface ImportTarget {
  t: TestStack;
  provider?: string;
}

/**
 * `pulumi import` of `t`'s org into a new stack (`fresh` makes it, unmeasured, in `prepare`): every
 * custom resource of `t`'s state by its type, name and id, without code generation, as a user
 * importing an existing org by ids would. The new stack is left as the import made it (its
 * resources are `t`'s: destroyed with `t`).
 */
function stackImporter(t: TestStack, fresh: (stackName: string) => Promise<ImportTarget>) {
  let target: ImportTarget | undefined;
  let resources: { type: string; name: string; id: string; provider?: string }[] = [];
  return {
    async prepare() {
      const state = await t.stack.exportStack();
      await target?.t.dispose();
      target = await fresh(`${t.stack.name}-imported`);
      const provider = target.provider ? { provider: "org" } : {};
      resources = (state.deployment.resources ?? [])
        .filter((r: { custom?: boolean; type: string }) => r.custom && !r.type.startsWith("pulumi:"))
        .map((r: { type: string; urn: string; id: string }) => ({ type: r.type, name: r.urn.split("::").pop()!, id: r.id, ...provider }));
    },
    async run(parallel: { parallel?: number }) {
      const nameTable = target!.provider ? { org: target!.provider } : undefined;
      await target!.t.stack.import({ resources, nameTable, generateCode: false, protect: false, ...parallel });
    },
    async dispose() {
      await target?.t.dispose();
    },
  };
}

/**
 * A side on the Terraform provider bridged into Pulumi: the org in TypeScript on its generated SDK
 * (createBridgedStack says how it is configured). Defaults: the engine's --parallel; speed:
 * --parallel 50.
 */
async function bridgedSide(bridge: Bridge, server: RunningServer, parent: string, teams: number, setting: Setting, skipCheckpoints: boolean): Promise<Side> {
  const sdk = loadBridgedSdk(bridge);
  const program = (updated: number) => bridgedProgram(sdk, parent, teams, updated);
  const stackName = `bridged-${setting}`;
  const cache = mkdtempSync(path.join(tmpdir(), "irv-bridged-cache-"));
  fillTokenCache(cache, server.url, server.token);
  const make = (name: string, updated: number) =>
    createBridgedStack(bridge, server, name, program(updated), cache, skipCheckpoints ? { PULUMI_SKIP_CHECKPOINTS: "true" } : {});
  const t = await make(stackName, 0);
  const { stack } = t;
  const parallel = setting === "speed" ? { parallel: FAST } : {};
  // The imports name an explicit provider, made by an `up` beforehand (unmeasured): the engine
  // finds a parameterized package's default provider only through the language host, and the Node
  // host that builds here does not say (pulumi/pulumi#17289: "could not find latest version for
  // provider chainguard"). A user's newer host does; the import's work is the same.
  const importer = stackImporter(t, async (name) => {
    const fresh = await createBridgedStack(bridge, server, name, async () => ({ urn: new sdk.Provider("org", bridgedProviderArgs(server)).urn }), cache);
    const up = await fresh.stack.up();
    return { t: fresh, provider: up.outputs.urn.value as string };
  });
  let urns: string[] = [];
  return {
    tool: "bridged",
    setting,
    parent,
    async prepare(op) {
      if (op === "targeted") urns = await teamUrns(stack, teams);
      if (op === "import") await importer.prepare();
      return true;
    },
    async run(op) {
      switch (op) {
        case "create":
          return void (await stack.up(parallel));
        case "plan":
          return void (await stack.preview({ expectNoChanges: true, ...parallel }));
        case "refresh":
          return void (await stack.refresh(parallel));
        case "targeted":
          return void (await stack.refresh({ target: urns, ...parallel }));
        case "drift":
          // What the bridged provider's user has for drift: a refresh that only previews, failing
          // when the state would change.
          try {
            await stack.refresh({ previewOnly: true, expectNoChanges: true, ...parallel });
            return 0;
          } catch (e) {
            if (/no changes were expected/i.test(String(e))) return 2;
            throw e;
          }
        case "update":
          stack.workspace.program = program(teams / 2);
          return void (await stack.up(parallel));
        case "import":
          return void (await importer.run(parallel));
        case "destroy":
          return void (await stack.destroy(parallel));
      }
    },
    async dispose() {
      await importer.dispose();
      await t.dispose();
      rmSync(cache, { recursive: true, force: true });
    },
  };
}

/** The teams whose groups `targeted` refreshes (the first HAND_EDITS). */
const targetTeams = (teams: number) => [...Array(Math.min(HAND_EDITS, teams)).keys()];

/** The URNs of targetTeams' groups in `stack` (read from its state: a few ms, not the engine's). */
async function teamUrns(stack: TestStack["stack"], teams: number): Promise<string[]> {
  const names = new Set(targetTeams(teams).map((i) => `team-${i}`));
  const state = await stack.exportStack();
  return (state.deployment.resources ?? []).map((r: { urn: string }) => r.urn).filter((urn: string) => names.has(urn.split("::").pop()!));
}

/** An admin call to the REST API (setting up and hand edits; never measured). */
async function api(server: RunningServer, method: string, url: string, body?: unknown): Promise<any> {
  const res = await fetch(`${server.url}${url}`, {
    method,
    headers: { authorization: `Bearer ${server.token}`, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** The first HAND_EDITS teams' groups under `parent` (all, if fewer), described by hand (`undo`: as declared again). */
async function handEdit(server: RunningServer, parent: string, undo = false): Promise<void> {
  const groups: { uid: string; name: string }[] = [];
  let token = "";
  do {
    const page = (await api(
      server,
      "GET",
      `/iam/v2beta1/groups?uidp.childrenOf=${parent}&pageSize=200${token ? `&pageToken=${encodeURIComponent(token)}` : ""}`,
    )) as { groups: { uid: string; name: string }[]; nextPageToken?: string };
    groups.push(...page.groups);
    token = page.nextPageToken ?? "";
  } while (token);
  for (let i = 0; i < Math.min(HAND_EDITS, groups.length); i++) {
    const g = groups.find((x) => x.name === `team-${i}`);
    if (!g) throw new Error(`no group team-${i} under ${parent}`);
    await api(server, "PATCH", `/iam/v2beta1/groups/${g.uid}?updateMask=description`, { description: undo ? teamDescription(i) : "edited by hand" });
  }
}

interface Sample {
  seconds: number;
  requests: number;
  code?: number;
  cpu: CpuReading;
}

const TOOL_LABEL: Record<Tool, string> = { tofu: "tofu", pulumi: "pulumi-irv", bridged: "bridged" };
const label = (s: Pick<Side, "tool" | "setting">) => `${TOOL_LABEL[s.tool]}, ${s.setting}`;

interface Measured {
  n: number;
  latencyMs: number;
  samples: Record<string, Partial<Record<Op, Sample[]>>>;
  load: number[];
  wall: number;
  o: MeasureOptions;
}

interface MeasureOptions {
  /** Runs of plan and refresh (one of the others). */
  runs: number;
  /** Create and destroy run, unmeasured. */
  unmeasuredSetup: boolean;
  /** The Pulumi sides run with PULUMI_SKIP_CHECKPOINTS=true. */
  skipCheckpoints: boolean;
  /** The tools measured. */
  tools: readonly Tool[];
  /** The settings measured. */
  settings: readonly Setting[];
  /** Where the sides' rotation starts: each round of `--rounds` starts one place later. */
  turn: number;
}

/** One size at one latency. */
async function measure(bin: string, bridge: Bridge | undefined, n: number, latencyMs: number, o: MeasureOptions): Promise<Measured> {
  const { runs, unmeasuredSetup } = o;
  const teams = n / 5;
  const started = performance.now();
  const loadBefore = loadavg()[0];
  const server = await startServer();
  const sides: Side[] = [];
  const samples: Measured["samples"] = {};
  try {
    for (const setting of o.settings)
      for (const tool of o.tools) {
        const { uid } = await api(server, "POST", `/iam/v2beta1/groups/${server.organization}`, { name: `${tool}-${setting}` });
        sides.push(
          tool === "tofu"
            ? await tofuSide(bin, server, uid, teams, setting)
            : tool === "pulumi"
              ? await pulumiSide(server, uid, teams, setting, o.skipCheckpoints)
              : await bridgedSide(bridge!, server, uid, teams, setting, o.skipCheckpoints),
        );
        samples[label({ tool, setting })] = {};
      }
    if (latencyMs > 0) server.faults.add({ action: "delay", delayMs: latencyMs, times: Infinity });
    let turn = o.turn;
    for (const op of OPS) {
      if (op === "drift") for (const s of sides) await handEdit(server, s.parent);
      const times = op === "plan" || op === "refresh" ? runs : 1;
      for (let run = 0; run < times; run++) {
        const order = sides.map((_, i) => sides[(i + turn) % sides.length]);
        turn++;
        for (const side of order) {
          if (side.prepare && !(await side.prepare(op))) continue;
          const from = server.requests.length;
          const start = performance.now();
          const [code, cpu] = await measureCpu(() => side.run(op));
          const seconds = (performance.now() - start) / 1000;
          process.stderr.write(`${n} resources, ${latencyMs} ms: ${op}, ${label(side)}: ${secs(seconds)}\n`);
          if (unmeasuredSetup && (op === "create" || op === "destroy")) continue;
          (samples[label(side)][op] ??= []).push({ seconds, requests: server.requests.length - from, code, cpu });
        }
      }
      if (op === "drift") for (const s of sides) await handEdit(server, s.parent, true);
    }
  } finally {
    for (const s of sides) await s.dispose();
    await server.close();
  }
  return { n, latencyMs, samples, load: [loadBefore, loadavg()[0]], wall: (performance.now() - started) / 1000, o };
}

/** The sample of median wall time. */
function mid(xs: Sample[] | undefined): Sample | undefined {
  if (!xs?.length) return undefined;
  const m = median(xs.map((x) => x.seconds));
  return xs.find((x) => x.seconds === m);
}

const secs = (x: number) => `${x.toFixed(x < 10 ? 2 : 1)} s`;

function report(m: Measured): string {
  const cell = (side: string, op: Op) => m.samples[side] && mid(m.samples[side][op]);
  const ops = OPS.filter((op) => Object.keys(m.samples).some((side) => cell(side, op)));
  const code = (x: Sample) => (x.code === undefined ? "" : ` (exit ${x.code})`);
  const wall = (x: Sample | undefined) => (x ? secs(x.seconds) + code(x) : "—");
  const ratio = (a: Sample | undefined, b: Sample | undefined) => (a && b ? `${(a.seconds / b.seconds).toFixed(2)}x` : "—");
  const header = ["tofu", "pulumi-irv", "bridged", "pulumi-irv / bridged", "pulumi-irv / tofu", "requests: tofu / pulumi-irv / bridged"];
  const table = (setting: Setting) => [
    `| ${setting} | ${header.join(" | ")} |`,
    `|---|${header.map(() => "---").join("|")}|`,
    ...ops.map((op) => {
      const [t, p, b] = (["tofu", "pulumi", "bridged"] as const).map((tool) => cell(label({ tool, setting }), op));
      const requests = [t, p, b].map((x) => (x ? String(x.requests) : "—")).join(" / ");
      return `| ${op} | ${[wall(t), wall(p), wall(b), ratio(p, b), ratio(p, t), requests].join(" | ")} |`;
    }),
  ];
  const cpuRows = ops.flatMap((op) =>
    Object.keys(m.samples).flatMap((side) => {
      const s = cell(side, op);
      if (!s) return [];
      const cpu = medianCpu(m.samples[side][op]!);
      const programs = Object.entries(cpu.byProgram)
        .filter(([, v]) => v >= 0.01)
        .sort((a, b) => b[1] - a[1])
        .map(([k, v]) => `${k} ${v.toFixed(2)}`)
        .join(", ");
      return [`| ${op} | ${side} | ${secs(s.seconds)} | ${cpu.children.toFixed(2)} s | ${programs} | ${cpu.self.toFixed(2)} s |`];
    }),
  );
  const runs = Math.max(...Object.values(m.samples).map((s) => s.plan?.length ?? 0));
  const once = Math.max(...Object.values(m.samples).map((s) => s.create?.length ?? s.drift?.length ?? 0));
  return [
    `### ${m.n.toLocaleString("en")} resources, irv-server answering ${m.latencyMs ? `after ${m.latencyMs} ms` : "at once"}`,
    "",
    `${m.n / 5} teams of group, subgroup, custom role, identity and role binding per side; wall clock (median of ${runs} runs for plan and refresh, ${once > 1 ? `of ${once} runs` : "one run"} otherwise); API requests counted at the server; sides: ${Object.keys(m.samples).join("; ")}.`,
    "Exit codes: plan 0 = no changes; drift 2 = drift found (`tofu plan -refresh-only -detailed-exitcode`, `irv drift`, and for the bridged provider `pulumi refresh --preview-only --expect-no-changes`). —: not measured, or the side cannot (tofu and the dynamic classes import nothing here).",
    "",
    ...m.o.settings.flatMap((setting, i) => [...(i ? [""] : []), ...table(setting)]),
    ...(m.o.unmeasuredSetup ? ["", "Create and destroy ran unmeasured (`--unmeasured-setup`)."] : []),
    ...(m.o.skipCheckpoints
      ? ["", "The Pulumi sides ran with PULUMI_SKIP_CHECKPOINTS=true (`--skip-checkpoints`): the state written once per operation."]
      : []),
    "",
    "CPU by process (seconds, the median of each over the runs; wall: the median run's): all processes each tool started, exact; split by program, sampled every 200 ms; and the benchmark's own process (irv-server, and for the Pulumi sides the inline program).",
    "",
    "| operation | side | wall | CPU, the tool's processes | by program (sampled) | CPU, benchmark process |",
    "|---|---|---|---|---|---|",
    ...cpuRows,
    "",
    `Machine: ${cpus().length} cores; 1-minute load average ${m.load.map((l) => l.toFixed(1)).join(" before, ")} after; ${Math.round(m.wall)} s in all.`,
  ].join("\n");
}

/** Each CPU figure's median over `xs` (a program a run did not show counts 0 there). */
function medianCpu(xs: Sample[]): CpuReading {
  const programs = new Set(xs.flatMap((x) => Object.keys(x.cpu.byProgram)));
  return {
    children: median(xs.map((x) => x.cpu.children)),
    self: median(xs.map((x) => x.cpu.self)),
    byProgram: Object.fromEntries([...programs].map((p) => [p, median(xs.map((x) => x.cpu.byProgram[p] ?? 0))])),
  };
}

/** Rounds of one size and latency as one measurement: every sample of each side and operation. */
function merged(rounds: Measured[]): Measured {
  const samples: Measured["samples"] = {};
  for (const r of rounds)
    for (const [side, ops] of Object.entries(r.samples))
      for (const [op, xs] of Object.entries(ops) as [Op, Sample[]][]) ((samples[side] ??= {})[op] ??= []).push(...xs);
  const load = [rounds[0].load[0], rounds[rounds.length - 1].load[1]];
  return { ...rounds[0], samples, load, wall: rounds.reduce((sum, r) => sum + r.wall, 0) };
}

/** `--name a,b` of a command line as numbers, if given. */
function numbersOf(argv: string[], name: string): number[] | undefined {
  const i = argv.indexOf(name);
  if (i < 0) return undefined;
  const xs = (argv[i + 1] ?? "").split(",").map(Number);
  if (!xs.every((x) => Number.isInteger(x) && x >= 0)) throw new Error(`${name}: expected whole numbers, comma-separated, got ${argv[i + 1] ?? "nothing"}`);
  return xs;
}

/** `--name a,b` of a command line: some of `all` (all of them if not given). */
function someOf<T extends string>(argv: string[], name: string, all: readonly T[]): T[] {
  const i = argv.indexOf(name);
  if (i < 0) return [...all];
  const xs = (argv[i + 1] ?? "").split(",");
  for (const x of xs)
    if (!(all as readonly string[]).includes(x)) throw new Error(`${name}: expected some of ${all.join(", ")}, got ${argv[i + 1] ?? "nothing"}`);
  return xs as T[];
}

/** Runs every size at every latency; returns the section of BENCHMARKS.md (without its heading). */
export async function runTerraformBench(argv: string[]): Promise<string> {
  const sizes = sizesOf(argv) ?? [300, 1500];
  const latencies = numbersOf(argv, "--latency") ?? [0, 40];
  const runs = numbersOf(argv, "--runs")?.[0] ?? 3;
  const rounds = Math.max(1, numbersOf(argv, "--rounds")?.[0] ?? 1);
  const tools = someOf(argv, "--tools", TOOLS);
  const settings = someOf(argv, "--settings", SETTINGS);
  // tofu is built only if it is measured (its first build takes many minutes).
  const bin = tools.includes("tofu") ? terraformDir() : "";
  const bridge = tools.includes("bridged") ? ensureBridge() : undefined;
  const out: string[] = [];
  for (const n of sizes)
    for (const latency of latencies) {
      const measured: Measured[] = [];
      for (let turn = 0; turn < rounds; turn++)
        measured.push(
          await measure(bin, bridge, n, latency, {
            runs,
            tools,
            settings,
            unmeasuredSetup: argv.includes("--unmeasured-setup"),
            skipCheckpoints: argv.includes("--skip-checkpoints"),
            turn,
          }),
        );
      const text = report(merged(measured));
      process.stderr.write(`${text}\n\n`);
      out.push(text);
    }
  return out.join("\n\n");
}

if (require.main === module) {
  runTerraformBench(process.argv.slice(2)).then(
    (text) => console.log(text),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
