/** Parallel writers: unique uids, consistent counts, and deletes racing child creates. */
import { describe, expect, it } from "vitest";
import { TYPE_PREFIX } from "../../api";
import { listAll, path, useServer } from "../support/server";
import { mkGroup, ok } from "../support/server-helpers";

const ctx = useServer({ fixtures: {} });

describe("concurrency", () => {
  it("many parallel creates get unique uids and consistent counts", async () => {
    const parent = await mkGroup(ctx.api, ctx.server.organization, "parallel");
    const results = await Promise.all(Array.from({ length: 200 }, (_, i) => ctx.api.post(path("groups", parent.uid), { name: `p-${i}` })));
    const uids = results.map((r) => ok(r).uid);
    expect(new Set(uids).size).toBe(200);
    const listed = await listAll(ctx.api, "groups", { "uidp.children_of": parent.uid });
    expect(listed.map((g) => g.uid).sort()).toEqual([...uids].sort());
    const page = ok(await ctx.api.get(path("groups"), { "uidp.descendants_of": parent.uid, page_size: 1 }));
    expect(page.totalCount).toBe("201");
  });

  it("a delete racing child creates leaves a consistent tree", async () => {
    for (let round = 0; round < 5; round++) {
      const g = await mkGroup(ctx.api, ctx.server.organization, `race-${round}`);
      const creates = Array.from({ length: 10 }, (_, i) => ctx.api.post(path("groups", g.uid), { name: `c-${i}` }));
      const del = ctx.api.del(path("groups", g.uid));
      const [deleted, ...made] = await Promise.all([del, ...creates]);
      const created = made.filter((r) => r.status === 200);
      for (const r of made) expect([200, 404]).toContain(r.status);
      if (deleted.status === 200) {
        // The delete ran before every create (a child would have blocked it): all got NOT_FOUND.
        expect(created).toHaveLength(0);
        expect((await ctx.api.get(path("groups", g.uid))).status).toBe(404);
        expect(await listAll(ctx.api, "groups", { "uidp.descendants_of": g.uid })).toEqual([]);
      } else {
        // The delete failed because children exist, and says how many there were then.
        expect(deleted.status).toBe(400);
        const pf = deleted.body.details.find((d: { "@type": string }) => d["@type"] === `${TYPE_PREFIX}PreconditionFailure`);
        expect(pf.violations[0].type).toBe("RESOURCE_NOT_EMPTY");
        expect(created.length).toBeGreaterThan(0);
        const children = await listAll(ctx.api, "groups", { "uidp.children_of": g.uid });
        expect(children.length).toBe(created.length);
      }
    }
  });
});
