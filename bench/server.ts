/**
 * Server benchmark: does a page cost the same at 100,000 groups as at 1,000?
 * Two servers run side by side in this process, seeded straight into the store through the
 * `seed` hook (`seedGroups`), and every page is fetched over real HTTP (keep-alive fetch):
 * - a full cursor walk of the 100,000-group organization at page_size 200;
 * - one page (median of many) at 1,000 and at 100,000 groups: the first page, and a page from a
 *   mid-walk cursor, in uid order and in `name` order.
 * Goal: the 100k / 1k ratio stays under 1.5 (keyset cursors over a uid-sorted index, not scans).
 */
import { startServer, seedGroups, type RunningServer } from "../server";

const SMALL = 1_000;
const LARGE = 100_000;
const PAGE = 200;
const SAMPLES = 300;

async function page(server: RunningServer, query: Record<string, string>): Promise<{ nextPageToken?: string; groups: unknown[] }> {
  const url = new URL(`${server.url}/iam/v2beta1/groups`);
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
  const res = await fetch(url, { headers: { authorization: `Bearer ${server.token}` } });
  if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${await res.text()}`);
  return (await res.json()) as { nextPageToken?: string; groups: unknown[] };
}

const medianOf = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Walks every page; returns [ms, pages, items, the token of the middle page, median ms per page]. */
async function walk(server: RunningServer, query: Record<string, string>): Promise<[number, number, number, string, number]> {
  const t0 = performance.now();
  let pages = 0;
  let items = 0;
  const tokens: string[] = [];
  const each: number[] = [];
  let token: string | undefined;
  do {
    const t1 = performance.now();
    const p = await page(server, token ? { ...query, page_token: token } : query);
    each.push(performance.now() - t1);
    pages++;
    items += p.groups.length;
    token = p.nextPageToken;
    if (token) tokens.push(token);
  } while (token);
  return [performance.now() - t0, pages, items, tokens[Math.floor(tokens.length / 2)], medianOf(each)];
}

/**
 * Median ms of `SAMPLES` fetches of one page from each server, interleaved (small, large, large,
 * small, ...) so both see the same machine load: the ratio is what matters on a noisy box.
 */
async function medians(servers: RunningServer[], queries: Record<string, string>[]): Promise<number[]> {
  const times: number[][] = servers.map(() => []);
  for (let i = 0; i < SAMPLES; i++) {
    const order = i % 2 === 0 ? [0, 1] : [1, 0];
    for (const k of order) {
      const t0 = performance.now();
      await page(servers[k], queries[k]);
      times[k].push(performance.now() - t0);
    }
  }
  return times.map(medianOf);
}

/**
 * Median ms (of 20) of a page fetched right after a write, per server. A write drops cached
 * views; a name-ordered page then reads the maintained name index and a `name=` lookup is a run
 * of it, so neither should scan the collection.
 */
async function afterWrite(servers: RunningServer[], query: Record<string, string>): Promise<number[]> {
  const out: number[] = [];
  for (const s of servers) {
    const times: number[] = [];
    for (let i = 0; i < 20; i++) {
      await fetch(`${s.url}/iam/v2beta1/groups/${s.organization}`, {
        method: "POST",
        headers: { authorization: `Bearer ${s.token}`, "content-type": "application/json" },
        body: JSON.stringify({ name: `bench-${i}` }),
      }).then((r) => r.arrayBuffer());
      const t0 = performance.now();
      await page(s, query);
      times.push(performance.now() - t0);
    }
    out.push(medianOf(times));
  }
  return out;
}

/** Runs the benchmark and returns a printable report (markdown). */
export async function runServerBench(): Promise<string> {
  const small = await startServer({ fixtures: {}, seed: (store, org) => void seedGroups(store, org, SMALL) });
  const large = await startServer({ fixtures: {}, seed: (store, org) => void seedGroups(store, org, LARGE) });
  try {
    const base = { page_size: String(PAGE) };
    // Warm up both (JIT, connections, the name index).
    for (const s of [small, large]) {
      await walk(s, base);
      await page(s, { ...base, order_by: "name" });
    }
    const [walkMs, pages, items, , walkMedian] = await walk(large, base);
    const rows: [string, number, number][] = [];
    for (const [label, extra] of [
      ["first page, uid order", {}],
      ["mid-walk page, uid order", { cursor: "uid" }],
      ["first page, name order", { order_by: "name" }],
      ["mid-walk page, name order", { order_by: "name", cursor: "name" }],
    ] as [string, Record<string, string>][]) {
      const queries: Record<string, string>[] = [];
      for (const s of [small, large]) {
        const q: Record<string, string> = { ...base, ...(extra.order_by ? { order_by: extra.order_by } : {}) };
        if (extra.cursor) q.page_token = (await walk(s, q))[3];
        queries.push(q);
      }
      const ms = await medians([small, large], queries);
      rows.push([label, ms[0], ms[1]]);
    }
    const [a1, b1] = await afterWrite([small, large], { ...base, order_by: "name" });
    rows.push(["name-ordered page right after a write", a1, b1]);
    const [a2, b2] = await afterWrite([small, large], { ...base, name: "group-000500" });
    rows.push(["`name=` lookup right after a write", a2, b2]);
    const fmt = (n: number) => n.toFixed(2);
    return [
      `Full cursor walk, ${LARGE.toLocaleString("en")} groups at page_size ${PAGE}: ` +
        `${(walkMs / 1000).toFixed(2)} s, ${pages} pages (${items.toLocaleString("en")} groups), ` +
        `${fmt(walkMs / pages)} ms/page on average, ${fmt(walkMedian)} ms median page.`,
      "",
      `One page of ${PAGE} groups over HTTP, median of ${SAMPLES} requests (20 for the rows after a write):`,
      "",
      `| page | ${SMALL.toLocaleString("en")} groups | ${LARGE.toLocaleString("en")} groups | ratio 100k / 1k |`,
      "|---|---|---|---|",
      ...rows.map(([label, a, b]) => `| ${label} | ${fmt(a)} ms | ${fmt(b)} ms | ${(b / a).toFixed(2)} |`),
      "",
      "Goal: ratio < 1.5.",
    ].join("\n");
  } finally {
    await small.close();
    await large.close();
  }
}

if (require.main === module) {
  runServerBench().then(
    (report) => console.log(report),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
