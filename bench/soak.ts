/**
 * Soak on a hostile network: an org of 13 teams x 8 resources (group, custom role, identity, two
 * role bindings, identity provider, account association, invite) goes through `up`, an update
 * `up`, `refresh` and `destroy` with the real engine, through the chaos proxy at 20% faults, once
 * per seed. After every operation the stack's state and the server are compared directly (not
 * through the proxy): a uid on the server that no state holds is a duplicate (an orphan), a uid
 * in state that the server lacks is a loss.
 *
 *   npm run build && node dist/bench/index.js soak --seeds 10     # or SOAK_SEEDS=10
 *
 * Options (flags, or environment): --seeds N (SOAK_SEEDS, default 50), --first-seed N
 * (SOAK_FIRST_SEED, default 1), --rate R (SOAK_RATE, default 0.2), --teams N (SOAK_TEAMS, default 13).
 */
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import type { PulumiFn } from "@pulumi/pulumi/automation";
import { COLLECTIONS } from "../api/collections";
import { KINDS, definitionOfTypeToken } from "../api/kinds";
import { startServer, builtinRoleUid, type RunningServer } from "../server";
import { FAULT_KINDS, startChaosProxy, type FaultKind } from "../harness/chaos-proxy";
import { createStack, loadSdk } from "../harness/engine";

export interface SoakOptions {
  seeds: number;
  firstSeed: number;
  rate: number;
  teams: number;
  /** Called after each seed (progress on stderr in the bench). */
  progress?: (r: SeedResult) => void;
}

export interface SeedResult {
  seed: number;
  passed: boolean;
  /** The failed operation's error, when one failed. */
  error?: string;
  faults: Record<FaultKind, number>;
  requests: number;
  duplicates: string[];
  losses: string[];
  seconds: number;
}

export const RESOURCES_PER_TEAM = 8;
/** The client's per-attempt timeout in the provider host, and a `slow` answer that outlasts it. */
const ATTEMPT_TIMEOUT_MS = 2_000;
const SLOW_MS = 3_000;

/** The org: `version` 2 changes something of every kind (in place, and a replaced invite). */
function orgProgram(organization: string, teams: number, version: 1 | 2): PulumiFn {
  const irv = loadSdk();
  const viewer = builtinRoleUid("viewer");
  const editor = builtinRoleUid("editor");
  return async () => {
    for (let i = 0; i < teams; i++) {
      const v2 = version === 2;
      const team = new irv.iam.Group(`team-${i}`, { parentUid: organization, name: `team-${i}`, description: v2 ? `team ${i}, v2` : `team ${i}` });
      const role = new irv.iam.Role(`role-${i}`, {
        groupUid: team.uid,
        name: `reader-${i}`,
        capabilities: v2 ? ["repo.list", "tag.list", "groups.list"] : ["repo.list", "tag.list"],
      });
      const ci = new irv.iam.Identity(`ci-${i}`, {
        groupUid: team.uid,
        name: `ci-${i}`,
        description: v2 ? "deploys" : "",
        claimMatch: { issuer: "https://ci.example.com", subject: `repo:acme/team-${i}:ref:refs/heads/main` },
      });
      new irv.iam.RoleBinding(`ci-${i}-reader`, { groupUid: team.uid, identityUid: ci.uid, roleUid: role.uid });
      new irv.iam.RoleBinding(`ci-${i}-viewer`, { groupUid: team.uid, identityUid: ci.uid, roleUid: v2 ? editor : viewer });
      new irv.iam.IdentityProvider(`sso-${i}`, {
        groupUid: team.uid,
        name: `sso-${i}`,
        description: v2 ? "single sign-on" : "",
        defaultRoleUid: viewer,
        oidc: { issuer: "https://accounts.example.com", clientId: `client-${i}`, clientSecret: `secret-${i}` },
      });
      new irv.iam.AccountAssociation(`accounts-${i}`, {
        groupUid: team.uid,
        name: `accounts-${i}`,
        amazon: { account: v2 ? "210987654321" : "123456789012" },
      });
      new irv.iam.GroupInvite(`invite-${i}`, {
        groupUid: team.uid,
        roleUid: viewer,
        ttl: "86400s",
        email: v2 ? `lead-${i}@example.com` : `team-${i}@example.com`,
      });
    }
  };
}

/** Every uid of the managed kinds on the server, read directly as the owner. */
async function serverUids(server: RunningServer): Promise<Set<string>> {
  const uids = new Set<string>();
  for (const { kind: c } of KINDS) {
    let token = "";
    do {
      const u = new URL(server.url + COLLECTIONS[c].path);
      u.searchParams.set("page_size", "200");
      if (token) u.searchParams.set("page_token", token);
      const res = await fetch(u, { headers: { authorization: `Bearer ${server.token}` } });
      if (!res.ok) throw new Error(`list ${c}: HTTP ${res.status}`);
      const body = (await res.json()) as Record<string, unknown>;
      for (const item of (body[c] as { uid: string }[]) ?? []) uids.add(`${c}:${item.uid}`);
      token = (body.nextPageToken as string) || "";
    } while (token);
  }
  return uids;
}

/** The uids the stack's state holds, keyed like serverUids. */
function stateUids(resources: { type: string; outputs?: Record<string, unknown> }[]): Set<string> {
  const out = new Set<string>();
  for (const r of resources) {
    const kind = definitionOfTypeToken(r.type)?.kind;
    const outs = r.outputs ?? {};
    if (kind && typeof outs.uid === "string") out.add(`${kind}:${outs.uid}`);
  }
  return out;
}

/** Runs one seed: up, update, refresh, destroy, comparing state and server after each. */
async function runSeed(seed: number, o: SoakOptions): Promise<SeedResult> {
  const started = performance.now();
  const server = await startServer({ record: false });
  const proxy = await startChaosProxy(server.url, { retryAfterSeconds: 1, slowMs: SLOW_MS });
  const baseline = await serverUids(server);
  const endpoint = { url: proxy.url, authUrl: `${proxy.url}/auth`, token: server.token };
  const t = await createStack({
    stackName: `soak-${seed}`,
    program: orgProgram(server.organization, o.teams, 1),
    server: endpoint,
    env: { IRV_REQUEST_TIMEOUT_MS: String(ATTEMPT_TIMEOUT_MS) },
  });
  const duplicates = new Set<string>();
  const losses = new Set<string>();
  let error: string | undefined;
  const compare = async () => {
    const live = await serverUids(server);
    for (const b of baseline) live.delete(b);
    const state = stateUids(((await t.exportState()).deployment as { resources?: never[] }).resources ?? []);
    for (const u of live) if (!state.has(u)) duplicates.add(u);
    for (const u of state) if (!live.has(u)) losses.add(u);
  };
  const steps: [string, () => Promise<unknown>][] = [
    ["up", () => t.stack.up()],
    [
      "update",
      () => {
        t.stack.workspace.program = orgProgram(server.organization, o.teams, 2);
        return t.stack.up();
      },
    ],
    ["refresh", () => t.stack.refresh()],
    ["destroy", () => t.stack.destroy()],
  ];
  proxy.chaos({ seed, rate: o.rate });
  try {
    for (const [name, run] of steps) {
      try {
        await run();
      } catch (e) {
        error = `${name}: ${firstLine(e)}`;
      }
      await compare();
      if (error) break;
    }
    if (error) {
      // Clean up without faults, so the next seed starts from nothing.
      proxy.chaos(undefined);
      await t.stack.destroy().catch(() => undefined);
    }
  } finally {
    await t.dispose();
    await proxy.close();
    await server.close();
  }
  const faults = { ...proxy.counts };
  return {
    seed,
    passed: !error && duplicates.size === 0 && losses.size === 0,
    error,
    faults,
    requests: proxy.seen,
    duplicates: [...duplicates],
    losses: [...losses],
    seconds: (performance.now() - started) / 1000,
  };
}

function firstLine(e: unknown): string {
  const text = String((e as Error)?.message ?? e);
  const lines = text.split("\n").filter((l) => /error|failed|gave up|no response/i.test(l));
  return (lines.slice(0, 3).join(" | ") || text.slice(0, 300)).trim();
}

/** Runs the soak over `o.seeds` seeds. */
export async function runSoak(o: SoakOptions): Promise<SeedResult[]> {
  const results: SeedResult[] = [];
  for (let s = o.firstSeed; s < o.firstSeed + o.seeds; s++) {
    const r = await runSeed(s, o);
    results.push(r);
    o.progress?.(r);
  }
  return results;
}

/** The report: runs passed, faults injected by kind, duplicates and losses. */
export function soakReport(results: SeedResult[], o: SoakOptions): string {
  const passed = results.filter((r) => r.passed).length;
  const faults = Object.fromEntries(FAULT_KINDS.map((k) => [k, results.reduce((n, r) => n + r.faults[k], 0)])) as Record<FaultKind, number>;
  const total = Object.values(faults).reduce((a, b) => a + b, 0);
  const requests = results.reduce((n, r) => n + r.requests, 0);
  const dup = results.reduce((n, r) => n + r.duplicates.length, 0);
  const lost = results.reduce((n, r) => n + r.losses.length, 0);
  const seconds = results.map((r) => r.seconds).sort((a, b) => a - b);
  const lines = [
    `${o.teams * RESOURCES_PER_TEAM} resources (${o.teams} teams of ${RESOURCES_PER_TEAM}); up, update, refresh, destroy per seed; ${Math.round(o.rate * 100)}% of requests faulted; seeds ${o.firstSeed}-${o.firstSeed + o.seeds - 1}.`,
    "",
    `| runs passed | requests | faults injected | unavailable (503) | exhausted (429) | reset | drop | slow | duplicates | losses |`,
    "|---|---|---|---|---|---|---|---|---|---|",
    `| ${passed}/${results.length} | ${requests} | ${total} | ${faults.unavailable} | ${faults.exhausted} | ${faults.reset} | ${faults.drop} | ${faults.slow} | ${dup} | ${lost} |`,
    "",
    `Seconds per seed: median ${seconds[Math.floor(seconds.length / 2)]?.toFixed(0)}, max ${seconds[seconds.length - 1]?.toFixed(0)}.`,
  ];
  for (const r of results.filter((x) => !x.passed))
    lines.push(`- seed ${r.seed}: ${r.error ?? "completed"}; duplicates ${r.duplicates.length}, losses ${r.losses.length}`);
  return lines.join("\n");
}

/** One line per seed, with everything the report sums (progress on stderr). */
export function seedLine(r: SeedResult): string {
  const f = Object.entries(r.faults)
    .map(([k, n]) => `${k} ${n}`)
    .join(", ");
  return `seed ${r.seed}: ${r.passed ? "passed" : `FAILED ${r.error ?? ""}`} in ${r.seconds.toFixed(0)} s; ${r.requests} requests; faults: ${f}; duplicates ${r.duplicates.length}, losses ${r.losses.length}\n`;
}

/** Options from flags, then the environment, then the defaults. */
export function soakOptions(argv: string[], env: NodeJS.ProcessEnv = process.env): SoakOptions {
  const { values } = parseArgs({
    args: argv,
    options: { seeds: { type: "string" }, "first-seed": { type: "string" }, rate: { type: "string" }, teams: { type: "string" } },
    strict: false,
    allowPositionals: true,
  });
  const num = (flag: unknown, name: string, dflt: number) => {
    const raw = (flag as string | undefined) ?? env[name];
    const v = raw === undefined || raw === "" ? dflt : Number(raw);
    if (!Number.isFinite(v) || v < 0) throw new Error(`${name}: must be a non-negative number, not ${raw}`);
    return v;
  };
  return {
    seeds: num(values.seeds, "SOAK_SEEDS", 50),
    firstSeed: num(values["first-seed"], "SOAK_FIRST_SEED", 1),
    rate: num(values.rate, "SOAK_RATE", 0.2),
    teams: num(values.teams, "SOAK_TEAMS", 13),
  };
}

if (require.main === module) {
  const o = soakOptions(process.argv.slice(2));
  o.progress = (r) => process.stderr.write(seedLine(r));
  runSoak(o).then(
    (results) => console.log(soakReport(results, o)),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
