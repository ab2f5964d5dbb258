/**
 * Registry benchmark: what anonymous reads and v1 lists cost at 100,000 repos, half of them
 * public (every other one), seeded straight into the store. Over real HTTP (keep-alive fetch):
 * - a full cursor walk at page_size 200 as the organization's owner (all 100,000, uid order) and
 *   anonymously (the 50,000 public ones, which are filtered once, then served from a cache);
 * - one page (median of many, interleaved): owner vs anonymous;
 * - one v1 List (`/registry/v1/repos`, every match in one response) as the owner, and without a
 *   token (refused: more than the 1,000 items an anonymous v1 List answers).
 */
import { randomBytes } from "node:crypto";
import { startServer, type RunningServer } from "../server";

const REPOS = 100_000;
const PAGE = 200;
const SAMPLES = 200;
const medianOf = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function get(server: RunningServer, path: string, token: string | null, query: Record<string, string> = {}) {
  const url = new URL(`${server.url}${path}`);
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
  const res = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${text.slice(0, 200)}`);
  return { body: JSON.parse(text) as { repos?: unknown[]; items?: unknown[]; nextPageToken?: string }, bytes: text.length };
}

async function walk(server: RunningServer, token: string | null): Promise<{ ms: number; pages: number; items: number; median: number }> {
  const t0 = performance.now();
  const each: number[] = [];
  let pages = 0;
  let items = 0;
  let pageToken: string | undefined;
  do {
    const t1 = performance.now();
    const { body } = await get(server, "/registry/v2beta1/repos", token, { page_size: String(PAGE), ...(pageToken ? { page_token: pageToken } : {}) });
    each.push(performance.now() - t1);
    pages++;
    items += body.repos!.length;
    pageToken = body.nextPageToken;
  } while (pageToken);
  return { ms: performance.now() - t0, pages, items, median: medianOf(each) };
}

/** Runs the registry benchmark and returns its report (markdown). */
export async function runRegistryBench(): Promise<string> {
  const time = new Date().toISOString();
  const server = await startServer({
    fixtures: {},
    record: false,
    seed: (store, org) => {
      const seen = new Set<string>();
      const repos = [];
      while (repos.length < REPOS) {
        const uid = `${org}/${randomBytes(8).toString("hex")}`;
        if (seen.has(uid)) continue;
        seen.add(uid);
        const n: number = repos.length;
        repos.push({
          uid,
          name: `repo-${String(n).padStart(6, "0")}`,
          description: "",
          catalogTier: "CATALOG_TIER_UNSPECIFIED",
          aliases: [],
          bundles: [],
          activeTags: [],
          visibility: n % 2 === 0 ? ("public" as const) : ("private" as const),
          createTime: time,
          updateTime: time,
        });
      }
      store.repos.bulkLoad(repos);
    },
  });
  try {
    const owner = await walk(server, server.token);
    const anon = await walk(server, null);
    const pageTimes: [number[], number[]] = [[], []];
    for (let i = 0; i < SAMPLES; i++) {
      for (const k of i % 2 === 0 ? [0, 1] : [1, 0]) {
        const t0 = performance.now();
        await get(server, "/registry/v2beta1/repos", k === 0 ? server.token : null, { page_size: String(PAGE) });
        pageTimes[k].push(performance.now() - t0);
      }
    }
    const v1 = async (token: string | null) => {
      const t0 = performance.now();
      const r = await get(server, "/registry/v1/repos", token);
      return { ms: performance.now() - t0, items: r.body.items!.length, mb: r.bytes / 1e6 };
    };
    const v1Owner = await v1(server.token);
    // Without a token a v1 List answers at most 1,000 items (issue 19): this one is refused.
    const t1 = performance.now();
    const anonRes = await fetch(`${server.url}/registry/v1/repos`);
    const anonText = await anonRes.text();
    const v1Anon = { ms: performance.now() - t1, status: anonRes.status, kb: anonText.length / 1e3 };
    const f = (ms: number) => `${ms.toFixed(2)} ms`;
    return [
      `## Registry: anonymous reads and v1 lists, ${REPOS.toLocaleString("en")} repos (half public)`,
      "",
      "| listing | items | pages | total | median page |",
      "|---|---|---|---|---|",
      `| cursor walk, owner | ${owner.items} | ${owner.pages} | ${(owner.ms / 1000).toFixed(2)} s | ${f(owner.median)} |`,
      `| cursor walk, anonymous (public only) | ${anon.items} | ${anon.pages} | ${(anon.ms / 1000).toFixed(2)} s | ${f(anon.median)} |`,
      `| first page, owner (median of ${SAMPLES}) | ${PAGE} | 1 | | ${f(medianOf(pageTimes[0]))} |`,
      `| first page, anonymous (median of ${SAMPLES}) | ${PAGE} | 1 | | ${f(medianOf(pageTimes[1]))} |`,
      `| v1 List, owner (one response, ${v1Owner.mb.toFixed(1)} MB) | ${v1Owner.items} | 1 | ${f(v1Owner.ms)} | |`,
      `| v1 List, anonymous (HTTP ${v1Anon.status}, ${v1Anon.kb.toFixed(1)} kB: at most 1,000 items without a token) | 0 | 1 | ${f(v1Anon.ms)} | |`,
    ].join("\n");
  } finally {
    await server.close();
  }
}
