/**
 * A caller with many bindings (issue 19, item 3): an identity bound as viewer on 2,500 sibling
 * groups (none covering another) lists over real HTTP: a one-item list of groups, a page of 200
 * role bindings (each hydrated only as far as the caller may list), and an admin request sent
 * behind ten such role-binding pages. With IRV_BENCH_BASELINE=<an older build's dist/server> the
 * same cases run against that build too, interleaved sample by sample in one run.
 */
import { performance } from "node:perf_hooks";
import { builtinRoleUid, seedGroups, type RunningServer } from "../server";
import { buildsToCompare, median, runWhenMain, type Start } from "./side-by-side";

type SeedStore = { putBinding(b: object): void };

const BINDINGS = 2_500;
const SAMPLES = 9;

interface Subject {
  name: string;
  server: RunningServer;
  token: string;
}

async function get(url: string, token: string): Promise<number> {
  const t = performance.now();
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  await res.text();
  if (res.status !== 200) throw new Error(`HTTP ${res.status} for ${url}`);
  return performance.now() - t;
}

async function subject(name: string, start: Start): Promise<Subject> {
  let store: SeedStore | undefined;
  let groups: string[] = [];
  const server = await start({
    fixtures: {},
    record: false,
    seed: (s, org) => {
      store = s;
      groups = seedGroups(s, org, BINDINGS);
    },
  });
  const res = await fetch(`${server.url}/iam/v2beta1/identities/${server.organization}`, {
    method: "POST",
    headers: { authorization: `Bearer ${server.token}`, "content-type": "application/json" },
    body: JSON.stringify({ name: "many", claimMatch: { issuer: "https://ci.example", subject: "s" } }),
  });
  const identity = ((await res.json()) as { uid: string }).uid;
  const time = new Date().toISOString();
  groups.forEach((g, i) =>
    store!.putBinding({ uid: `${g}/${(i + 1).toString(16).padStart(16, "0")}`, identityUid: identity, roleUid: builtinRoleUid("viewer"), createTime: time }),
  );
  return { name, server, token: await server.issueToken(identity) };
}

export async function runAuthzBindingsBench(): Promise<string> {
  const subjects: Subject[] = [];
  try {
    for (const [name, start] of buildsToCompare()) subjects.push(await subject(name, start));
    const samples = subjects.map(() => ({ one: [] as number[], page: [] as number[], admin: [] as number[] }));
    for (const s of subjects) await get(`${s.server.url}/iam/v2beta1/roleBindings?page_size=200`, s.token); // warm-up
    for (let i = 0; i < SAMPLES; i++)
      for (const [k, s] of subjects.entries()) {
        const base = s.server.url;
        samples[k].one.push(await get(`${base}/iam/v2beta1/groups?page_size=1`, s.token));
        samples[k].page.push(await get(`${base}/iam/v2beta1/roleBindings?page_size=200`, s.token));
        if (i < 5) {
          const ten = Array.from({ length: 10 }, () => get(`${base}/iam/v2beta1/roleBindings?page_size=200`, s.token));
          await new Promise((r) => setTimeout(r, 5));
          samples[k].admin.push(await get(`${base}/iam/v2beta1/groups/${s.server.organization}`, s.server.token));
          await Promise.all(ten);
        }
      }
    const f = (ms: number) => `${ms.toFixed(1)} ms`;
    return [
      `## A caller bound on ${BINDINGS.toLocaleString("en")} sibling groups`,
      "",
      "| server | one-item list of groups (median of 9) | page of 200 role bindings (median of 9) | admin Get behind 10 such pages (median of 5) |",
      "|---|---|---|---|",
      ...subjects.map((s, k) => `| ${s.name} | ${f(median(samples[k].one))} | ${f(median(samples[k].page))} | ${f(median(samples[k].admin))} |`),
    ].join("\n");
  } finally {
    for (const s of subjects) await s.server.close();
  }
}

runWhenMain(module, runAuthzBindingsBench);
