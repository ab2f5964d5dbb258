/**
 * The operation's read batcher (provider/resources/reads.ts) against a live irv-server: what it
 * costs in requests for few and many reads in a large organization, that what a listing answers
 * equals the item's GET for every kind, that a caller who may list only part of a subtree still
 * gets the direct answer for the rest, and that nothing listed before a write of the process, or
 * before the operation began, is served.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PAGE_SIZE_MAX, type CollectionName } from "../../api/collections";
import type { Kind } from "../../api/kinds";
import { clientFor } from "../../client/session";
import { PermissionDeniedError } from "../../client/errors";
import type { IrvClient } from "../../client/client";
import { ReadBatch } from "../../provider/resources/reads";
import { seedGroups } from "../../server";
import { makeEveryKind } from "../support/every-kind";
import { listAll, path, useServer } from "../support/server";

const SEEDED = 2_000;

describe("reads within one operation", () => {
  const ctx = useServer({ seed: (store, organization) => void seedGroups(store, organization, SEEDED) });
  const client = (token = ctx.server.token): IrvClient => clientFor({ apiUrl: ctx.server.url, token });
  /** The requests the server answers while `f` runs, and what `f` returned. */
  const counted = async <T>(f: () => Promise<T>): Promise<[T, { method: string; path: string; query: Record<string, unknown>; status: number }[]]> => {
    const from = ctx.server.requests.length;
    const out = await f();
    return [out, ctx.server.requests.slice(from)];
  };
  const isList = (r: { query: Record<string, unknown> }) => "uidp.descendants_of" in r.query;
  /** The operation's read batch: each test begins its own. */
  let batch = new ReadBatch();
  // A listing lives 30 s by default: far longer here, so that no count depends on the machine's speed.
  const fresh = process.env.IRV_LIST_FRESH_MS;
  beforeAll(() => {
    process.env.IRV_LIST_FRESH_MS = "3600000";
  });
  afterAll(() => {
    if (fresh === undefined) delete process.env.IRV_LIST_FRESH_MS;
    else process.env.IRV_LIST_FRESH_MS = fresh;
  });

  it("costs one request for one read in a large organization, and pages only when enough is read", async () => {
    const groups = (await listAll(ctx.api, "groups", { "uidp.children_of": ctx.server.organization, page_size: 200 })).map((g) => g.uid as string);
    expect(groups.length).toBeGreaterThanOrEqual(SEEDED);
    const pages = Math.ceil((groups.length + 1) / PAGE_SIZE_MAX);
    const c = client();
    batch = new ReadBatch();

    const [one, first] = await counted(() => batch.read(c, "groups", groups[1500]));
    expect(one.uid).toBe(groups[1500]);
    expect(first).toHaveLength(1);

    // Three more: the second read of the kind asks for the first page, which tells that the
    // organization needs `pages` pages, more than the reads seen: the rest are GETs.
    const few = groups.slice(1000, 1003);
    const [got, second] = await counted(() => Promise.all(few.map((u) => batch.read(c, "groups", u))));
    expect(got.map((g) => g.uid)).toEqual(few);
    expect(second.filter(isList)).toHaveLength(1);
    expect(second.length).toBeLessThanOrEqual(1 + few.length);

    // Many more: once the reads seen reach the pages left, the walk goes on, and every later
    // read is answered from it. At most the GETs before that, and the pages.
    const many = groups.slice(0, 200).concat(groups.slice(1800, 1900));
    const [all, third] = await counted(() => Promise.all(many.map((u) => batch.read(c, "groups", u))));
    expect(all.map((g) => g.uid)).toEqual(many);
    const readsBefore = 1 + few.length;
    expect(third.filter(isList).length).toBeLessThanOrEqual(pages - 1);
    expect(third.filter((r) => !isList(r)).length).toBeLessThanOrEqual(pages - readsBefore);
    expect(third.length).toBeLessThan(many.length / 10);

    // And now without any request at all.
    const [again, fourth] = await counted(() => Promise.all(groups.slice(500, 700).map((u) => batch.read(c, "groups", u))));
    expect(again).toHaveLength(200);
    expect(fourth).toEqual([]);
  });

  it("answers every kind from a listing exactly as its GET does: hydrated bindings, every relationship type, invites, IdPs, subscriptions", async () => {
    const made = await makeEveryKind(ctx.api, ctx.server.organization, "batched");
    // A repo's deployment has no List: read by GET each (test/provider/repoDeployments.test.ts).
    const byKind: Record<Exclude<Kind, "repoDeployments">, string[]> = {
      // (Not the team: its parent is the organization, whose 2,000 groups are more pages than reads.)
      groups: [made.subteam],
      identities: [made.ci, made.keys, made.aws, made.syncer],
      roles: [made.deployer],
      roleBindings: [made.binding],
      identityProviders: [made.sso],
      accountAssociations: [made.accounts],
      groupInvites: [made.invite],
      subscriptions: [made.subscription],
      repos: [made.repo],
      tags: [made.tag],
    };
    const direct = client();
    const c = client();
    batch = new ReadBatch();
    for (const [kind, uids] of Object.entries(byKind) as [CollectionName, string[]][]) {
      // The first read of a kind is a GET; read each uid twice, so that the second comes from a listing.
      await batch.read(c, kind, uids[0]);
      const [listed, requests] = await counted(() => Promise.all(uids.map((u) => batch.read(c, kind, u))));
      expect(requests.every(isList), `${kind}: ${JSON.stringify(requests)}`).toBe(true);
      for (const [i, u] of uids.entries()) expect(listed[i], `${kind} ${u}`).toEqual(await direct.get(kind, u));
    }
  });

  it("reads directly what the caller may not list, with the API's own answer", async () => {
    const made = await makeEveryKind(ctx.api, ctx.server.organization, "partly");
    const other = await makeEveryKind(ctx.api, ctx.server.organization, "hidden");
    const viewer = (await listAll(ctx.api, "roles", { name: "viewer" }))[0].uid as string;
    const res = await ctx.api.post(path("roleBindings", made.team), { identityUid: made.syncer, roleUid: viewer });
    expect(res.status, res.text).toBe(200);
    const c = client(await ctx.server.issueToken(made.syncer));
    batch = new ReadBatch();
    const mine = await Promise.all([made.ci, made.keys, made.aws].map((u) => batch.read(c, "identities", u)));
    expect(mine.map((i) => i.uid)).toEqual([made.ci, made.keys, made.aws]);
    const [err, requests] = await counted(() => batch.read(c, "identities", other.ci).catch((e: unknown) => e));
    expect(err).toBeInstanceOf(PermissionDeniedError);
    // Its listing over the organization holds only what the caller may list: the rest is a GET.
    expect(requests.filter((r) => !isList(r)).map((r) => [r.path, r.status])).toEqual([[path("identities", other.ci), 403]]);
  });

  it("serves nothing listed before a write of the process, or before the operation began", async () => {
    const made = await makeEveryKind(ctx.api, ctx.server.organization, "fresh");
    const c = client();
    batch = new ReadBatch();
    await Promise.all([made.ci, made.keys].map((u) => batch.read(c, "identities", u)));
    await c.update("identities", made.keys, { description: "written by the process" }, ["description"]);
    expect((await batch.read(c, "identities", made.keys)).description).toBe("written by the process");

    // A new operation (a new plugin process): an edit by hand since the last listing is found.
    await Promise.all([made.ci, made.keys].map((u) => batch.read(c, "identities", u)));
    const res = await ctx.api.patch(path("identities", made.keys), { description: "by hand" }, { updateMask: "description" });
    expect(res.status, res.text).toBe(200);
    batch = new ReadBatch();
    const [read, requests] = await counted(async () => (await Promise.all([made.ci, made.keys].map((u) => batch.read(c, "identities", u))))[1]);
    expect(requests.filter(isList), "read from a listing").toHaveLength(1);
    expect(read.description).toBe("by hand");
  });
});
