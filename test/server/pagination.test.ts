/** Lists: page_size, keyset cursors in every order, tokens bound to their query and expiring,
 *  skip/skipped, totalCount, order_by forms, scope and name filters. */
import { describe, expect, it } from "vitest";
import { PAGE_TOKEN_TTL_MS } from "../../api";
import { seedGroups } from "../../server";
import { listAll, path, useServer, type Api, type Query } from "../support/server";
import { expectFieldViolation, mkGroup, ok } from "../support/server-helpers";

let now = Date.parse("2026-01-01T00:00:00.000Z");
let seeded: string[] = [];
const ctx = useServer({
  fixtures: {},
  clock: () => now,
  seed: (store, org) => {
    seeded = seedGroups(store, org, 250, new Date(now).toISOString());
  },
});

/** Walks every page; returns the uids in order and the pages' envelopes. */
async function walk(api: Api, query: Query) {
  const uids: string[] = [];
  const pages: any[] = [];
  let token: string | undefined;
  do {
    const page = ok(await api.get(path("groups"), { ...query, page_token: token }));
    pages.push(page);
    uids.push(...page.groups.map((g: { uid: string }) => g.uid));
    token = page.nextPageToken;
  } while (token);
  return { uids, pages };
}

describe("pagination", () => {
  it("defaults to 50 per page, clamps to 200, and reports totalCount as a decimal string", async () => {
    const first = ok(await ctx.api.get(path("groups")));
    expect(first.groups).toHaveLength(50);
    expect(first.totalCount).toBe("251");
    expect(first.skipped).toBe(0);
    expect(typeof first.nextPageToken).toBe("string");
    expect(ok(await ctx.api.get(path("groups"), { page_size: 1000 })).groups).toHaveLength(200);
    // Clamped however many digits it has, as the docs say.
    for (const big of ["201", "1000000000", "99999999999999999999", "0".repeat(30) + "7"])
      expect(ok(await ctx.api.get(path("groups"), { page_size: big })).groups, big).toHaveLength(big.endsWith("7") ? 7 : 200);
    expect(ok(await ctx.api.get(path("groups"), { page_size: 0 })).groups).toHaveLength(50);
    expect(ok(await ctx.api.get(path("groups"), { pageSize: 7 })).groups).toHaveLength(7);
    for (const bad of ["-1", "abc", "1.5", ""]) expectFieldViolation(await ctx.api.get(path("groups"), { page_size: bad }), "page_size");
    expectFieldViolation(await ctx.api.get(path("groups"), { skip: "-3" }), "skip");
    expectFieldViolation(await ctx.api.get(path("groups"), { page_token: "garbage" }), "page_token");
    // A parameter the List request lacks is ignored, as the platform's gateway ignores it.
    expect(ok(await ctx.api.get(path("groups"), { unknown_param: "1" })).totalCount).toBe("251");
  });

  it("visits every item exactly once in every order, ascending and descending", async () => {
    const all = [ctx.server.organization, ...seeded];
    for (const order_by of [undefined, "uid", "uid desc", "name", "name desc", "create_time desc", "createTime", "updateTime desc", "description"]) {
      const { uids, pages } = await walk(ctx.api, { order_by, page_size: 37 });
      expect(uids.length, order_by).toBe(all.length);
      expect(new Set(uids).size, order_by).toBe(all.length);
      expect(pages.every((p) => p.totalCount === "251")).toBe(true);
      if (order_by === "uid desc") expect(uids).toEqual([...all].sort().reverse());
      if (order_by === undefined || order_by === "uid") expect(uids).toEqual([...all].sort());
    }
    const byName = (await walk(ctx.api, { order_by: "name desc", page_size: 100 })).uids;
    const groups = await listAll(ctx.api, "groups", { order_by: "name desc" });
    const names = groups.map((g) => g.name);
    expect(names).toEqual([...names].sort().reverse());
    expect(groups.map((g) => g.uid)).toEqual(byName);
  });

  it("keeps a cursor stable across writes between pages (keyset, not offset)", async () => {
    const page1 = ok(await ctx.api.get(path("groups"), { page_size: 100 }));
    const last = page1.groups[99].uid;
    // Delete an item already served and add one: the next page starts right after `last`.
    const extra = await mkGroup(ctx.api, ctx.server.organization, "zz-late");
    const page2 = ok(await ctx.api.get(path("groups"), { page_size: 100, page_token: page1.nextPageToken }));
    expect(page2.groups[0].uid > last).toBe(true);
    const rest = [...page2.groups];
    let tok = page2.nextPageToken;
    while (tok) {
      const p = ok(await ctx.api.get(path("groups"), { page_size: 100, page_token: tok }));
      rest.push(...p.groups);
      tok = p.nextPageToken;
    }
    ok(await ctx.api.del(path("groups", extra.uid)));
    const seen = [...page1.groups, ...rest].map((g: { uid: string }) => g.uid);
    expect(new Set(seen).size).toBe(seen.length);
    // An item added behind the cursor is not served; one added ahead of it is.
    expect(seen.includes(extra.uid)).toBe(extra.uid > last);
    expect(seen.length).toBe(251 + (extra.uid > last ? 1 : 0));
  });

  it("keeps name order right through inserts, renames and deletes (maintained index)", async () => {
    const byNameUid = (a: { name: string; uid: string }, b: { name: string; uid: string }) =>
      a.name === b.name ? (a.uid < b.uid ? -1 : 1) : a.name < b.name ? -1 : 1;
    await listAll(ctx.api, "groups", { order_by: "name" });
    const made = await mkGroup(ctx.api, ctx.server.organization, "group-000100");
    ok(await ctx.api.patch(path("groups", seeded[0]), { name: "aaa-renamed" }));
    const p1 = ok(await ctx.api.get(path("groups"), { order_by: "name", page_size: 100 }));
    ok(await ctx.api.del(path("groups", made.uid)));
    const rest: { uid: string }[] = [];
    for (let tok = p1.nextPageToken; tok;) {
      const p = ok(await ctx.api.get(path("groups"), { order_by: "name", page_size: 100, page_token: tok }));
      rest.push(...p.groups);
      tok = p.nextPageToken;
    }
    const all = await listAll(ctx.api, "groups", { order_by: "name" });
    expect(all).toEqual([...all].sort(byNameUid));
    expect(all[0].uid).toBe(seeded[0]);
    expect(all.map((g) => g.uid)).not.toContain(made.uid);
    const served = [...p1.groups, ...rest].map((g) => g.uid);
    expect(new Set(served).size).toBe(served.length);
    expect(served.length).toBe(251 + (p1.groups.some((g: { uid: string }) => g.uid === made.uid) ? 1 : 0));
    ok(await ctx.api.patch(path("groups", seeded[0]), { name: "group-000001" }));
  });

  it("binds a token to its query", async () => {
    const p = ok(await ctx.api.get(path("groups"), { order_by: "name", page_size: 10 }));
    const v = expectFieldViolation(await ctx.api.get(path("groups"), { order_by: "name desc", page_token: p.nextPageToken }), "page_token");
    expect(v[0].description).toContain("different query");
    expectFieldViolation(await ctx.api.get(path("groups"), { order_by: "name", name: "group-000001", page_token: p.nextPageToken }), "page_token");
    // page_size and skip may change between pages.
    ok(await ctx.api.get(path("groups"), { order_by: "name", page_size: 3, page_token: p.nextPageToken }));
    // A tampered token is refused (tokens are sealed: flip one byte of the ciphertext).
    const raw = Buffer.from(p.nextPageToken, "base64url");
    raw[20] ^= 1;
    expectFieldViolation(await ctx.api.get(path("groups"), { order_by: "name", page_token: raw.toString("base64url") }), "page_token");
  });

  it("restarts a listing whose token is older than 3 days, without error", async () => {
    const p1 = ok(await ctx.api.get(path("groups"), { page_size: 10 }));
    const p2 = ok(await ctx.api.get(path("groups"), { page_size: 10, page_token: p1.nextPageToken }));
    expect(p2.groups[0].uid).not.toBe(p1.groups[0].uid);
    const saved = now;
    try {
      now += PAGE_TOKEN_TTL_MS + 1000;
      const restarted = ok(await ctx.api.get(path("groups"), { page_size: 10, page_token: p1.nextPageToken }));
      expect(restarted.groups).toEqual(p1.groups);
      expect(restarted.totalCount).toBe("251");
    } finally {
      now = saved;
    }
  });

  it("skips with skip and accumulates skipped across tokens", async () => {
    const all = (await walk(ctx.api, { page_size: 200 })).uids;
    const a = ok(await ctx.api.get(path("groups"), { page_size: 10, skip: 20 }));
    expect(a.skipped).toBe(20);
    expect(a.groups.map((g: { uid: string }) => g.uid)).toEqual(all.slice(20, 30));
    const b = ok(await ctx.api.get(path("groups"), { page_size: 10, skip: 5, page_token: a.nextPageToken }));
    expect(b.skipped).toBe(25);
    expect(b.groups.map((g: { uid: string }) => g.uid)).toEqual(all.slice(35, 45));
    const c = ok(await ctx.api.get(path("groups"), { page_size: 10, page_token: b.nextPageToken }));
    expect(c.skipped).toBe(25);
    expect(c.groups.map((g: { uid: string }) => g.uid)).toEqual(all.slice(45, 55));
    const end = ok(await ctx.api.get(path("groups"), { page_size: 50, skip: 240 }));
    expect(end.groups).toHaveLength(11);
    expect(end.nextPageToken).toBeUndefined();
    const past = ok(await ctx.api.get(path("groups"), { skip: 1000 }));
    expect(past).toMatchObject({ groups: [], totalCount: "251", skipped: 251 });
  });

  it("accepts order_by forms and rejects unknown fields", async () => {
    for (const order_by of ["name", "name desc", "name asc", "created_at desc", "create_time", "createTime desc", "update_time", "verified"])
      ok(await ctx.api.get(path("groups"), { order_by }));
    for (const order_by of ["colour", "name sideways", "name, uid", "name desc extra"])
      expectFieldViolation(await ctx.api.get(path("groups"), { order_by }), "order_by");
  });

  it("filters by scope (descendants_of includes the group, children_of, ancestors_of, ids, in_root) and name", async () => {
    const org = ctx.server.organization;
    const a = await mkGroup(ctx.api, org, "scope-a");
    const b = await mkGroup(ctx.api, a.uid, "scope-b");
    const c = await mkGroup(ctx.api, b.uid, "scope-c");
    const uids = async (q: Query) => (await listAll(ctx.api, "groups", q)).map((g) => g.uid);
    expect(await uids({ "uidp.descendants_of": a.uid })).toEqual([a.uid, b.uid, c.uid].sort());
    expect(await uids({ "uidp.children_of": a.uid })).toEqual([b.uid]);
    expect((await uids({ "uidp.children_of": org })).length).toBe(251);
    expect(await uids({ "uidp.ancestors_of": c.uid })).toEqual([org, a.uid, b.uid, c.uid].sort());
    expect(await uids({ "uidp.ids": [a.uid, c.uid] })).toEqual([a.uid, c.uid].sort());
    expect(await uids({ "uidp.in_root": "true" })).toEqual([org]);
    expect(await uids({ name: "scope-b" })).toEqual([b.uid]);
    expect(await uids({ name: "scope-b", "uidp.descendants_of": c.uid })).toEqual([]);
    expect(await uids({ name: "group-000007" })).toHaveLength(1);
    const page = ok(await ctx.api.get(path("groups"), { "uidp.descendants_of": a.uid, page_size: 2 }));
    expect(page.totalCount).toBe("3");
    expectFieldViolation(await ctx.api.get(path("groups"), { "uidp.descendants_of": "nope" }), "uidp.descendants_of");
    expectFieldViolation(await ctx.api.get(path("groups"), { "uidp.in_root": "maybe" }), "uidp.in_root");
    for (const g of [c, b, a]) ok(await ctx.api.del(path("groups", g.uid)));
  });
});
