/**
 * What one unauthenticated request may cost (issue 19, item 5). Two catalogs, 10,000 and 40,000
 * tags (half public), so that an unbounded answer or an unbounded scan would show:
 * - a sweep of every route the server registers, with no Authorization header, every method, uids
 *   of public, private and missing items, and list queries with fresh filters: every answer is
 *   the error model or a success whose size is under one bound that does not depend on the catalog;
 * - anonymous listings with fresh filters (random digests, names, times, scopes, ids, skips, page
 *   tokens), v2beta1 and v1: the items looked at are counted (never timed), stay under one bound,
 *   are the same for both catalogs where the bound is reached, and no public view is rebuilt;
 * - a listing that filters item by item still visits every match exactly once through its tokens.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PAGE_SIZE_MAX } from "../../api/collections";
import { seedRegistry, startServer, type RunningServer } from "../../server";
import { PUBLIC_WORK_MAX } from "../../server/list/public";
import { V1_ANONYMOUS_MAX } from "../../server/routes/v1";
import { apiFor, path, type ApiResponse, type Query } from "../support/server";
import { workDuring } from "../support/work";
import { expectError, ok } from "../support/server-helpers";

const TAGS_PER_REPO = 4;
const SIZES = { small: 2_500, large: 10_000 }; // repos; tags = 4 per repo, every other repo public
const TIME = "2026-01-01T00:00:00.000Z";

interface Catalog {
  server: RunningServer;
  publicRepo: string;
  publicTag: string;
  privateRepo: string;
  privateTag: string;
  publicTags: number;
}
const catalogs: Record<keyof typeof SIZES, Catalog> = {} as never;

beforeAll(async () => {
  for (const [name, repos] of Object.entries(SIZES) as [keyof typeof SIZES, number][]) {
    let seeded: string[] = [];
    const server = await startServer({
      fixtures: {},
      record: false,
      seed: (store, org) => {
        seeded = seedRegistry(store, org, repos, TAGS_PER_REPO, { time: TIME }).repos;
      },
    });
    // seedRegistry makes every other repo public, the first one included.
    const tag = (repo: string) => `${repo}/${(1).toString(16).padStart(16, "0")}`;
    catalogs[name] = {
      server,
      publicRepo: seeded[0],
      publicTag: tag(seeded[0]),
      privateRepo: seeded[1],
      privateTag: tag(seeded[1]),
      publicTags: (repos / 2) * TAGS_PER_REPO,
    };
  }
}, 120_000);
afterAll(async () => {
  for (const c of Object.values(catalogs)) await c.server.close();
});

const anon = (c: Catalog) => apiFor(c.server.url, null);
const freshUid = (c: Catalog) => `${c.server.organization}/${randomBytes(8).toString("hex")}`;
const freshDigest = () => `sha256:${randomBytes(32).toString("hex")}`;
/** A time after every tag's last update (so nothing matches it), never the same twice. */
const freshTime = () => new Date(Date.UTC(2030 + Math.floor(Math.random() * 20), 0, 1, 0, 0, Math.floor(Math.random() * 86_400))).toISOString();

/** The largest answer any anonymous request may get: a full v1 list of the largest items, and an envelope. */
const ITEM_BYTES_MAX = 400; // a seeded repo or tag is about 250 bytes as JSON
const RESPONSE_BYTES_MAX = V1_ANONYMOUS_MAX * (ITEM_BYTES_MAX + 1) + 4096;

/** The most items one anonymous list request may look at: the filter budget, a v1 list, the ids given. */
const WORK_MAX = PUBLIC_WORK_MAX + V1_ANONYMOUS_MAX + 2 * 100;

/** List queries an attacker varies: fresh values every call, so no cached answer helps. */
function freshQueries(c: Catalog, collection: "repos" | "tags"): { label: string; query: Query; saturates?: boolean }[] {
  const tags = collection === "tags";
  return [
    { label: "no filter", query: {} },
    { label: "fresh name", query: { name: `n-${randomBytes(6).toString("hex")}` } },
    { label: "fresh scope", query: { "uidp.descendants_of": freshUid(c) } },
    { label: "fresh children_of", query: { "uidp.children_of": freshUid(c) } },
    { label: "fresh ancestors_of", query: { "uidp.ancestors_of": freshUid(c) }, saturates: tags },
    { label: "100 fresh ids", query: { "uidp.ids": Array.from({ length: 100 }, () => freshUid(c)) } },
    { label: "fresh name, by name desc", query: { name: `n-${randomBytes(6).toString("hex")}`, order_by: "name desc" } },
    ...(tags
      ? [
          { label: "fresh digest", query: { digest: freshDigest() } },
          { label: "fresh digest, by last update", query: { digest: freshDigest(), order_by: "update_time desc" } },
          { label: "fresh time", query: { updatedSince: freshTime(), order_by: "digest" }, saturates: true },
          { label: "fresh time, a common name", query: { updatedSince: freshTime(), name: "1.0", order_by: "digest" } },
          { label: "fresh time, skip", query: { updatedSince: freshTime(), skip: 1 + Math.floor(Math.random() * 1e6) }, saturates: true },
          { label: "fresh digest in a real scope", query: { digest: freshDigest(), "uidp.descendants_of": c.server.organization } },
        ]
      : [{ label: "in_root, by name", query: { "uidp.in_root": "false", order_by: "name" } }]),
  ];
}

/** The items looked at, and public views built, while `run` ran. */
async function workOf(c: Catalog, run: () => Promise<ApiResponse>): Promise<{ examined: number; builds: number; res: ApiResponse }> {
  const { work, result: res } = await workDuring(c.server, run);
  return { examined: work.listExamined, builds: work.listViewBuilds, res };
}

const v1 = (p: string) => p.replace("/v2beta1/", "/v1/");

describe("every route an anonymous caller can reach answers within one size bound, whatever the catalog", () => {
  it.each(Object.keys(SIZES) as (keyof typeof SIZES)[])(
    "over the %s catalog",
    async (size) => {
      const c = catalogs[size];
      // The bound means something only if an unbounded list would break it many times over.
      expect(c.publicTags * 200).toBeGreaterThan(2 * RESPONSE_BYTES_MAX);
      expect(c.server.routes.length).toBeGreaterThan(40);
      // Every registered route, and paths no route takes (the not-found answer).
      const routes = [...c.server.routes, { method: "GET", url: "/no/such/route" }, { method: "POST", url: "/registry/v3/tags/*" }];
      const uids = [c.publicRepo, c.publicTag, c.privateRepo, c.privateTag, freshUid(c), c.server.organization];
      let requests = 0;
      for (const { method, url } of routes) {
        const concrete = url.includes("*") ? uids.map((u) => url.replace("*", u)) : [url];
        const lists = url.includes("/registry/") && !url.includes("*") && method === "GET";
        const queries: Query[] = lists
          ? [{}, ...(url.endsWith("repos") ? freshQueries(c, "repos") : freshQueries(c, "tags")).map((q) => q.query), { name: "1.0" }]
          : [{}];
        if (lists && url.includes("/v2beta1/")) queries.push({ page_size: "9999999999" }, { page_size: PAGE_SIZE_MAX, order_by: "uid desc" });
        for (const target of concrete)
          for (const query of queries) {
            const res = await anon(c).request(method, target, { query, ...(["POST", "PATCH", "PUT"].includes(method) ? { body: {} } : {}) });
            requests++;
            const where = `${method} ${target} ${JSON.stringify(query)}: HTTP ${res.status}`;
            expect(res.status, where).toBeLessThan(500);
            expect(res.text.length, where).toBeLessThanOrEqual(RESPONSE_BYTES_MAX);
            if (method !== "HEAD" && res.status >= 400) {
              expect(typeof res.body?.code, where).toBe("number");
              expect(typeof res.body?.message, where).toBe("string");
            }
            if (res.status === 200 && method === "GET" && lists) {
              const items: unknown[] = res.body.items ?? res.body.repos ?? res.body.tags;
              for (const item of items) expect(JSON.stringify(item).length).toBeLessThanOrEqual(ITEM_BYTES_MAX);
            }
          }
      }
      expect(requests).toBeGreaterThan(200);
    },
    120_000,
  );

  it("an anonymous v1 list with more matches than one response holds is refused, saying how to narrow it; a narrow one answers", async () => {
    const c = catalogs.large;
    const all = await anon(c).get(v1(path("tags")));
    const body = expectError(all, "FAILED_PRECONDITION");
    expect(body.message).toContain(`at most ${V1_ANONYMOUS_MAX}`);
    expect(body.message).toContain("/registry/v2beta1/tags");
    const one = ok(await anon(c).get(v1(path("tags")), { "uidp.descendants_of": c.publicRepo }));
    expect(one.items.map((t: { id: string }) => t.id).sort()).toContain(c.publicTag);
    expect(one.items.length).toBe(TAGS_PER_REPO);
    expect(ok(await anon(c).get(v1(path("tags")), { "uidp.descendants_of": c.privateRepo })).items).toEqual([]);
    // The owner's v1 lists are not limited by this (what the owner owns, it may list).
    expect(ok(await apiFor(c.server.url, c.server.token).get(v1(path("repos")))).items.length).toBe(SIZES.large);
  }, 60_000);
});

describe("what an anonymous listing looks at does not grow with the catalog (counted, not timed)", () => {
  it("fresh filters on v2beta1 and v1 repos and tags stay under one bound, the same for both catalogs where it is reached, and rebuild nothing", async () => {
    const rounds: Record<string, Record<keyof typeof SIZES, number>> = {};
    for (const size of Object.keys(SIZES) as (keyof typeof SIZES)[]) {
      const c = catalogs[size];
      expect(c.publicTags).toBeGreaterThan(PUBLIC_WORK_MAX);
      for (const round of ["warm-up", "measured"]) {
        for (const collection of ["repos", "tags"] as const)
          for (const version of ["v2beta1", "v1"])
            for (const { label, query, saturates } of freshQueries(c, collection)) {
              const p = version === "v1" ? v1(path(collection)) : path(collection);
              const v1Query = { ...query };
              if (version === "v1") {
                if (v1Query.order_by !== undefined || v1Query.skip !== undefined) continue; // v1 has neither
              }
              const { examined, builds, res } = await workOf(c, () => anon(c).get(p, v1Query));
              const where = `${size} ${version} ${collection} ${label}: HTTP ${res.status} ${res.text.slice(0, 200)}`;
              expect([200, 400], where).toContain(res.status);
              if (round === "warm-up") continue;
              expect(builds, where).toBe(0);
              expect(examined, where).toBeLessThanOrEqual(WORK_MAX);
              if (saturates) (rounds[`${version} ${collection} ${label}`] ??= {} as never)[size] = examined;
              // A page token of a fresh listing continues at the same bounded cost.
              if (res.body?.nextPageToken) {
                const next = await workOf(c, () => anon(c).get(p, { ...v1Query, page_token: res.body.nextPageToken }));
                expect(next.res.status, where).toBe(200);
                expect(next.builds, where).toBe(0);
                expect(next.examined, where).toBeLessThanOrEqual(WORK_MAX);
              }
            }
      }
    }
    // Where the budget is reached (tags: 5,000 public in the small catalog), a 4 times larger catalog costs exactly the same.
    expect(Object.keys(rounds).length).toBeGreaterThan(3);
    for (const [label, bySize] of Object.entries(rounds)) expect(bySize.large, label).toBe(bySize.small);
  }, 120_000);

  it("a listing filtered item by item visits every public match exactly once through its tokens, each page within the bound", async () => {
    const c = catalogs.large;
    const query = { name: "1.0", order_by: "digest desc", page_size: PAGE_SIZE_MAX };
    const seen: string[] = [];
    const digests: string[] = [];
    let token: string | undefined;
    let pages = 0;
    do {
      const { examined, res } = await workOf(c, () => anon(c).get(path("tags"), { ...query, page_token: token }));
      const page: { tags: { uid: string; digest: string; name: string }[]; totalCount: string; nextPageToken?: string } = ok(res);
      expect(examined).toBeLessThanOrEqual(WORK_MAX);
      // The name's 5,000 public tags are too many to sort per request: filtered while walking, counted exactly.
      expect(page.totalCount).toBe(String(SIZES.large / 2));
      for (const t of page.tags) {
        seen.push(t.uid);
        digests.push(t.digest);
        expect(t.name).toBe("1.0");
      }
      token = page.nextPageToken;
      pages++;
    } while (token);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.length).toBe(SIZES.large / 2);
    expect(digests).toEqual([...digests].sort().reverse());
    expect(pages).toBeLessThan(SIZES.large);

    // Nothing matches: each page looks at the budget and says where to go on; the walk still ends.
    const none = { name: "1.0", updatedSince: "2099-01-01T00:00:00Z", order_by: "digest" };
    let empty = 0;
    token = undefined;
    do {
      const page: { tags: unknown[]; totalCount: string; nextPageToken?: string } = ok(await anon(c).get(path("tags"), { ...none, page_token: token }));
      expect(page.tags).toEqual([]);
      // An upper bound: the public tags named 1.0, before the time filter.
      expect(page.totalCount).toBe(String(SIZES.large / 2));
      token = page.nextPageToken;
      empty++;
    } while (token);
    expect(empty).toBe(Math.ceil(c.publicTags / PUBLIC_WORK_MAX));
  }, 60_000);

  it("an index answers exact filters exactly: a public digest, a name in a scope", async () => {
    const c = catalogs.large;
    const first = ok(await anon(c).get(path("tags"), { "uidp.descendants_of": c.publicRepo }));
    expect(first.totalCount).toBe(String(TAGS_PER_REPO));
    const d = first.tags[0].digest;
    for (const order_by of [undefined, "name", "update_time desc"]) {
      const res = ok(await anon(c).get(path("tags"), { digest: d, order_by }));
      expect({ n: res.totalCount, uids: res.tags.map((t: { uid: string }) => t.uid) }).toEqual({ n: "1", uids: [first.tags[0].uid] });
    }
    const priv = ok(await apiFor(c.server.url, c.server.token).get(path("tags"), { "uidp.descendants_of": c.privateRepo }));
    expect(ok(await anon(c).get(path("tags"), { digest: priv.tags[0].digest }))).toMatchObject({ tags: [], totalCount: "0" });
    expect(ok(await anon(c).get(path("tags"), { name: "1.2", "uidp.descendants_of": c.publicRepo })).totalCount).toBe("1");
  });
});
