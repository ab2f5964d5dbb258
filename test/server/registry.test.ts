/** Repos, tags and advisories: the built-in sample, fixtures from an object and a file, filters. */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { resources } from "../../api";
import { startServer } from "../../server";
import { listAll, path, startTestServer, useServer } from "../support/server";
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
    expect(a.severities[0].level).toMatch(/LOW|MEDIUM|HIGH|CRITICAL/);
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
    expect((await listAll(sample.api, "tags", { updatedSince: "2100-01-01T00:00:00Z" }))).toEqual([]);
    expectFieldViolation(await sample.api.get(path("tags"), { updatedSince: "yesterday" }), "updatedSince");

    const all = await listAll(sample.api, "advisories");
    const a = all[7];
    expect((await listAll(sample.api, "advisories", { advisoryIds: a.advisoryId })).map((x) => x.uid)).toEqual([a.uid]);
    const two = await listAll(sample.api, "advisories", { advisoryIds: `${a.advisoryId},${all[8].advisoryId}` });
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

  it("is read-only", async () => {
    const res = await sample.api.post(path("repos", sample.server.organization), { name: "x" });
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 405, code: 12 });
    expect((await sample.api.del(path("advisories", `${sample.server.organization}/0123456789abcdef`))).status).toBe(405);
    expectError(await sample.api.get(path("repos", `${sample.server.organization}/0123456789abcdef`)), "NOT_FOUND");
  });
});

describe("fixtures", () => {
  const fx = {
    organizationName: "globex",
    organizationUid: "1".repeat(40),
    groups: [{ path: "eng/platform", description: "platform team" }],
    repos: [
      { name: "api", group: "eng/platform", catalogTier: "FREE", tags: [{ name: "v1", digest: `sha256:${"a".repeat(64)}` }] },
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
