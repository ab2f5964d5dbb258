/**
 * List parameters as the platform's gateway reads them into a List request: proto names and JSON
 * names alike, unknown parameters ignored, bounds kept, on every List endpoint of irv-server.
 */
import { describe, expect, it } from "vitest";
import { COLLECTION_NAMES, type CollectionName } from "../../api/collections";
import { KINDS } from "../../api/kinds";
import { MAX_VALUES } from "../../server/list/query";
import { path, useServer, type Query } from "../support/server";
import { bind, expectFieldViolation, mkGroup, mkIdentity, ok, role } from "../support/server-helpers";

const ctx = useServer();
/** Every collection with a List (a singleton, a repo's deployment, has none). */
const LISTED = COLLECTION_NAMES.filter((c) => !KINDS.some((d) => d.kind === c && "singleton" in d));

/** The uids of one page. */
async function uids(c: CollectionName, query: Query): Promise<string[]> {
  const body = ok(await ctx.api.get(path(c), query));
  return body[c].map((i: { uid: string }) => i.uid);
}

describe("every List endpoint", () => {
  it("has an item of every collection to list", async () => {
    const g = await mkGroup(ctx.api, ctx.server.organization, "params");
    const id = await mkIdentity(ctx.api, g.uid, "ci-bot");
    await bind(ctx.api, g.uid, id.uid, role.viewer);
    ok(await ctx.api.post(path("roles", g.uid), { name: "custom", capabilities: ["CAP_IAM_GROUPS_LIST"] }));
    ok(await ctx.api.post(path("groupInvites", g.uid), { roleUid: role.viewer, ttl: "3600s" }));
    ok(await ctx.api.post(path("subscriptions", g.uid), { sink: "https://hooks.acme.example/params" }));
    for (const c of LISTED) {
      if (c === "accountAssociations" || c === "identityProviders") continue;
      expect((await uids(c, {})).length, c).toBeGreaterThan(0);
    }
  });

  for (const c of LISTED) {
    it(`${c}: takes proto and JSON names alike, and ignores parameters its request lacks`, async () => {
      const org = ctx.server.organization;
      const all = await uids(c, { page_size: 200, "uidp.descendants_of": org });
      const first = all.slice(0, 3);
      // Paging, order and scope under either name.
      expect(await uids(c, { pageSize: 3, "uidp.descendantsOf": org }), "JSON names").toEqual(first);
      const desc = await uids(c, { page_size: 3, order_by: "uid desc" });
      expect(desc).toEqual([...desc].sort().reverse());
      expect(await uids(c, { pageSize: 3, orderBy: "uid desc" })).toEqual(desc);
      const page = ok(await ctx.api.get(path(c), { page_size: 1 }));
      if (page.nextPageToken) {
        const a = await uids(c, { page_size: 1, page_token: page.nextPageToken });
        expect(await uids(c, { pageSize: 1, pageToken: page.nextPageToken }), "page token by either name").toEqual(a);
      }
      if (all.length) {
        expect(await uids(c, { "uidp.ids": all[0] })).toEqual([all[0]]);
        expect(await uids(c, { "uidp.childrenOf": org, page_size: 200 })).toEqual(await uids(c, { "uidp.children_of": org, page_size: 200 }));
        expect(await uids(c, { "uidp.inRoot": "true", page_size: 200 })).toEqual(await uids(c, { "uidp.in_root": "true", page_size: 200 }));
      }
      // Unknown parameters, top-level or nested, change nothing.
      const noise: Query = { unknown_param: "1", "uidp.nothing": "x", ["__proto__"]: "x", constructor: "y", filter: "name=a", readMask: "uid" };
      for (let i = 0; i < 300; i++) noise[`n${i}`] = String(i);
      expect(await uids(c, { page_size: 200, "uidp.descendants_of": org, ...noise })).toEqual(all);
      // A parameter given under both its names is given twice.
      expectFieldViolation(await ctx.api.get(path(c), { page_size: 2, pageSize: 3 }), "page_size");
    });
  }

  it("bounds the values of a repeated parameter", async () => {
    // One value per parameter; the 16 KiB request line bounds the rest.
    const cve = ok(await ctx.api.get(path("advisories"), { page_size: 1 })).advisories[0].aliases[0];
    expect(await uids("advisories", { aliases: [...Array(MAX_VALUES - 1).fill("x"), cve] })).not.toEqual([]);
    expectFieldViolation(await ctx.api.get(path("advisories"), { aliases: [...Array(MAX_VALUES).fill("x"), cve] }), "aliases");
  });

  it("reads a repeated parameter once per value, as the gateway does: a comma is part of the value", async () => {
    const org = ctx.server.organization;
    const a = await mkGroup(ctx.api, org, "repeat-a");
    const b = await mkGroup(ctx.api, org, "repeat-b");
    expect(await uids("groups", { "uidp.ids": [a.uid, b.uid] })).toEqual([a.uid, b.uid].sort());
    const [v] = expectFieldViolation(await ctx.api.get(path("groups"), { "uidp.ids": `${a.uid},${b.uid}` }), "uidp.ids");
    expect(v.description).toContain("repeated parameters (uidp.ids=A&uidp.ids=B)");
    // A collection filter too: two aliases joined by a comma are one alias no advisory has.
    const cves = ok(await ctx.api.get(path("advisories"), { page_size: 2 })).advisories.map((x: { aliases: string[] }) => x.aliases[0]);
    expect(await uids("advisories", { aliases: cves })).toHaveLength(2);
    expect(await uids("advisories", { aliases: cves.join(",") })).toEqual([]);
  });

  it("uidp.in_root keeps the root-level items themselves, not the items of a root group; false is no filter", async () => {
    const org = ctx.server.organization;
    const id = await mkIdentity(ctx.api, org, "root-group-bot");
    const custom = ok(await ctx.api.post(path("roles", org), { name: "root-group-role", capabilities: ["CAP_IAM_GROUPS_LIST"] }));
    const ids = await uids("identities", { "uidp.in_root": "true", page_size: 200 });
    expect(ids).not.toContain(id.uid);
    for (const u of ids) expect(u).not.toContain("/");
    const roles = await uids("roles", { "uidp.in_root": "true", page_size: 200 });
    expect(roles).toContain(role.viewer);
    expect(roles).not.toContain(custom.uid);
    expect(await uids("groups", { "uidp.in_root": "true", page_size: 200 })).toEqual([org]);
    for (const c of ["groups", "identities", "roles"] as const)
      expect(await uids(c, { "uidp.in_root": "false", page_size: 200 }), c).toEqual(await uids(c, { page_size: 200 }));
  });

  it("reads booleans as the gateway does, and an empty string as an unset filter", async () => {
    const root = await uids("groups", { "uidp.in_root": "true" });
    for (const t of ["1", "t", "TRUE", "True"]) expect(await uids("groups", { "uidp.inRoot": t }), t).toEqual(root);
    expectFieldViolation(await ctx.api.get(path("groups"), { "uidp.inRoot": "yes" }), "uidp.inRoot");
    const some = await uids("groups", {});
    expect(await uids("groups", { name: "" })).toEqual(some);
    expect(await uids("groups", { "uidp.descendants_of": "" })).toEqual(some);
  });

  it("takes the group invites' key_id as keyId too", async () => {
    const invite = ok(await ctx.api.get(path("groupInvites"))).groupInvites[0];
    expect(await uids("groupInvites", { key_id: invite.keyId })).toEqual([invite.uid]);
    expect(await uids("groupInvites", { keyId: invite.keyId })).toEqual([invite.uid]);
  });
});
