/**
 * Anonymous listings over a large public catalog (issue 19, item 5): 25,000 repos of 4 tags each
 * (100,000 tags), every other repo public, seeded straight into the store. Over real HTTP with no
 * Authorization header:
 * - one v1 List of every tag (`/registry/v1/tags`): status, size, time;
 * - a cheap anonymous Get sent right behind it: how long it waits;
 * - v2beta1 tag pages with a fresh `digest` each time (no cache can help), and with a fresh
 *   `updatedSince` next to a common `name` (filtered item by item), against an unfiltered page.
 * With IRV_BENCH_BASELINE=<an older build's dist/server> the same cases run against that build
 * too, interleaved sample by sample in one run.
 */
import { randomBytes } from "node:crypto";
import { performance } from "node:perf_hooks";
import type { RunningServer } from "../server";
import { buildsToCompare, median, runWhenMain } from "./side-by-side";

const REPOS = 25_000;
const TAGS_PER_REPO = 4;
const SAMPLES = 9;
const TIME = "2026-01-01T00:00:00.000Z";

/** Seeds through bulkLoad only, which every build's store has. */
function seed(store: { repos: { bulkLoad(x: unknown[]): void }; tags: { bulkLoad(x: unknown[]): void } }, org: string): string {
  const repos: object[] = [];
  const tags: object[] = [];
  const seen = new Set<string>();
  while (repos.length < REPOS) {
    const uid = `${org}/${randomBytes(8).toString("hex")}`;
    if (seen.has(uid)) continue;
    seen.add(uid);
    const n = repos.length;
    const names = Array.from({ length: TAGS_PER_REPO }, (_, j) => `1.${j}`);
    repos.push({
      uid,
      name: `repo-${String(n + 1).padStart(6, "0")}`,
      description: "",
      catalogTier: "CATALOG_TIER_UNSPECIFIED",
      aliases: [],
      bundles: [],
      activeTags: names,
      visibility: n % 2 === 0 ? "public" : "private",
      createTime: TIME,
      updateTime: TIME,
    });
    names.forEach((name, j) =>
      tags.push({
        uid: `${uid}/${(j + 1).toString(16).padStart(16, "0")}`,
        name,
        digest: `sha256:${randomBytes(32).toString("hex")}`,
        updateTime: TIME,
        deprecated: false,
        bundles: [],
      }),
    );
  }
  store.repos.bulkLoad(repos);
  store.tags.bulkLoad(tags);
  return (repos[0] as { uid: string }).uid;
}

async function get(url: string): Promise<{ ms: number; status: number; bytes: number }> {
  const t = performance.now();
  const res = await fetch(url);
  const text = await res.text();
  return { ms: performance.now() - t, status: res.status, bytes: text.length };
}

interface Subject {
  name: string;
  server: RunningServer;
  publicRepo: string;
}

interface Row {
  v1: { status: number; bytes: number; ms: number };
  behind: number;
  page: number;
  freshDigest: number;
  freshTime: number;
}

const fresh = () => `sha256:${randomBytes(32).toString("hex")}`;
const freshTime = () => new Date(Date.UTC(2030, 0, 1, 0, 0, Math.floor(Math.random() * 1e6))).toISOString();

/** Runs every case against every subject, interleaving the subjects sample by sample. */
async function measure(subjects: Subject[]): Promise<Row[]> {
  const rows: Row[] = subjects.map(() => ({ v1: { status: 0, bytes: 0, ms: 0 }, behind: 0, page: 0, freshDigest: 0, freshTime: 0 }));
  const samples = subjects.map(() => ({ v1: [] as number[], behind: [] as number[], page: [] as number[], digest: [] as number[], time: [] as number[] }));
  // Warm-up: the first anonymous listing of each order builds what later ones reuse.
  for (const s of subjects) {
    await get(`${s.server.url}/registry/v2beta1/tags?page_size=200`);
    await get(`${s.server.url}/registry/v2beta1/tags?digest=${fresh()}`);
    await get(`${s.server.url}/registry/v2beta1/tags?name=1.0&updatedSince=${freshTime()}&order_by=digest`);
  }
  for (let i = 0; i < SAMPLES; i++)
    for (const [k, s] of subjects.entries()) {
      const base = s.server.url;
      if (i < 3) {
        const list = get(`${base}/registry/v1/tags`);
        // Sent once the list is being answered: it queues behind whatever the list costs.
        await new Promise((r) => setTimeout(r, 100));
        const cheap = await get(`${base}/registry/v2beta1/repos/${s.publicRepo}`);
        const v1 = await list;
        rows[k].v1 = { status: v1.status, bytes: v1.bytes, ms: 0 };
        samples[k].v1.push(v1.ms);
        samples[k].behind.push(cheap.ms);
      }
      samples[k].page.push((await get(`${base}/registry/v2beta1/tags?page_size=200`)).ms);
      samples[k].digest.push((await get(`${base}/registry/v2beta1/tags?digest=${fresh()}`)).ms);
      samples[k].time.push((await get(`${base}/registry/v2beta1/tags?name=1.0&updatedSince=${freshTime()}&order_by=digest`)).ms);
    }
  for (const [k, s] of samples.entries()) {
    rows[k].v1.ms = median(s.v1);
    rows[k].behind = median(s.behind);
    rows[k].page = median(s.page);
    rows[k].freshDigest = median(s.digest);
    rows[k].freshTime = median(s.time);
  }
  return rows;
}

export async function runAnonymousListBench(): Promise<string> {
  const subjects: Subject[] = [];
  try {
    for (const [name, start] of buildsToCompare()) {
      let publicRepo = "";
      const server = await start({
        fixtures: {},
        record: false,
        seed: (store, org) => {
          publicRepo = seed(store as never, org);
        },
      });
      subjects.push({ name, server, publicRepo });
    }
    const rows = await measure(subjects);
    const f = (ms: number) => `${ms.toFixed(1)} ms`;
    const size = (b: number) => (b >= 1e6 ? `${(b / 1e6).toFixed(2)} MB` : `${(b / 1e3).toFixed(1)} kB`);
    return [
      `## Anonymous listings, ${(REPOS * TAGS_PER_REPO).toLocaleString("en")} tags (${((REPOS * TAGS_PER_REPO) / 2).toLocaleString("en")} public)`,
      "",
      "| server | v1 List of every tag, no token (median of 3) | anonymous Get sent 100 ms after it (median of 3) | v2beta1 page of 200 (median of 9) | fresh `digest` (median of 9) | fresh `updatedSince` + `name=1.0`, by digest (median of 9) |",
      "|---|---|---|---|---|---|",
      ...rows.map(
        (r, k) =>
          `| ${subjects[k].name} | HTTP ${r.v1.status}, ${size(r.v1.bytes)}, ${f(r.v1.ms)} | ${f(r.behind)} | ${f(r.page)} | ${f(r.freshDigest)} | ${f(r.freshTime)} |`,
      ),
    ].join("\n");
  } finally {
    for (const s of subjects) await s.server.close();
  }
}

runWhenMain(module, runAnonymousListBench);
