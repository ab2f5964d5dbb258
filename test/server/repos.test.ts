/**
 * Image repos on irv-server as a kind (`/registry/v2beta1/repos`,
 * `chainguard.platform.registry.v2beta1.ReposService`), REST and gRPC over one store: create,
 * get, list, update under a mask, delete with its tags; a synced repo's source stored as a uid;
 * the README read and written apart (GetRepoReadme, UpdateRepoReadme); bad input refused naming the field; authorization by
 * the repo capabilities; the events each write announces.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtinRoleUid } from "../../api/builtin-roles";
import type { ItemChange } from "../../server";
import { answer, failed, grpcFor, type GrpcApi } from "../support/grpc";
import { listAll, path, useServer } from "../support/server";
import { bind, callersOn, created, expectError, expectFieldViolation, mkGroup, mkIdentity, ok, type Callers } from "../support/server-helpers";

const V2 = "chainguard.platform.registry.v2beta1.ReposService";
const README = "# nginx\n\nOur nginx.";

const ctx = useServer({
  fixtures: {
    groups: [{ path: "catalog" }],
    repos: [{ name: "nginx", group: "catalog", visibility: "public", readme: README, tags: [{ name: "latest", digest: `sha256:${"a".repeat(64)}` }] }],
  },
});
let A: string, B: string, source: string;
let as: Callers;
let tokens: Record<keyof Callers, string>;
let g: GrpcApi;

beforeAll(async () => {
  const org = ctx.server.organization;
  A = (await mkGroup(ctx.api, org, "repos-a")).uid;
  B = (await mkGroup(ctx.api, org, "repos-b")).uid;
  source = (await listAll(ctx.api, "repos", { name: "nginx" }))[0].uid as string;
  ({ as, tokens } = await callersOn(ctx, A));
  g = grpcFor(ctx.server.url, ctx.server.token);
});
afterAll(() => g?.close());

describe("repos over REST (v2beta1)", () => {
  it("creates, gets, lists, updates under a mask and deletes", async () => {
    const repo = ok(
      await ctx.api.post(path("repos", A), {
        name: "app",
        description: "ours",
        bundles: ["application"],
        activeTags: ["latest"],
        catalogTier: "CATALOG_TIER_APPLICATION",
      }),
    );
    expect(repo).toMatchObject({
      name: "app",
      description: "ours",
      bundles: ["application"],
      aliases: [],
      activeTags: ["latest"],
      catalogTier: "CATALOG_TIER_APPLICATION",
      sync_config: null,
    });
    expect(ok(await ctx.api.get(path("repos", repo.uid)))).toEqual(repo);
    expect((await listAll(ctx.api, "repos", { "uidp.children_of": A })).map((r) => r.uid)).toEqual([repo.uid]);
    const updated = ok(await ctx.api.patch(path("repos", repo.uid), { description: "changed", bundles: ["x"] }, { updateMask: "description" }));
    expect(updated).toMatchObject({ description: "changed", bundles: ["application"] });
    expectError(await ctx.api.post(path("repos", A), { name: "app" }), "ALREADY_EXISTS");
    ok(await ctx.api.del(path("repos", repo.uid)));
    expectError(await ctx.api.get(path("repos", repo.uid)), "NOT_FOUND");
  });

  it("stores a synced repo's source as the source repo's uid, whether named by uid or catalog name; the platform's members set", async () => {
    const byName = ok(
      await ctx.api.post(path("repos", A), {
        name: "synced",
        sync_config: { source: "cgr.dev/catalog/nginx", amazon: "123456789012.dkr.ecr.us-east-1.amazonaws.com/nginx" },
      }),
    );
    expect(byName.sync_config).toMatchObject({
      source,
      amazon: "123456789012.dkr.ecr.us-east-1.amazonaws.com/nginx",
      google: "",
      uniqueTags: false,
      gracePeriod: false,
    });
    expect(Date.parse(byName.sync_config.expirationTime) - Date.parse(byName.createTime)).toBe(14 * 86_400_000);
    const byUid = ok(await ctx.api.post(path("repos", A), { name: "synced-2", sync_config: { source } }));
    expect(byUid.sync_config.source).toBe(source);
    expectFieldViolation(await ctx.api.post(path("repos", A), { name: "orphan", sync_config: { source: "chainguard/none" } }), "sync_config.source");
  });

  it("reads a repo's README apart from the repo, as GetRepoReadme does", async () => {
    expect(ok(await ctx.api.get(`${path("repos", source)}/readme`))).toEqual({ uid: source, content: README });
    expect(ok(await ctx.api.get(path("repos", source))).readme).toBeUndefined();
    // A public repo's README is read without a token, as the repo is.
    expect(ok(await ctx.api.as(null).get(`${path("repos", source)}/readme`)).content).toBe(README);
  });

  it("writes a repo's README apart from the repo, as UpdateRepoReadme does: content set, kept without a mask, cleared under one", async () => {
    const repo = await created(ctx.api, "repos", A, { name: "documented" });
    const readme = `${path("repos", repo.uid)}/readme`;
    expect(ok(await ctx.api.get(readme))).toEqual({ uid: repo.uid, content: "" });
    expect(ok(await ctx.api.patch(readme, { content: "# Ours" }))).toEqual({ uid: repo.uid, content: "# Ours" });
    expect(ok(await ctx.api.get(readme)).content).toBe("# Ours");
    // The repo itself is not changed: its updateTime stays and it carries no README.
    const live = ok(await ctx.api.get(path("repos", repo.uid)));
    expect(live.updateTime).toBe(repo.updateTime);
    expect(live.readme).toBeUndefined();
    // Without a mask an empty content is no content; under the `content` mask it clears.
    expect(ok(await ctx.api.patch(readme, {})).content).toBe("# Ours");
    expect(ok(await ctx.api.patch(readme, {}, { updateMask: "content" })).content).toBe("");
    expectFieldViolation(await ctx.api.patch(readme, { content: "x" }, { updateMask: "uid" }), "update_mask");
    expectFieldViolation(await ctx.api.patch(readme, { content: "x".repeat(1_000_001) }), "content");
    expectError(await ctx.api.patch(`${path("repos", `${A}/0123456789abcdef`)}/readme`, { content: "x" }), "NOT_FOUND");
    // A viewer reads it and may not write it; nobody outside the repo's group reads it.
    expect(ok(await as.viewer.get(readme)).content).toBe("");
    expectError(await as.viewer.patch(readme, { content: "x" }), "PERMISSION_DENIED");
    ok(await as.editor.patch(readme, { content: "# Edited" }));
    expectError(await as.blind.patch(readme, { content: "x" }), "PERMISSION_DENIED");
  });

  it("refuses bad input naming the field", async () => {
    expectFieldViolation(await ctx.api.post(path("repos", A), {}), "name");
    expectFieldViolation(await ctx.api.post(path("repos", A), { name: "x", catalogTier: "GOLD" }), "catalogTier");
    expectFieldViolation(await ctx.api.post(path("repos", A), { name: "x", bundles: [""] }), "bundles.0");
    expectFieldViolation(await ctx.api.post(path("repos", A), { name: "x", sync_config: {} }), "sync_config.source");
    expectFieldViolation(await ctx.api.post(path("repos", "not-a-uid"), { name: "x" }), "parent");
    const repo = await created(ctx.api, "repos", A, { name: "masked" });
    expectFieldViolation(await ctx.api.patch(path("repos", repo.uid), { description: "x" }, { updateMask: "readme" }), "update_mask");
  });

  it("deletes a repo's tags with it", async () => {
    const org = ctx.server.organization;
    const doomed = ok(await ctx.api.post(path("repos", org), { name: "doomed" }));
    ok(await ctx.api.del(path("repos", doomed.uid)));
    expect(await listAll(ctx.api, "tags", { "uidp.children_of": doomed.uid })).toEqual([]);
    // The fixture repo's tag stays with its repo.
    expect((await listAll(ctx.api, "tags", { "uidp.children_of": source })).map((t) => t.name)).toEqual(["latest"]);
  });
});

describe("authorization by the repo capabilities", () => {
  it("a viewer lists and reads; an editor creates, updates and deletes; nobody reaches another group", async () => {
    const repo = await created(ctx.api, "repos", A, { name: "guarded" });
    expect((await listAll(as.viewer, "repos", { "uidp.children_of": A })).map((r) => r.uid)).toContain(repo.uid);
    expectError(await as.viewer.post(path("repos", A), { name: "nope" }), "PERMISSION_DENIED");
    expectError(await as.viewer.patch(path("repos", repo.uid), { description: "x" }, { updateMask: "description" }), "PERMISSION_DENIED");
    expectError(await as.viewer.del(path("repos", repo.uid)), "PERMISSION_DENIED");
    expectError(await as.blind.get(path("repos", repo.uid)), "PERMISSION_DENIED");
    expectError(await as.blind.get(`${path("repos", repo.uid)}/readme`), "PERMISSION_DENIED");
    const mine = ok(await as.editor.post(path("repos", A), { name: "editors" }));
    ok(await as.editor.patch(path("repos", mine.uid), { description: "x" }, { updateMask: "description" }));
    ok(await as.editor.del(path("repos", mine.uid)));
    expectError(await as.editor.post(path("repos", B), { name: "theirs" }), "PERMISSION_DENIED");
  });
});

describe("repos over gRPC", () => {
  it("creates, gets, lists, updates, reads the README and deletes as REST does; refuses as REST does", async () => {
    const repo = answer(await g.call(V2, "CreateRepo", { parent: A, repo: { name: "grpc", catalogTier: "CATALOG_TIER_BASE", sync_config: { source } } }));
    expect(repo).toMatchObject({ name: "grpc", catalogTier: "CATALOG_TIER_BASE", sync_config: { source } });
    expect(answer(await g.call(V2, "GetRepo", { uid: repo.uid }))).toEqual(repo);
    expect(answer(await g.call(V2, "ListRepos", { uidp: { childrenOf: A }, name: "grpc" })).repos).toEqual([repo]);
    const up = answer(await g.call(V2, "UpdateRepo", { repo: { uid: repo.uid, description: "via grpc" }, updateMask: { paths: ["description"] } }));
    expect(up).toMatchObject({ description: "via grpc", catalogTier: "CATALOG_TIER_BASE" });
    expect(answer(await g.call(V2, "GetRepoReadme", { uid: source }))).toEqual({ uid: source, content: README });
    const written = answer(await g.call(V2, "UpdateRepoReadme", { repoReadme: { uid: repo.uid, content: "# gRPC" } }));
    expect(written).toEqual({ uid: repo.uid, content: "# gRPC" });
    expect(answer(await g.call(V2, "GetRepoReadme", { uid: repo.uid })).content).toBe("# gRPC");
    const cleared = answer(await g.call(V2, "UpdateRepoReadme", { repoReadme: { uid: repo.uid }, updateMask: { paths: ["content"] } }));
    expect(cleared).toEqual({ uid: repo.uid, content: "" });
    expect(failed(await g.call(V2, "UpdateRepoReadme", { repoReadme: { uid: repo.uid, content: "x" } }, { token: tokens.viewer }))).toBe("PERMISSION_DENIED");
    expect(failed(await g.call(V2, "CreateRepo", { parent: A, repo: {} }))).toBe("INVALID_ARGUMENT");
    expect(failed(await g.call(V2, "CreateRepo", { parent: A, repo: { name: "x" } }, { token: tokens.viewer }))).toBe("PERMISSION_DENIED");
    expect(answer(await g.call(V2, "DeleteRepo", { uid: repo.uid }))).toEqual({});
    expect(failed(await g.call(V2, "GetRepo", { uid: repo.uid }))).toBe("NOT_FOUND");
  });
});

describe("the events a repo's writes announce", () => {
  it("names the proto's types and the repo's group", async () => {
    const heard: ItemChange[] = [];
    const stop = ctx.server.changes.subscribe((c) => heard.push(c));
    try {
      const repo = await created(ctx.api, "repos", A, { name: "announced" });
      ok(await ctx.api.patch(path("repos", repo.uid), { description: "x" }, { updateMask: "description" }));
      ok(await ctx.api.patch(`${path("repos", repo.uid)}/readme`, { content: "# x" }));
      ok(await ctx.api.del(path("repos", repo.uid)));
      expect(heard.map((c) => [c.kind, c.type, c.uid, c.group])).toEqual([
        ["repos", "dev.chainguard.api.platform.registry.repo.created.v1", repo.uid, A],
        ["repos", "dev.chainguard.api.platform.registry.repo.updated.v1", repo.uid, A],
        ["repos", "dev.chainguard.api.platform.registry.repo.updated.v1", repo.uid, A],
        ["repos", "dev.chainguard.api.platform.registry.repo.deleted.v1", repo.uid, A],
      ]);
    } finally {
      stop();
    }
  });
});

describe("tags as a kind (`chainguard.platform.registry.v2beta1.TagsService`)", () => {
  const DIGEST = `sha256:${"1f".repeat(32)}`;
  const MOVED = `sha256:${"2e".repeat(32)}`;
  const T2 = "chainguard.platform.registry.v2beta1.TagsService";

  it("creates a tag in a repo, moves the one of that name on a second create, deletes it; no update", async () => {
    const repo = await created(ctx.api, "repos", A, { name: "tagged" });
    const tag = ok(await ctx.api.post(path("tags", repo.uid), { name: "stable", digest: DIGEST, bundles: ["application"] }));
    expect(tag).toMatchObject({ name: "stable", digest: DIGEST, deprecated: false, bundles: ["application"] });
    expect(tag.uid.startsWith(`${repo.uid}/`)).toBe(true);
    const moved = ok(await ctx.api.post(path("tags", repo.uid), { name: "stable", digest: MOVED, deprecated: true }));
    expect(moved).toMatchObject({ uid: tag.uid, digest: MOVED, deprecated: true });
    expect((await listAll(ctx.api, "tags", { "uidp.children_of": repo.uid })).map((t) => t.digest)).toEqual([MOVED]);
    expect((await ctx.api.patch(path("tags", tag.uid), { deprecated: false }, { updateMask: "deprecated" })).status).toBe(405);
    ok(await ctx.api.del(path("tags", tag.uid)));
    expectError(await ctx.api.get(path("tags", tag.uid)), "NOT_FOUND");
  });

  it("refuses bad input naming the field, and a parent that is no repo", async () => {
    const repo = await created(ctx.api, "repos", A, { name: "strict" });
    expectFieldViolation(await ctx.api.post(path("tags", repo.uid), { name: "stable", digest: "sha256:abc" }), "digest");
    expectFieldViolation(await ctx.api.post(path("tags", repo.uid), { digest: DIGEST }), "name");
    expectFieldViolation(await ctx.api.post(path("tags", repo.uid), { name: ".hidden", digest: DIGEST }), "name");
    expectError(await ctx.api.post(path("tags", A), { name: "stable", digest: DIGEST }), "NOT_FOUND");
  });

  it("is authorized by the tag capabilities on the repo's group", async () => {
    const repo = await created(ctx.api, "repos", A, { name: "tag-guarded" });
    const tag = await created(ctx.api, "tags", repo.uid, { name: "stable", digest: DIGEST });
    ok(await as.viewer.get(path("tags", tag.uid)));
    expectError(await as.viewer.post(path("tags", repo.uid), { name: "x", digest: DIGEST }), "PERMISSION_DENIED");
    expectError(await as.viewer.del(path("tags", tag.uid)), "PERMISSION_DENIED");
    expectError(await as.blind.get(path("tags", tag.uid)), "PERMISSION_DENIED");
    // The built-in editor role holds no tag.create (as the platform's); registry.push does.
    expectError(await as.editor.post(path("tags", repo.uid), { name: "x", digest: DIGEST }), "PERMISSION_DENIED");
    const pusher = await mkIdentity(ctx.api, A, "pusher");
    await bind(ctx.api, A, pusher.uid, builtinRoleUid("registry.push"));
    const push = ctx.api.as(await ctx.server.issueToken(pusher.uid));
    const mine = ok(await push.post(path("tags", repo.uid), { name: "pushed", digest: DIGEST }));
    ok(await push.del(path("tags", mine.uid)));
    const theirs = await created(ctx.api, "repos", B, { name: "theirs" });
    expectError(await push.post(path("tags", theirs.uid), { name: "x", digest: DIGEST }), "PERMISSION_DENIED");
  });

  it("serves gRPC as REST, and announces the tag events naming the organization", async () => {
    const repo = await created(ctx.api, "repos", A, { name: "tag-grpc" });
    const heard: ItemChange[] = [];
    const stop = ctx.server.changes.subscribe((c) => heard.push(c));
    try {
      const tag = answer(await g.call(T2, "CreateTag", { parent: repo.uid, tag: { name: "grpc", digest: DIGEST } }));
      expect(answer(await g.call(T2, "GetTag", { uid: tag.uid }))).toEqual(tag);
      expect(answer(await g.call(T2, "ListTags", { uidp: { childrenOf: repo.uid } })).tags).toEqual([tag]);
      expect(failed(await g.call(T2, "CreateTag", { parent: repo.uid, tag: { name: "grpc", digest: "x" } }))).toBe("INVALID_ARGUMENT");
      expect(failed(await g.call(T2, "CreateTag", { parent: repo.uid, tag: { name: "y", digest: DIGEST } }, { token: tokens.viewer }))).toBe(
        "PERMISSION_DENIED",
      );
      expect(answer(await g.call(T2, "DeleteTag", { uid: tag.uid }))).toEqual({});
      expect(heard.map((c) => [c.type, c.uid, c.group])).toEqual([
        ["dev.chainguard.api.platform.registry.tag.created.v1", tag.uid, ctx.server.organization],
        ["dev.chainguard.api.platform.registry.tag.deleted.v1", tag.uid, ctx.server.organization],
      ]);
    } finally {
      stop();
    }
  });
});
