/** Repos, tags and advisories: the built-in sample, fixtures from an object and a file, filters. */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { resources } from "../../api";
import { EVENT_TYPES, eventTypeOf } from "../../api/advisories";
import { startServer } from "../../server";
import { listAll, path, startTestServer, useServer, type Query } from "../support/server";
import { expectError, expectFieldViolation, ok } from "../support/server-helpers";

const sample = useServer();

describe("built-in sample", () => {
  it("has a few dozen repos with tags and a few hundred advisories, under the organization", async () => {
    const repos = await listAll(sample.api, "repos", { "uidp.descendants_of": sample.server.organization });
    expect(repos.length).toBe(36);
    for (const r of repos) expect(resources.Repo.parse(r).uid.startsWith(`${sample.server.organization}/`)).toBe(true);
    const nginx = repos.find((r) => r.name === "nginx");
    expect(ok(await sample.api.get(path("repos", nginx.uid)))).toEqual(nginx);
    const tags = await listAll(sample.api, "tags", { "uidp.children_of": nginx.uid });
    expect(tags.length).toBeGreaterThanOrEqual(4);
    for (const t of tags) expect(resources.Tag.parse(t).digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    const latest = tags.find((t) => t.name === "latest");
    expect(ok(await sample.api.get(path("tags", latest.uid)))).toEqual(latest);
    expect(nginx.activeTags).toContain("latest");
    const adv = ok(await sample.api.get(path("advisories"), { page_size: 1 }));
    expect(adv.totalCount).toBe("300");
    const a = resources.Advisory.parse(adv.advisories[0]);
    expect(ok(await sample.api.get(path("advisories", a.uid)))).toEqual(adv.advisories[0]);
    expect(a.aliases[0]).toMatch(/^CVE-\d{4}-\d+$/);
    expect(a.events.length).toBeGreaterThan(0);
    expect(a.severities[0]).toEqual({ type: "TYPE_CVSS_V3", score: expect.stringMatching(/^CVSS:3\.1\/AV:[NALP]\//) });
    expect(a.events[0]).toMatchObject({ uid: expect.stringMatching(new RegExp(`^${a.uid}/[0-9a-f]{16}$`)), reviewState: "REVIEW_STATE_APPROVED" });
    expect(a.events[0].detection?.scanv1?.scanner).toBe("grype");
  });

  it("is the same on every start (seeded), but for the organization uid", async () => {
    const other = await startTestServer();
    try {
      const names = async (api: typeof sample.api) => (await listAll(api, "advisories", { order_by: "advisoryId" })).map((a) => a.advisoryId);
      expect(await names(other.api)).toEqual(await names(sample.api));
    } finally {
      await other.close();
    }
  });

  it("filters tags and advisories", async () => {
    const byName = await listAll(sample.api, "tags", { name: "latest" });
    expect(byName.length).toBe(36);
    const one = byName[0];
    expect((await listAll(sample.api, "tags", { digest: one.digest })).map((t) => t.uid)).toContain(one.uid);
    expect(await listAll(sample.api, "tags", { updatedSince: "2100-01-01T00:00:00Z" })).toEqual([]);
    expectFieldViolation(await sample.api.get(path("tags"), { updatedSince: "yesterday" }), "updatedSince");

    const all = await listAll(sample.api, "advisories");
    const a = all[7];
    expect((await listAll(sample.api, "advisories", { advisoryIds: a.advisoryId })).map((x) => x.uid)).toEqual([a.uid]);
    const two = await listAll(sample.api, "advisories", { advisoryIds: [a.advisoryId, all[8].advisoryId] });
    expect(two).toHaveLength(2);
    const byAlias = await listAll(sample.api, "advisories", { aliases: a.aliases[0] });
    expect(byAlias.map((x) => x.uid)).toContain(a.uid);
    const byArtifact = await listAll(sample.api, "advisories", { artifactNames: ["nginx", "redis"] });
    expect(byArtifact.every((x) => x.artifactName === "nginx" || x.artifactName === "redis")).toBe(true);
    const byComponent = await listAll(sample.api, "advisories", { componentNames: "openssl" });
    expect(byComponent.length).toBeGreaterThan(0);
    const q = await listAll(sample.api, "advisories", { query: a.aliases[0].toLowerCase() });
    expect(q.map((x) => x.uid)).toContain(a.uid);
    const sorted = await listAll(sample.api, "advisories", { order_by: "artifact_name desc" });
    expect(sorted.map((x) => x.artifactName)).toEqual([...sorted.map((x) => x.artifactName)].sort().reverse());
  });

  it("keeps its advisories read-only (repos and tags are kinds, written like any other)", async () => {
    const res = await sample.api.del(path("advisories", `${sample.server.organization}/0123456789abcdef`));
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 405, code: 12 });
    expectError(await sample.api.get(path("repos", `${sample.server.organization}/0123456789abcdef`)), "NOT_FOUND");
  });
});

describe("fixtures", () => {
  const fx = {
    organizationName: "globex",
    organizationUid: "1".repeat(40),
    groups: [{ path: "eng/platform", description: "platform team" }],
    repos: [
      { name: "api", group: "eng/platform", catalogTier: "CATALOG_TIER_BASE" as const, tags: [{ name: "v1", digest: `sha256:${"a".repeat(64)}` }] },
      { name: "web", tags: [{ name: "old", digest: `sha256:${"b".repeat(64)}`, deprecated: true }] },
    ],
    advisories: [{ advisoryId: "CGA-test-0001", aliases: ["CVE-2025-0001"], artifactName: "api" }],
  };

  it("loads groups, repos, tags and advisories from an object, with stable uids", async () => {
    const t = await startTestServer({ fixtures: fx });
    try {
      expect(t.server.organization).toBe("1".repeat(40));
      const root = ok(await t.api.get(path("groups", t.server.organization)));
      expect(root.name).toBe("globex");
      const groups = await listAll(t.api, "groups");
      expect(groups.map((g) => g.name).sort()).toEqual(["eng", "globex", "platform"]);
      const platform = groups.find((g) => g.name === "platform");
      expect(platform.description).toBe("platform team");
      const repos = await listAll(t.api, "repos", { "uidp.descendants_of": platform.uid });
      expect(repos.map((r) => r.name)).toEqual(["api"]);
      const web = (await listAll(t.api, "repos", { name: "web" }))[0];
      expect(web.activeTags).toEqual([]);
      expect(await listAll(t.api, "advisories")).toHaveLength(1);
      const again = await startTestServer({ fixtures: fx });
      try {
        expect((await listAll(again.api, "repos")).map((r) => r.uid)).toEqual((await listAll(t.api, "repos")).map((r) => r.uid));
      } finally {
        await again.close();
      }
    } finally {
      await t.close();
    }
  });

  it("loads from a file path, and refuses an invalid document", async () => {
    const dir = mkdtempSync(join(tmpdir(), "irv-fx-"));
    const file = join(dir, "fx.json");
    writeFileSync(file, JSON.stringify(fx));
    const t = await startTestServer({ fixtures: file, organizationName: "renamed" });
    try {
      expect(ok(await t.api.get(path("groups", t.server.organization))).name).toBe("renamed");
      expect(await listAll(t.api, "repos")).toHaveLength(2);
    } finally {
      await t.close();
    }
    await expect(startServer({ fixtures: { repos: [{ name: "x", tags: [{ name: "t", digest: "nope" }] }] } as never })).rejects.toThrow(/digest/);
    await expect(startServer({ fixtures: join(dir, "missing.json") })).rejects.toThrow(/missing\.json/);
  });
});

describe("the API's shapes (the platform's Repo, Tag, Advisory and AdvisoryEvent)", () => {
  const digest = `sha256:${"c".repeat(64)}`;
  const scan = { scanner: "grype", subpackage: "api", component: "openssl" };
  const fx = {
    repos: [
      {
        name: "api",
        catalogTier: "CATALOG_TIER_FIPS" as const,
        syncConfig: { source: "chainguard/api", google: "us-docker.pkg.dev/p/r" },
        tags: [{ name: "v1", digest, updateTime: "2025-03-01T10:00:00.500Z" }],
      },
      { name: "bare" },
    ],
    advisories: [
      {
        advisoryId: "CGA-aaaa-bbbb-cccc",
        legacyAdvisoryId: "CGA-legacy-1",
        createTime: "2024-12-31T00:00:00.000Z",
        author: "bot@example.com",
        artifactName: "api",
        severities: [{ type: "TYPE_CVSS_V4" as const, score: "CVSS:4.0/AV:N" }],
        events: [
          {
            createTime: "2025-01-01T00:00:00.000Z",
            author: "bot@example.com",
            reviewState: "REVIEW_STATE_APPROVED" as const,
            issue: "https://example.com/1",
            detection: { scanv1: scan },
          },
          {
            createTime: "2025-01-02T00:00:00.000Z",
            author: "me@example.com",
            detection: { nvdapi: { cpeSearched: "openssl", cpeFound: "cpe:2.3:a:openssl" } },
          },
          { createTime: "2025-01-03T00:00:00.000Z", author: "me@example.com", detection: { manual: {} } },
          {
            createTime: "2025-01-04T00:00:00.000Z",
            author: "me@example.com",
            falsePositiveDetermination: { type: "TYPE_COMPONENT_VULNERABILITY_MISMATCH", note: "n" },
          },
          {
            createTime: "2025-01-05T00:00:00.000Z",
            author: "me@example.com",
            reviewState: "REVIEW_STATE_PENDING" as const,
            patched: { patchedVersions: ["1.2-r1"], note: "" },
          },
          {
            createTime: "2025-01-06T00:00:00.000Z",
            author: "me@example.com",
            reviewer: "rev@example.com",
            reviewState: "REVIEW_STATE_REJECTED" as const,
            analysisNotPlanned: { note: "n" },
          },
        ],
      },
    ],
  };
  const t = useServer({ fixtures: fx });

  it("writes tags with updateTime, repos with sync_config and unset messages as null, as the gateway does", async () => {
    const repos = await listAll(t.api, "repos", { order_by: "name" });
    expect(repos.map((r) => r.name)).toEqual(["api", "bare"]);
    const [api, bare] = repos;
    expect(api).toMatchObject({
      catalogTier: "CATALOG_TIER_FIPS",
      sync_config: { source: "chainguard/api", google: "us-docker.pkg.dev/p/r", uniqueTags: false },
      customOverlay: null,
    });
    expect(bare).toMatchObject({ catalogTier: "CATALOG_TIER_UNSPECIFIED", sync_config: null, customOverlay: null, activeTags: [] });
    expect(resources.Repo.parse(bare).sync_config).toBeUndefined();
    const [tag] = await listAll(t.api, "tags", { "uidp.children_of": api.uid });
    expect(Object.keys(tag).sort()).toEqual(["bundles", "deprecated", "digest", "name", "uid", "updateTime"]);
    expect(tag.updateTime).toBe("2025-03-01T10:00:00.500Z");
    // A newer member passes through; a null read as unset.
    const read = resources.Tag.parse({ ...tag, updateTime: null, futureField: 1 });
    expect(read).toMatchObject({ futureField: 1 });
    expect(read).not.toHaveProperty("updateTime");
  });

  it("writes advisories with severities, events of every oneof member, and null optional fields", async () => {
    const [a] = await listAll(t.api, "advisories");
    expect(a).toMatchObject({
      legacyAdvisoryId: "CGA-legacy-1",
      deleteTime: null,
      author: "bot@example.com",
      severities: [{ type: "TYPE_CVSS_V4", score: "CVSS:4.0/AV:N" }],
    });
    expect(a.updateTime).toBe("2025-01-06T00:00:00.000Z");
    expect(a.events.map((e: { uid: string }) => e.uid.startsWith(`${a.uid}/`))).toEqual(Array(6).fill(true));
    expect(a.events[0]).toMatchObject({ issue: "https://example.com/1", detection: { scanv1: scan }, reviewState: "REVIEW_STATE_APPROVED" });
    expect(a.events[1]).toMatchObject({ issue: null, reviewState: "REVIEW_STATE_UNSPECIFIED" });
    // Only the member of the oneof that is set is written.
    expect(Object.keys(a.events[3]).filter((k) => EVENT_TYPES.includes(k as never))).toEqual(["falsePositiveDetermination"]);
    const read = resources.Advisory.parse(a);
    expect(read.events.map(eventTypeOf)).toEqual(["detection", "detection", "detection", "falsePositiveDetermination", "patched", "analysisNotPlanned"]);
    expect(read.events[2].detection?.manual).toEqual({});
    expect(read.deleteTime).toBeUndefined();
  });

  it("takes every filter of ListAdvisoriesRequest, under its proto or JSON name", async () => {
    const one = async (q: Query) => (await listAll(t.api, "advisories", q)).length;
    expect(await one({ legacy_advisory_ids: "CGA-legacy-1" })).toBe(1);
    expect(await one({ legacyAdvisoryIds: "other" })).toBe(0);
    expect(await one({ event_review_states: "REVIEW_STATE_PENDING" })).toBe(1);
    expect(await one({ eventReviewStates: "3" })).toBe(0);
    expect(await one({ event_authors: "me@example.com" })).toBe(1);
    expect(await one({ exclude_event_authors: "me@example.com" })).toBe(0);
    expect(await one({ event_reviewers: "rev@example.com" })).toBe(1);
    expect(await one({ event_types: ["EVENT_TYPE_FILTER_PATCHED", "EVENT_TYPE_FILTER_FIXED"] })).toBe(1);
    expect(await one({ eventTypes: "EVENT_TYPE_FILTER_FIXED" })).toBe(0);
    // The latest approved event is the first detection (the later ones are unreviewed, pending or rejected).
    expect(await one({ latest_event_type: "EVENT_TYPE_FILTER_DETECTION" })).toBe(1);
    expect(await one({ latestEventType: "4" })).toBe(0);
    expect(await one({ origin: "api", artifact_names: "other" })).toBe(1);
    expect(await one({ origin: "other" })).toBe(0);
    expect(await one({ artifact_types: "apk" })).toBe(0);
    expectFieldViolation(await t.api.get(path("advisories"), { event_types: "EVENT_TYPE_FILTER_NOPE" }), "event_types");
    expectFieldViolation(await t.api.get(path("advisories"), { eventReviewStates: "9" }), "eventReviewStates");
  });

  it("refuses a fixture event that sets no member of the oneof, or two", async () => {
    const bad = (event: object) => startServer({ fixtures: { advisories: [{ advisoryId: "CGA-x", events: [{ author: "a", ...event }] }] } as never });
    await expect(bad({})).rejects.toThrow(/exactly one of detection, fixed/);
    await expect(bad({ fixed: { fixedVersion: "1" }, patched: { patchedVersions: [] } })).rejects.toThrow(/not fixed and patched/);
    await expect(bad({ detection: { manual: {}, nvdapi: {} } })).rejects.toThrow(/a detection must hold exactly one/);
  });
});

describe("tag lists (ListTagsRequest)", () => {
  const hidden = (n: string) => /^sha256-|-20\d{6}$|-r[0-9]+$/.test(n);

  it("hide referrers, dated and epoch tags unless include_referrers, include_dates or include_epochs asks", async () => {
    const nginx = (await listAll(sample.api, "repos", { name: "nginx" }))[0];
    const names = async (q: Query = {}) => (await listAll(sample.api, "tags", { "uidp.children_of": nginx.uid, ...q })).map((x) => x.name as string);
    const shown = await names();
    expect(shown.filter(hidden)).toEqual([]);
    const added = async (q: Query) => (await names(q)).filter((n) => !shown.includes(n));
    expect(await added({ include_referrers: true })).toEqual([expect.stringMatching(/^sha256-[0-9a-f]{64}\.sig$/)]);
    expect(await added({ include_dates: "1" })).toEqual([expect.stringMatching(/^latest-20\d{6}$/)]);
    expect(await added({ includeEpochs: "True" })).toEqual([expect.stringMatching(/^\d+\.\d+\.\d+-r1$/)]);
    expect(await added({ include_referrers: true, includeDates: true, include_epochs: true })).toHaveLength(3);
    expect(await added({ include_referrers: false })).toEqual([]);
    // An exact name is hidden too unless its form is asked for.
    const dated = (await added({ include_dates: true }))[0];
    expect(await names({ name: dated })).toEqual([]);
    expect(await names({ name: dated, include_dates: true })).toEqual([dated]);
    expectFieldViolation(await sample.api.get(path("tags"), { include_dates: "yes" }), "include_dates");
    // The repo's maintained tags are the listed ones.
    expect(nginx.activeTags.filter(hidden)).toEqual([]);
  });

  it("hide them from anonymous listings too, with exact counts and page tokens bound to the flags", async () => {
    const anon = sample.api.as(null);
    const count = async (q: Query) => Number(ok(await anon.get(path("tags"), { page_size: 1, ...q })).totalCount);
    const publicRepos = (await listAll(anon, "repos")).length;
    const base = await count({});
    expect(await count({ include_referrers: true })).toBe(base + publicRepos);
    expect(await count({ include_referrers: true, include_dates: true, include_epochs: true })).toBe(base + 3 * publicRepos);
    const all = await listAll(anon, "tags", { include_referrers: true, page_size: 7 });
    expect(all.length).toBe(base + publicRepos);
    const token = ok(await anon.get(path("tags"), { page_size: 1 })).nextPageToken;
    expectFieldViolation(await anon.get(path("tags"), { page_token: token, include_referrers: true }), "page_token");
  });

  it("on v1 list every tag unless exclude_referrers, exclude_dates or exclude_epochs (v1's TagFilter), with lastUpdated", async () => {
    const nginx = (await listAll(sample.api, "repos", { name: "nginx" }))[0];
    const v1 = async (q: Query = {}) => ok(await sample.api.get("/registry/v1/tags", { "uidp.children_of": nginx.uid, ...q })).items;
    const v2 = await listAll(sample.api, "tags", { "uidp.children_of": nginx.uid });
    const every = await v1();
    expect(every.length).toBe(v2.length + 3);
    expect(every[0]).toHaveProperty("lastUpdated");
    expect(every[0]).not.toHaveProperty("updateTime");
    expect((await v1({ exclude_referrers: true, exclude_dates: true, excludeEpochs: true })).length).toBe(v2.length);
    expect((await v1({ include_referrers: false })).length).toBe(v2.length + 3);
  });
});
