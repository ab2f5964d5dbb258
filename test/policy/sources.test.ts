/**
 * itemsOfApi over several scopes, against a live irv-server: scopes under one small folder are
 * listed once per kind over the folder (what lies outside them dropped), with the same items as
 * one listing per scope; a kind whose common ancestor is too large to walk is listed scope by scope.
 */
import { describe, expect, it } from "vitest";
import { IrvClient } from "../../client";
import { StaticTokenSource } from "../../client/auth";
import { ACCESS_KINDS, itemsOfApi } from "../../policy/access/sources";
import { seedGroups } from "../../server/sample/seed";
import { path, useServer } from "../support/server";
import { bind, mkGroup, mkIdentity, ok } from "../support/server-helpers";

const ctx = useServer({ fixtures: {}, seed: (store, org) => void seedGroups(store, org, 450) });

/** What itemsOfApi finds, by kind and uid, and the requests it took. */
async function listed(scopes: string[]): Promise<[string[], number]> {
  const client = new IrvClient(ctx.server.url, new StaticTokenSource(ctx.server.token));
  const from = ctx.server.requests.length;
  const items = await itemsOfApi(client, scopes);
  return [items.map((i) => `${i.kind} ${i.uid}`).sort(), ctx.server.requests.length - from];
}

describe("itemsOfApi", () => {
  it("lists scopes under one small folder once per kind, finding what one listing per scope finds", async () => {
    const folder = await mkGroup(ctx.api, ctx.server.organization, "folder");
    const outside = await mkGroup(ctx.api, folder.uid, "not-watched");
    const teams = [];
    for (let i = 0; i < 5; i++) {
      const team = await mkGroup(ctx.api, folder.uid, `team-${i}`);
      const role = ok(await ctx.api.post(path("roles", team.uid), { name: `reader-${i}`, capabilities: ["CAP_REPO_LIST"] }));
      const ci = await mkIdentity(ctx.api, team.uid, `ci-${i}`);
      await bind(ctx.api, team.uid, ci.uid, role.uid);
      teams.push(team.uid);
    }
    const [items, requests] = await listed(teams);
    // A page per kind over the folder, and the roles above the scopes once.
    expect(requests).toBe(ACCESS_KINDS.length + 1);
    expect(items.filter((i) => i.includes(outside.uid))).toEqual([]);
    const one = await Promise.all(teams.map((t) => listed([t])));
    const each = [...new Set(one.flatMap(([i]) => i))].sort();
    expect(items).toEqual(each);
    expect(items.filter((i) => i.startsWith("roleBindings "))).toHaveLength(5);
  });

  it("lists scopes one by one when their common ancestor takes more pages than there are scopes", async () => {
    const a = await mkGroup(ctx.api, ctx.server.organization, "scope-a");
    const b = await mkGroup(ctx.api, ctx.server.organization, "scope-b");
    const [items, requests] = await listed([a.uid, b.uid]);
    // A first page per kind over the organization. Its 450 groups are 3 pages for 2 scopes: groups
    // are then listed per scope; the other kinds fit in that one page. And the roles above them.
    expect(requests).toBe(ACCESS_KINDS.length + 2 + 1);
    expect(items.filter((i) => i.startsWith("groups "))).toEqual([`groups ${a.uid}`, `groups ${b.uid}`].sort());
  });
});
