/**
 * The registry and advisory functions read the platform's Repo, Tag and Advisory as the gateway
 * writes them (nulls for unset messages, `sync_config` by its JSON name, events' oneofs), from a
 * live irv-server loaded with fixtures that set what the sample leaves unset.
 */
import { describe, expect, it } from "vitest";
import { clientFor } from "../../client/session";
import { getAdvisories, getAdvisory } from "../../provider/functions/vulnerabilities";
import { getRepos, getTags, getVersions } from "../../provider/functions/registry";
import { useServer } from "../support/server";

const digest = `sha256:${"d".repeat(64)}`;
const ctx = useServer({
  fixtures: {
    packageVersions: {
      redis: {
        latestVersion: "8.2.3",
        gracePeriodMonths: 2,
        versions: [{ version: "8.2", latestVersion: "8.2.3", exists: true }],
        eolVersions: [{ version: "7.0", eolDate: "2025-07-31", eolBroken: true }],
      },
    },
    repos: [
      {
        name: "synced",
        visibility: "public",
        syncConfig: { source: "chainguard/nginx", amazon: "123456789012.dkr.ecr.us-east-1.amazonaws.com/nginx" },
        tags: [{ name: "1.2.3-r4", digest }],
      },
      {
        name: "plain",
        visibility: "public",
        tags: [
          { name: "latest", digest },
          { name: `sha256-${"d".repeat(64)}.att`, digest },
        ],
      },
    ],
    advisories: [
      {
        advisoryId: "CGA-func-tion-test",
        severities: [{ type: "TYPE_CVSS_V2", score: "AV:N/AC:L/Au:N/C:P/I:P/A:P" }],
        events: [
          { author: "a", detection: { nvdapi: { cpeSearched: "nginx", cpeFound: "cpe:2.3:a:f5:nginx" } } },
          { author: "a", reviewState: "REVIEW_STATE_APPROVED", issue: "https://example.com/9", patched: { patchedVersions: ["1.2.3-r5"], note: "backport" } },
        ],
      },
      {
        advisoryId: "CGA-othe-rrrr-test",
        artifactName: "nginx-dev",
        artifactType: "image",
        artifactArchitecture: "aarch64",
        componentType: "go-module",
        componentLocation: "/usr/bin/nginx",
        legacyAdvisoryId: "CGA-legacy-9",
        events: [{ author: "b", reviewer: "r", reviewState: "REVIEW_STATE_APPROVED", detection: { manual: {} } }],
      },
    ],
  },
});
const clients = () => clientFor({ apiUrl: ctx.server.url, token: ctx.server.token });

describe("registry and advisory functions on the API's shapes", () => {
  it("read a repo's sync_config as syncConfig, and an unset one (null on the wire) as absent", async () => {
    const { repos } = await getRepos(clients, { orderBy: "name" });
    const [plain, synced] = repos;
    expect(synced.syncConfig).toEqual({
      source: "chainguard/nginx",
      uniqueTags: false,
      google: "",
      amazon: "123456789012.dkr.ecr.us-east-1.amazonaws.com/nginx",
      azure: "",
      apkoOverlay: "",
      gracePeriod: false,
    });
    expect(plain).not.toHaveProperty("syncConfig");
    expect(plain).not.toHaveProperty("customOverlay");
    expect(plain.catalogTier).toBe("CATALOG_TIER_UNSPECIFIED");
  });

  it("getVersions reads a package's streams with unset fields as their zero, and refuses a bad package naming it before any request", async () => {
    const got = await getVersions(clients, { package: "redis" });
    expect(got).toEqual({
      package: "redis",
      versions: {
        latestVersion: "8.2.3",
        lastUpdatedTimestamp: "",
        gracePeriodMonths: 2,
        versions: [{ version: "8.2", latestVersion: "8.2.3", releaseDate: "", eolDate: "", exists: true, fips: false, lts: false, eolBroken: false }],
        eolVersions: [{ version: "7.0", latestVersion: "", releaseDate: "", eolDate: "2025-07-31", exists: false, fips: false, lts: false, eolBroken: true }],
      },
    });
    const before = ctx.server.requests.length;
    await expect(getVersions(clients, { package: "" })).rejects.toThrow(/getVersions: package: .*>=1 characters/);
    await expect(getVersions(clients, { package: "x".repeat(257) })).rejects.toThrow(/getVersions: package: .*<=256 characters/);
    await expect(getVersions(clients, {} as never)).rejects.toThrow(/getVersions: package: /);
    expect(ctx.server.requests.length).toBe(before);
    await expect(getVersions(clients, { package: "valkey" })).rejects.toThrow(/"valkey" does not exist/);
  });

  it("read tags with updateTime, and list the hidden forms only when asked", async () => {
    const { repos } = await getRepos(clients, { name: "synced" });
    expect((await getTags(clients, { repoUid: repos[0].uid })).tags).toEqual([]);
    const epochs = await getTags(clients, { repoUid: repos[0].uid, includeEpochs: true });
    expect(epochs.tags).toEqual([{ uid: expect.any(String), name: "1.2.3-r4", digest, updateTime: expect.any(String), deprecated: false, bundles: [] }]);
    const all = await getTags(clients, { includeReferrers: true, includeEpochs: true });
    expect(all.tags.map((t) => t.name).sort()).toEqual(["1.2.3-r4", "latest", `sha256-${"d".repeat(64)}.att`]);
  });

  it("read an advisory's severities and events, each with its one member", async () => {
    const a = await getAdvisory(clients, { advisoryId: "CGA-func-tion-test" });
    expect(a.severities).toEqual([{ type: "TYPE_CVSS_V2", score: "AV:N/AC:L/Au:N/C:P/I:P/A:P" }]);
    expect(a.events[0]).toMatchObject({
      author: "a",
      reviewState: "REVIEW_STATE_UNSPECIFIED",
      detection: { nvdapi: { cpeSearched: "nginx", cpeFound: "cpe:2.3:a:f5:nginx" } },
    });
    expect(a.events[0]).not.toHaveProperty("issue");
    expect(a.events[1]).toMatchObject({ issue: "https://example.com/9", patched: { patchedVersions: ["1.2.3-r5"], note: "backport" } });
    expect(Object.keys(a.events[1]).filter((k) => ["detection", "patched", "fixed"].includes(k))).toEqual(["patched"]);
    expect(a).not.toHaveProperty("legacyAdvisoryId");
    expect(a).not.toHaveProperty("deleteTime");
  });

  it("filter advisories by every filter of the API's List, sent under the filters' JSON names", async () => {
    const ids = async (args: Parameters<typeof getAdvisories>[1]) => (await getAdvisories(clients, args)).advisories.map((a) => a.advisoryId);
    const other = ["CGA-othe-rrrr-test"];
    expect(await ids({ legacyAdvisoryIds: ["CGA-legacy-9"] })).toEqual(other);
    expect(await ids({ artifactTypes: ["image"] })).toEqual(other);
    expect(await ids({ artifactArchitectures: ["aarch64"] })).toEqual(other);
    expect(await ids({ componentTypes: ["go-module"] })).toEqual(other);
    expect(await ids({ componentLocations: ["/usr/bin/nginx"] })).toEqual(other);
    expect(await ids({ origin: "nginx-dev", artifactNames: ["elsewhere"] })).toEqual(other);
    expect(await ids({ eventAuthors: ["b"] })).toEqual(other);
    expect(await ids({ excludeEventAuthors: ["a"] })).toEqual(other);
    expect(await ids({ eventReviewers: ["r"] })).toEqual(other);
    expect(await ids({ eventReviewStates: ["REVIEW_STATE_UNSPECIFIED"] })).toEqual(["CGA-func-tion-test"]);
    expect(await ids({ eventTypes: ["EVENT_TYPE_FILTER_PATCHED"] })).toEqual(["CGA-func-tion-test"]);
    expect(await ids({ latestEventType: "EVENT_TYPE_FILTER_DETECTION" })).toEqual(other);
    expect(await ids({ latestEventType: "EVENT_TYPE_FILTER_PATCHED" })).toEqual(["CGA-func-tion-test"]);
    const sent = ctx.server.requests.filter((r) => r.path.endsWith("/advisories")).map((r) => Object.keys(r.query));
    expect(sent.flat()).toContain("latestEventType");
  });
});
