/**
 * Data sources against a live irv-server with its built-in sample fixtures (36 repos with tags,
 * 300 advisories), called from a program process (mocks stand in for the engine only).
 */
import * as pulumi from "@pulumi/pulumi";
import { beforeAll, describe, expect, it } from "vitest";
import { useServer, path } from "../support/server";

const ctx = useServer();
let irv: typeof import("../../dynamic");

beforeAll(async () => {
  pulumi.runtime.setAllConfig({ "irv:apiUrl": ctx.server.url, "irv:token": ctx.server.token }, ["irv:token"]);
  await pulumi.runtime.setMocks({ newResource: (a) => ({ id: a.name, state: a.inputs }), call: () => ({}) }, "p", "s", false);
  irv = await import("../../dynamic");
});

const resolve = <T>(o: pulumi.Output<T>) => new Promise<T>((r) => o.apply((v) => r(v)));
const listCalls = (p: string) => ctx.server.requests.filter((r) => r.method === "GET" && r.path === p);

describe("registry data sources", () => {
  it("lists repos in order, and finds one by name", async () => {
    const { repos } = await irv.registry.getRepos({ descendantsOf: ctx.server.organization, orderBy: "name desc" });
    expect(repos).toHaveLength(36);
    const names = repos.map((r) => r.name);
    expect(names).toEqual([...names].sort().reverse());
    const nginx = await irv.registry.getRepo({ name: "nginx" });
    expect(nginx).toMatchObject({ name: "nginx", bundles: ["application"] });
    expect((await resolve(irv.registry.getRepoOutput({ uid: nginx.uid }))).name).toBe("nginx");
    // A lookup that finds nothing names the function and its arguments, as the README says (issue 39).
    await expect(irv.registry.getRepo({ name: "no-such-image" })).rejects.toThrow('registry.getRepo(name: "no-such-image"): no repo named "no-such-image"');
    await expect(irv.iam.getRole({ name: "onwer" })).rejects.toThrow('iam.getRole(name: "onwer"): no role named "onwer"');
    await expect(irv.iam.getGroup({ name: "nowhere", parentUid: ctx.server.organization })).rejects.toThrow(/^iam\.getGroup\(name: "nowhere", parentUid: "[0-9a-f]{40}"\): no group named "nowhere"/);
  });

  it("lists a repo's tags with filters", async () => {
    const nginx = await irv.registry.getRepo({ name: "nginx" });
    const { tags } = await irv.registry.getTags({ repoUid: nginx.uid });
    expect(tags.map((t) => t.name)).toContain("latest");
    expect(tags.every((t) => t.uid.startsWith(`${nginx.uid}/`))).toBe(true);
    const latest = await irv.registry.getTags({ repoUid: nginx.uid, name: "latest" });
    expect(latest.tags.map((t) => t.name)).toEqual(["latest"]);
    const byDigest = await irv.registry.getTags({ repoUid: nginx.uid, digest: latest.tags[0].digest });
    expect(byDigest.tags.map((t) => t.name)).toContain("latest");
    // Tags read in the API's shape: `updateTime`, no `lastUpdated`.
    expect(Object.keys(latest.tags[0]).sort()).toEqual(["bundles", "deprecated", "digest", "name", "uid", "updateTime"]);
    // Referrers, dated and epoch tags only when asked for, as the API lists them.
    const every = await irv.registry.getTags({ repoUid: nginx.uid, includeReferrers: true, includeDates: true, includeEpochs: true });
    const extra = every.tags.map((t) => t.name).filter((n) => !tags.some((t) => t.name === n));
    expect(extra.sort()).toEqual([expect.stringMatching(/-r1$/), expect.stringMatching(/^latest-20\d{6}$/), expect.stringMatching(/^sha256-[0-9a-f]{64}\.sig$/)]);
    const referrers = await irv.registry.getTags({ repoUid: nginx.uid, includeReferrers: true });
    expect(referrers.tags.length).toBe(tags.length + 1);
  });

  it("reads a package's versions, as a promise and as an output; a missing package names the function and the field", async () => {
    const node = await irv.registry.getVersions({ package: "nodejs" });
    expect(node.package).toBe("nodejs");
    expect(node.versions.latestVersion).toBe("24.11.1");
    expect(node.versions.eolVersions.map((v) => [v.version, v.eolDate])).toEqual([["18", "2025-04-30"], ["16", "2023-09-11"]]);
    expect((await resolve(irv.registry.getVersionsOutput({ package: "postgres" }))).versions.gracePeriodMonths).toBe(3);
    await expect(irv.registry.getVersions({ package: "" })).rejects.toThrow(/^registry\.getVersions\(package: ""\): getVersions: package: /);
    await expect(irv.registry.getVersions({ package: "cobol" })).rejects.toThrow(/^registry\.getVersions\(package: "cobol"\): .*"cobol" does not exist/);
  });
});

describe("vulnerability data sources", () => {
  it("follows nextPageToken at page_size 200 across all advisories", async () => {
    const before = listCalls(path("advisories")).length;
    const { advisories } = await irv.vulnerabilities.getAdvisories();
    expect(advisories).toHaveLength(300);
    const calls = listCalls(path("advisories")).slice(before);
    expect(calls).toHaveLength(2);
    expect(calls[0].query.page_size).toBe("200");
    expect(new Set(advisories.map((a) => a.uid)).size).toBe(300);
  });

  it("filters by alias, component and query, and gets one by id", async () => {
    const { advisories } = await irv.vulnerabilities.getAdvisories();
    const sample = advisories[7];
    const byAlias = await irv.vulnerabilities.getAdvisories({ aliases: [sample.aliases[0]] });
    expect(byAlias.advisories.map((a) => a.uid)).toContain(sample.uid);
    const openssl = await irv.vulnerabilities.getAdvisories({ componentNames: ["openssl"], orderBy: "create_time desc" });
    expect(openssl.advisories.length).toBeGreaterThan(0);
    expect(openssl.advisories.every((a) => a.componentName === "openssl")).toBe(true);
    const query = await irv.vulnerabilities.getAdvisories({ query: "OPENSSL" });
    expect(query.advisories.length).toBeGreaterThanOrEqual(openssl.advisories.length);
    expect(await irv.vulnerabilities.getAdvisory({ advisoryId: sample.advisoryId })).toEqual(sample);
    expect((await resolve(irv.vulnerabilities.getAdvisoryOutput({ uid: sample.uid }))).advisoryId).toBe(sample.advisoryId);
  });

  it("reads severities and events in the API's shape", async () => {
    const { advisories } = await irv.vulnerabilities.getAdvisories();
    const a = advisories.find((x) => x.events.length === 2 && x.events[1].fixed)!;
    expect(a.severities).toEqual([{ type: "TYPE_CVSS_V3", score: expect.stringMatching(/^CVSS:3\.1\//) }]);
    expect(a.events[0]).toMatchObject({ reviewState: "REVIEW_STATE_APPROVED", detection: { scanv1: { scanner: "grype", component: a.componentName } } });
    expect(a.events[1].fixed?.fixedVersion).toMatch(/-r\d+$/);
    // Unset members and null optional fields read as absent.
    expect(a.events[0]).not.toHaveProperty("fixed");
    expect(a).not.toHaveProperty("deleteTime");
    expect(a.events[0]).not.toHaveProperty("issue");
  });
});

describe("IAM data sources", () => {
  it("finds built-in roles by name", async () => {
    const viewer = await irv.iam.getRole({ name: "viewer" });
    expect(viewer).toMatchObject({ name: "viewer", builtin: true, groupUid: undefined });
    expect((await resolve(irv.iam.getRoleOutput({ name: "owner" }))).builtin).toBe(true);
    const { roles } = await irv.iam.getRoles({ builtin: true, orderBy: "name" });
    expect(roles.map((r) => r.name)).toEqual(["editor", "owner", "registry.pull", "registry.push", "viewer"]);
  });

  it("finds a custom role in its group, and prefers the built-in for a shared name", async () => {
    const org = ctx.server.organization;
    const group = (await ctx.api.post(path("groups", org), { name: "roles-home" })).body.uid;
    const custom = (await ctx.api.post(path("roles", group), { name: "viewer", capabilities: ["CAP_IAM_GROUPS_LIST"] })).body;
    expect((await irv.iam.getRole({ name: "viewer", groupUid: group })).uid).toBe(custom.uid);
    expect((await irv.iam.getRole({ name: "viewer" })).builtin).toBe(true);
    expect((await irv.iam.getRoles({ groupUid: group })).roles.map((r) => r.uid)).toEqual([custom.uid]);
  });

  it("finds a group by name under a parent, with clear errors for zero or several", async () => {
    const org = ctx.server.organization;
    const a = (await ctx.api.post(path("groups", org), { name: "team-a" })).body.uid;
    const b = (await ctx.api.post(path("groups", org), { name: "team-b" })).body.uid;
    const inA = (await ctx.api.post(path("groups", a), { name: "platform" })).body.uid;
    await ctx.api.post(path("groups", b), { name: "platform" });
    expect((await irv.iam.getGroup({ name: "platform", parentUid: a })).uid).toBe(inA);
    expect((await irv.iam.getGroup({ uid: inA })).parentUid).toBe(a);
    await expect(irv.iam.getGroup({ name: "platform" })).rejects.toThrow(/^iam\.getGroup\(name: "platform"\): 2 groups named "platform": .*; narrow the query$/);
    await expect(irv.iam.getGroup({ name: "nobody", parentUid: a })).rejects.toThrow(`no group named "nobody" under ${a}`);
    expect((await resolve(irv.iam.getGroupOutput({ name: "team-a", parentUid: org }))).uid).toBe(a);
  });

  it("finds an identity by issuer and subject", async () => {
    const org = ctx.server.organization;
    const claimMatch = { issuer: "https://token.actions.githubusercontent.com", subject: "repo:acme/ds:ref:refs/heads/main" };
    const made = (await ctx.api.post(path("identities", org), { name: "ds-ci", claimMatch })).body;
    const found = await irv.iam.getIdentity({ issuer: claimMatch.issuer, subject: claimMatch.subject });
    expect(found).toMatchObject({ uid: made.uid, groupUid: org, claimMatch });
    await expect(irv.iam.getIdentity({ issuer: claimMatch.issuer, subject: "repo:nobody" })).rejects.toThrow(/^iam\.getIdentity\(issuer: "https:\/\/[^"]+", subject: "repo:nobody"\): no identity for issuer .* and subject repo:nobody: nobody signed in with them \(with allowMissing: true/);
    expect(await irv.iam.getIdentity({ issuer: claimMatch.issuer, subject: "repo:nobody", allowMissing: true })).toEqual({ found: false });
  });
});
