/**
 * Registry v1's repos and tags (`chainguard.platform.registry.Registry`: CreateRepo, UpdateRepo,
 * ListRepos, DeleteRepo, CreateTag, UpdateTag, ListTags, DeleteTag) over real gRPC to a live
 * irv-server, in v1's messages over the same store as v2beta1: a repo's README and short catalog
 * tiers, CreateRepo's update on a name collision unless `prevent_existing`, tags created without a
 * digest and updated, the v1 filters (id, name, uidp, digest, updated_since, exclude_*), and
 * authorization, NOT_FOUND and bad input in the API's error model.
 */
import { describe, expect, it } from "vitest";
import type { ItemChange } from "../../server";
import { answer, failureOf, grpcFor, type GrpcApi } from "../support/grpc";
import { path, useServer } from "../support/server";
import { bind, expectFieldViolation, mkGroup, mkIdentity, ok, role } from "../support/server-helpers";

const REGISTRY = "chainguard.platform.registry.Registry";
const digest = (c: string) => `sha256:${c.repeat(64)}`;
const ctx = useServer({
  fixtures: {
    repos: [
      {
        name: "base",
        tags: [
          { name: "latest", digest: digest("a") },
          { name: "sha256-abc.sig", digest: digest("b") },
        ],
      },
    ],
  },
});

async function withGrpc<T>(token: string | null, run: (g: GrpcApi) => Promise<T>): Promise<T> {
  const g = grpcFor(ctx.server.url, token);
  try {
    return await run(g);
  } finally {
    g.close();
  }
}
const call = (g: GrpcApi, method: string, request: object) => g.call(REGISTRY, method, request);

describe("registry v1 repos over gRPC", () => {
  it("creates, lists, updates and deletes a repo, README included, as v2beta1 sees it", async () => {
    const group = await mkGroup(ctx.api, ctx.server.organization, "v1-repos");
    await withGrpc(ctx.server.token, async (g) => {
      const made = answer(
        await call(g, "CreateRepo", {
          parentId: group.uid,
          repo: {
            name: "app",
            description: "Our app",
            catalogTier: "APPLICATION",
            bundles: ["application"],
            aliases: ["acme-app:latest"],
            activeTags: ["latest"],
            readme: "# App",
          },
        }),
      );
      expect(made).toMatchObject({
        name: "app",
        description: "Our app",
        catalogTier: "APPLICATION",
        readme: "# App",
        bundles: ["application"],
        activeTags: ["latest"],
      });
      expect(made.id.startsWith(`${group.uid}/`)).toBe(true);
      expect(Date.parse(made.createTime)).not.toBeNaN();

      // The same repo through v2beta1: its tier by the v2beta1 name, its README at /readme.
      expect(ok(await ctx.api.get(path("repos", made.id)))).toMatchObject({
        uid: made.id,
        catalogTier: "CATALOG_TIER_APPLICATION",
        aliases: ["acme-app:latest"],
      });
      expect(ok(await ctx.api.get(`${path("repos", made.id)}/readme`)).content).toBe("# App");

      expect(answer(await call(g, "ListRepos", { id: made.id })).items).toEqual([made]);
      expect(answer(await call(g, "ListRepos", { uidp: { childrenOf: group.uid }, name: "app" })).items).toEqual([made]);
      expect(answer(await call(g, "ListRepos", { uidp: { childrenOf: group.uid }, name: "other" })).items ?? []).toEqual([]);

      // A PUT: every field replaced, an omitted one reset (the description, the aliases).
      const updated = answer(await call(g, "UpdateRepo", { id: made.id, name: "app", catalogTier: "BASE", readme: "# App v2", bundles: ["base"] }));
      expect(updated).toMatchObject({ id: made.id, name: "app", catalogTier: "BASE", readme: "# App v2", bundles: ["base"], createTime: made.createTime });
      expect(updated.description ?? "").toBe("");
      expect(updated.aliases ?? []).toEqual([]);
      expect(ok(await ctx.api.get(`${path("repos", made.id)}/readme`)).content).toBe("# App v2");

      answer(await call(g, "DeleteRepo", { id: made.id }));
      expect(answer(await call(g, "ListRepos", { id: made.id })).items ?? []).toEqual([]);
      expect((await ctx.api.get(path("repos", made.id))).status).toBe(404);
    });
  });

  it("updates the repo of that name on a second CreateRepo, announced as an update, unless prevent_existing", async () => {
    const group = await mkGroup(ctx.api, ctx.server.organization, "v1-collide");
    await withGrpc(ctx.server.token, async (g) => {
      const heard: ItemChange[] = [];
      const stop = ctx.server.changes.subscribe((c) => heard.push(c));
      const first = answer(await call(g, "CreateRepo", { parentId: group.uid, repo: { name: "web", description: "first" } }));
      const again = answer(await call(g, "CreateRepo", { parentId: group.uid, repo: { name: "web", description: "second" } }));
      stop();
      expect(again).toMatchObject({ id: first.id, description: "second" });
      expect(heard.map((c) => [c.type, c.uid])).toEqual([
        ["dev.chainguard.api.platform.registry.repo.created.v1", first.id],
        ["dev.chainguard.api.platform.registry.repo.updated.v1", first.id],
      ]);
      const refused = failureOf(await call(g, "CreateRepo", { parentId: group.uid, repo: { name: "web" }, preventExisting: true }));
      expect(refused.code).toBe("ALREADY_EXISTS");
      expect(refused.details).toContain("web");
      expect(answer(await call(g, "ListRepos", { uidp: { childrenOf: group.uid } })).items).toHaveLength(1);
    });
  });

  it("refuses bad input naming the field, and an unknown repo as NOT_FOUND", async () => {
    const org = ctx.server.organization;
    await withGrpc(ctx.server.token, async (g) => {
      const noParent = failureOf(await call(g, "CreateRepo", { repo: { name: "x" } }));
      expect(noParent.code).toBe("INVALID_ARGUMENT");
      expect(JSON.stringify(noParent.status)).toContain("parent_id");
      const noName = failureOf(await call(g, "CreateRepo", { parentId: org, repo: { description: "nameless" } }));
      expect(noName.code).toBe("INVALID_ARGUMENT");
      expect(JSON.stringify(noName.status)).toContain('"name"');
      const longReadme = failureOf(await call(g, "CreateRepo", { parentId: org, repo: { name: "big", readme: "x".repeat(1_000_001) } }));
      expect(longReadme.code).toBe("INVALID_ARGUMENT");
      expect(JSON.stringify(longReadme.status)).toContain('"readme"');
      // Refused whole: the repo it would have made is not there.
      expect(answer(await call(g, "ListRepos", { uidp: { childrenOf: org }, name: "big" })).items ?? []).toEqual([]);
      expect(failureOf(await call(g, "CreateRepo", { parentId: org, repo: { name: "big", id: `${org}/0123456789abcdef` } })).code).toBe("INVALID_ARGUMENT");
      const badId = failureOf(await call(g, "ListRepos", { id: "not a uid" }));
      expect(badId.code).toBe("INVALID_ARGUMENT");
      const gone = `${org}/0123456789abcdef`;
      expect(failureOf(await call(g, "UpdateRepo", { id: gone, name: "x" })).code).toBe("NOT_FOUND");
      expect(failureOf(await call(g, "DeleteRepo", { id: gone })).code).toBe("NOT_FOUND");
    });
  });
});

describe("registry v1 tags over gRPC", () => {
  it("creates a tag without a digest, moves it with one, updates and deletes it; v2beta1 sees the same tag", async () => {
    const group = await mkGroup(ctx.api, ctx.server.organization, "v1-tags");
    await withGrpc(ctx.server.token, async (g) => {
      const repo = answer(await call(g, "CreateRepo", { parentId: group.uid, repo: { name: "svc" } }));
      const bare = answer(await call(g, "CreateTag", { repoId: repo.id, tag: { name: "latest", bundles: ["application"] } }));
      expect(bare).toMatchObject({ name: "latest", bundles: ["application"] });
      expect(bare.digest ?? "").toBe("");
      expect(Date.parse(bare.lastUpdated)).not.toBeNaN();
      const moved = answer(await call(g, "CreateTag", { repoId: repo.id, tag: { name: "latest", digest: digest("c") } }));
      expect(moved).toMatchObject({ id: bare.id, digest: digest("c") });
      expect(ok(await ctx.api.get(path("tags", bare.id)))).toMatchObject({ uid: bare.id, digest: digest("c") });

      // UpdateTag renames and deprecates, announced as the platform's tag.updated; with no digest the tag stays where it points.
      const heard: ItemChange[] = [];
      const stop = ctx.server.changes.subscribe((c) => heard.push(c));
      const updated = answer(await call(g, "UpdateTag", { id: bare.id, name: "stable", deprecated: true, bundles: ["base"] }));
      stop();
      expect(heard.map((c) => [c.type, c.uid, c.group])).toEqual([["dev.chainguard.api.platform.registry.tag.updated.v1", bare.id, ctx.server.organization]]);
      expect(updated).toMatchObject({ id: bare.id, name: "stable", deprecated: true, bundles: ["base"], digest: digest("c") });
      expect(answer(await call(g, "ListTags", { id: bare.id })).items).toEqual([updated]);

      answer(await call(g, "CreateTag", { repoId: repo.id, tag: { name: "dev", digest: digest("d") } }));
      const clash = failureOf(await call(g, "UpdateTag", { id: bare.id, name: "dev" }));
      expect(clash.code).toBe("ALREADY_EXISTS");

      answer(await call(g, "DeleteTag", { id: bare.id }));
      expect(answer(await call(g, "ListTags", { id: bare.id })).items ?? []).toEqual([]);
      expect(failureOf(await call(g, "DeleteTag", { id: bare.id })).code).toBe("NOT_FOUND");
    });
  });

  it("filters by uidp, name, digest, updated_since and exclude_*", async () => {
    const base = ok(await ctx.api.get(path("repos"), { name: "base" })).repos[0];
    await withGrpc(ctx.server.token, async (g) => {
      const names = async (filter: object) =>
        (answer(await call(g, "ListTags", { uidp: { childrenOf: base.uid }, ...filter })).items ?? []).map((t: { name: string }) => t.name).sort();
      // v1 lists every tag unless an exclude_* flag leaves some out.
      expect(await names({})).toEqual(["latest", "sha256-abc.sig"]);
      expect(await names({ excludeReferrers: true })).toEqual(["latest"]);
      expect(await names({ name: "latest" })).toEqual(["latest"]);
      expect(await names({ digest: digest("b") })).toEqual(["sha256-abc.sig"]);
      expect(await names({ updatedSince: "2999-01-01T00:00:00Z" })).toEqual([]);
    });
  });

  it("refuses a bad tag name or digest naming the field, and a tag in no repo as NOT_FOUND", async () => {
    const base = ok(await ctx.api.get(path("repos"), { name: "base" })).repos[0];
    await withGrpc(ctx.server.token, async (g) => {
      const badName = failureOf(await call(g, "CreateTag", { repoId: base.uid, tag: { name: "-bad" } }));
      expect(badName.code).toBe("INVALID_ARGUMENT");
      expect(JSON.stringify(badName.status)).toContain('"name"');
      const badDigest = failureOf(await call(g, "CreateTag", { repoId: base.uid, tag: { name: "ok", digest: "md5:x" } }));
      expect(badDigest.code).toBe("INVALID_ARGUMENT");
      expect(JSON.stringify(badDigest.status)).toContain('"digest"');
      expect(failureOf(await call(g, "CreateTag", { repoId: `${ctx.server.organization}/0123456789abcdef`, tag: { name: "ok" } })).code).toBe("NOT_FOUND");
    });
  });
});

describe("registry v1 repos over REST", () => {
  it("speaks v1's names: a short tier, the README in the repo, create_time; a v2beta1 name is refused naming the field", async () => {
    const group = await mkGroup(ctx.api, ctx.server.organization, "v1-rest");
    const made = ok(await ctx.api.post(`/registry/v1/repos/${group.uid}`, { name: "restful", catalogTier: "FIPS", readme: "hi" }));
    expect(made).toMatchObject({ id: expect.any(String), name: "restful", catalogTier: "FIPS", readme: "hi", createTime: expect.any(String) });
    for (const v2 of ["uid", "updateTime", "createdAt"]) expect(made).not.toHaveProperty(v2);
    expect(ok(await ctx.api.get("/registry/v1/repos", { id: made.id })).items).toEqual([made]);
    expectFieldViolation(await ctx.api.post(`/registry/v1/repos/${group.uid}`, { name: "x", catalogTier: "CATALOG_TIER_FIPS" }), "catalogTier");
    expectFieldViolation(await ctx.api.post(`/registry/v1/repos/${group.uid}`, { name: "x", catalogTier: "GOLD" }), "catalogTier");
    const create = (query: Record<string, string>) => ctx.api.request("POST", `/registry/v1/repos/${group.uid}`, { query, body: { name: "x" } });
    expectFieldViolation(await create({ dry_run: "true" }), "dry_run");
    expectFieldViolation(await create({ prevent_existing: "maybe" }), "prevent_existing");
  });
});

describe("registry v1 summaries over gRPC", () => {
  it("summarizes a repo's tags: count, last update, the latest tag and the longest other name of its digest, exclude_* applied", async () => {
    const group = await mkGroup(ctx.api, ctx.server.organization, "v1-summary");
    await withGrpc(ctx.server.token, async (g) => {
      const repo = answer(await call(g, "CreateRepo", { parentId: group.uid, repo: { name: "summed" } }));
      expect(answer(await call(g, "GetRepoTagsSummary", { repoId: repo.id }))).toEqual({ id: repo.id, tagCount: "0" });
      for (const name of ["1", "1.2", "1.2.3", "latest", "latest-dev", "sha256-abc.sig", "1.2.3-r1"]) {
        const d = name === "sha256-abc.sig" ? digest("f") : digest("e");
        answer(await call(g, "CreateTag", { repoId: repo.id, tag: { name, digest: name === "latest-dev" || name === "1.2.3-r1" ? digest("e") : d } }));
      }
      const all = answer(await call(g, "GetRepoTagsSummary", { repoId: repo.id }));
      expect(all).toMatchObject({ id: repo.id, tagCount: "7", latestTag: { name: "latest", digest: digest("e") }, latestVersion: "1.2.3-r1" });
      expect(Date.parse(all.lastUpdated)).not.toBeNaN();
      const some = answer(await call(g, "GetRepoTagsSummary", { repoId: repo.id, excludeReferrers: true, excludeEpochs: true }));
      expect(some).toMatchObject({ tagCount: "5", latestVersion: "1.2.3" });
      expect(failureOf(await call(g, "GetRepoTagsSummary", { repoId: `${ctx.server.organization}/0123456789abcdef` })).code).toBe("NOT_FOUND");
      expect(failureOf(await call(g, "GetRepoTagsSummary", { repoId: "" })).code).toBe("INVALID_ARGUMENT");
    });
  });

  it("counts the repos synced from a repo, of those the caller may list", async () => {
    const org = ctx.server.organization;
    const a = await mkGroup(ctx.api, org, "v1-count-a");
    const b = await mkGroup(ctx.api, org, "v1-count-b");
    const source = ok(await ctx.api.post(path("repos", a.uid), { name: "upstream" }));
    for (const [group, name] of [
      [a, "mirror-a"],
      [b, "mirror-b"],
    ] as const)
      ok(await ctx.api.post(path("repos", group.uid), { name, sync_config: { source: source.uid } }));
    await withGrpc(ctx.server.token, async (g) => expect(answer(await call(g, "GetRepoCountBySource", { id: source.uid }))).toEqual({ count: "2" }));
    // A viewer of group a alone counts only group a's mirror; a stranger is refused.
    const id = await mkIdentity(ctx.api, org, "v1-counter");
    const token = await ctx.server.issueToken(id.uid);
    await withGrpc(token, async (g) => {
      const denied = failureOf(await call(g, "GetRepoCountBySource", { id: source.uid }));
      expect(denied.code).toBe("PERMISSION_DENIED");
      expect(denied.details).toContain("repo.list");
      await bind(ctx.api, a.uid, id.uid, role.viewer);
      expect(answer(await call(g, "GetRepoCountBySource", { id: source.uid }))).toEqual({ count: "1" });
    });
  });
});

describe("registry v1 authorization", () => {
  it("scopes lists to the caller's bindings and refuses writes without repo.create, tag.update, ...", async () => {
    const org = ctx.server.organization;
    const group = await mkGroup(ctx.api, org, "v1-authz");
    const repo = ok(await ctx.api.post(path("repos", group.uid), { name: "guarded" }));
    const tag = ok(await ctx.api.post(path("tags", repo.uid), { name: "v1", digest: digest("e") }));
    const id = await mkIdentity(ctx.api, org, "v1-registry-reader");
    const token = await ctx.server.issueToken(id.uid);
    await withGrpc(token, async (g) => {
      // No binding: nothing listed, every write PERMISSION_DENIED naming its capability.
      expect(answer(await call(g, "ListRepos", { id: repo.uid })).items ?? []).toEqual([]);
      expect(answer(await call(g, "ListTags", { id: tag.uid })).items ?? []).toEqual([]);
      const denied = failureOf(await call(g, "CreateRepo", { parentId: group.uid, repo: { name: "nope" } }));
      expect(denied.code).toBe("PERMISSION_DENIED");
      expect(denied.details).toContain("repo.create");

      // A viewer lists, and still may not write.
      await bind(ctx.api, group.uid, id.uid, role.viewer);
      expect(answer(await call(g, "ListRepos", { id: repo.uid })).items.map((r: { id: string }) => r.id)).toEqual([repo.uid]);
      expect(answer(await call(g, "ListTags", { id: tag.uid })).items.map((t: { id: string }) => t.id)).toEqual([tag.uid]);
      for (const [method, request, cap] of [
        ["UpdateRepo", { id: repo.uid, name: "guarded" }, "repo.update"],
        ["DeleteRepo", { id: repo.uid }, "repo.delete"],
        ["CreateTag", { repoId: repo.uid, tag: { name: "x" } }, "tag.create"],
        ["UpdateTag", { id: tag.uid, name: "v1" }, "tag.update"],
        ["DeleteTag", { id: tag.uid }, "tag.delete"],
      ] as const) {
        const f = failureOf(await call(g, method, request));
        expect(f.code, method).toBe("PERMISSION_DENIED");
        expect(f.details, method).toContain(cap);
      }
    });
    await withGrpc(null, async (g) =>
      expect(failureOf(await call(g, "CreateRepo", { parentId: group.uid, repo: { name: "anon" } })).code).toBe("UNAUTHENTICATED"),
    );
  });
});
