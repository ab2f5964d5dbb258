/**
 * The access model at the size issue 29 names: 10,000 groups, 20,000 identities and 50,000
 * bindings (a random tree up to 8 deep, the built-in roles and 200 custom ones). Measures building
 * the index, then can-i, who-can and what on random questions, and the access change of a
 * change that moves one binding, beside a scan of every binding per question (the baseline the
 * index replaces). `npm run bench -- access`.
 */
import { performance } from "node:perf_hooks";
import { BUILTIN_ROLES, CAPABILITIES } from "../api/capabilities";
import { AccessModel, diffAccess, type Org } from "../policy/access";

const GROUPS = 10_000;
const IDENTITIES = 20_000;
const BINDINGS = 50_000;
const QUESTIONS = 2_000;

/** A deterministic generator (mulberry32), so every run asks the same questions of the same org. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The organization: each group's parent drawn among the earlier groups no deeper than 7. */
export function benchOrg(seed = 29): Org {
  const r = random(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)];
  const depth = [0];
  const groups: Org["groups"] = [{ key: "g0", name: "org" }];
  for (let i = 1; i < GROUPS; i++) {
    let p = Math.floor(r() * i);
    while (depth[p] >= 7) p = Math.floor(r() * i);
    depth.push(depth[p] + 1);
    groups.push({ key: `g${i}`, name: `group-${i}`, parent: `g${p}` });
  }
  const roles: Org["roles"] = Object.entries(BUILTIN_ROLES).map(([name, d]) => ({ key: name, name, capabilities: d.capabilities }));
  for (let i = 0; i < 200; i++) roles.push({ key: `r${i}`, name: `role-${i}`, capabilities: CAPABILITIES.filter(() => r() < 0.2) });
  const subjects: Org["subjects"] = [];
  for (let i = 0; i < IDENTITIES; i++) subjects.push({ key: `i${i}`, name: `identity-${i}`, type: "claimMatch" });
  const bindings: Org["bindings"] = [];
  for (let i = 0; i < BINDINGS; i++)
    bindings.push({
      key: `b${i}`,
      name: `binding-${i}`,
      source: "roleBindings",
      group: `g${Math.floor(r() * GROUPS)}`,
      subject: `i${Math.floor(r() * IDENTITIES)}`,
      role: pick(roles).key,
    });
  return { groups, roles, subjects, bindings, unseen: [] };
}

function timed<T>(fn: () => T): { ms: number; value: T } {
  const t = performance.now();
  const value = fn();
  return { ms: performance.now() - t, value };
}

const fmt = (ms: number) => (ms < 1 ? `${(ms * 1000).toFixed(1)} µs` : `${ms.toFixed(1)} ms`);

export async function runAccessBench(): Promise<string> {
  const org = benchOrg();
  const r = random(7);
  const any = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)];
  const built = timed(() => new AccessModel(org));
  const m = built.value;
  const qs = Array.from({ length: QUESTIONS }, () => ({ s: any(org.subjects).key, c: any(CAPABILITIES), g: any(org.groups).key }));
  let yes = 0;
  const canI = timed(() => {
    for (const q of qs) if (m.canI(q.s, q.c, q.g).answer === "yes") yes++;
  });
  let found = 0;
  const whoCan = timed(() => {
    for (const q of qs) found += m.whoCan(q.c, q.g).grants.length;
  });
  const what = timed(() => {
    for (const q of qs) m.what(q.s);
  });
  // The baseline: each can-i scans every binding and walks its group's parents.
  const parent = new Map(org.groups.map((g) => [g.key, g.parent]));
  const caps = new Map(org.roles.map((x) => [x.key, new Set(x.capabilities)]));
  const sample = qs.slice(0, 100);
  const scan = timed(() => {
    for (const q of sample) {
      const chain = new Set<string>();
      for (let g: string | undefined = q.g; g; g = parent.get(g)) chain.add(g);
      org.bindings.some((b) => b.subject === q.s && chain.has(b.group) && caps.get(b.role)!.has(q.c));
    }
  });
  // The change: one binding moves to the root as owner.
  const moved: Org = { ...org, bindings: org.bindings.map((b, i) => (i === 0 ? { ...b, group: "g0", role: "owner" } : b)) };
  const after = new AccessModel(moved);
  const diff = timed(() => diffAccess(m, after));
  const per = (t: { ms: number }, n: number) => fmt(t.ms / n);
  return [
    `## Access model: ${GROUPS.toLocaleString("en")} groups, ${IDENTITIES.toLocaleString("en")} identities, ${BINDINGS.toLocaleString("en")} bindings`,
    `index built:                        ${fmt(built.ms)}`,
    `can-i (${QUESTIONS} random questions):     ${per(canI, QUESTIONS)} each (${yes} yes)`,
    `who-can (${QUESTIONS} random questions):   ${per(whoCan, QUESTIONS)} each (${found} grants found)`,
    `what (${QUESTIONS} random identities):     ${per(what, QUESTIONS)} each`,
    `baseline, can-i by scanning every binding: ${per(scan, sample.length)} each (${Math.round(scan.ms / sample.length / (canI.ms / QUESTIONS))}x the index)`,
    `access change of one binding moved (the identities it concerns compared): ${fmt(diff.ms)} (${diff.value.gained.length} gained, ${diff.value.lost.length} lost)`,
  ].join("\n");
}
