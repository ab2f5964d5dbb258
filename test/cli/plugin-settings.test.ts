import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DriftReport, ReviewReport } from "../../cli";
import { sampleFixtures } from "../../server";
import { ENGINE_TIMEOUT, pulumiEnv } from "../support/engine";
import { startTestServer, type TestServer } from "../support/server";
import { runIrv } from "../support/cli";
import { yamlProject, type YamlProject } from "../support/yaml-project";

// A plugin stack (here YAML; the TypeScript plugin SDK and Go record the same providers) keeps its
// settings in the `irv` providers' state: the default provider's, recorded from the stack's irv:*
// config at the last `pulumi up`, and each explicit provider's, from the program. After the API
// moves, `irv drift` and `irv review --refresh` must read the API the stack names now. Before the
// fix they only looked at the dynamic classes' provider and silently checked the old API.

const RESOURCES = `  team:
    type: irv:iam:Group
    properties: { parentUid: "\${organization}", name: team }
  ops:
    type: irv:iam:Group
    properties: { parentUid: "\${organization}", name: ops }
  other:
    type: pulumi:providers:irv
    properties: { apiUrl: "\${otherUrl}", token: "\${otherToken}" }
  far:
    type: irv:iam:Group
    properties: { parentUid: "\${organization}", name: far }
    options: { provider: "\${other}" }
`;
const CONFIG = `  organization:
    type: string
  otherUrl:
    type: string
  otherToken:
    type: string
    secret: true
`;

describe("irv drift and review on a plugin stack whose irv settings change", { timeout: ENGINE_TIMEOUT }, () => {
  let first: TestServer;
  let second: TestServer;
  let p: YamlProject;
  let env: Record<string, string>;
  const uids: Record<string, string> = {};

  beforeAll(async () => {
    first = await startTestServer();
    // The same organization served by another irv-server, where nothing was ever created.
    second = await startTestServer({ fixtures: { ...sampleFixtures(), organizationUid: first.server.organization } });
    p = await yamlProject("plugin-settings", first.server);
    await p.pulumi("config", "set", "organization", first.server.organization);
    await p.pulumi("config", "set", "otherUrl", first.server.url);
    await p.pulumi("config", "set", "--secret", "otherToken", first.server.token);
    p.write(RESOURCES, CONFIG);
    await p.pulumi("up", "--yes", "--skip-preview");
    for (const r of await p.resources()) if (r.type === "irv:iam:Group") uids[r.urn.split("::").pop()!] = r.id!;
    env = { IRV_API_URL: "", IRV_TOKEN: "", ...pulumiEnv(`${p.base}/home`) };
  }, ENGINE_TIMEOUT);
  afterAll(async () => {
    p?.dispose();
    await first?.close();
    await second?.close();
  });

  const reads = (s: TestServer, name: string) => s.server.requests.filter((r) => r.method === "GET" && r.path.endsWith(uids[name])).length;
  const irv = (...args: string[]) => runIrv([...args, "--stack", "dev", "--cwd", p.dir], env);

  it("irv review --refresh counts every unchanged resource while nothing moved", async () => {
    const run = await irv("review", "--refresh", "--format", "json");
    expect(run.stderr).toBe("");
    const review = JSON.parse(run.stdout) as ReviewReport;
    expect(review.changes).toEqual([]);
    expect(review.unchanged).toBe(3);
  });

  it("irv drift reads an explicit provider's API as the program names it now", async () => {
    await p.pulumi("config", "set", "otherUrl", second.server.url);
    await p.pulumi("config", "set", "--secret", "otherToken", second.server.token);
    const before = reads(first, "far");
    const run = await irv("drift", "--format", "json");
    const report = JSON.parse(run.stdout) as DriftReport;
    // `far` lives on the first server only: through the provider the program names now, it is gone.
    // One label per kind, as on a stack of the dynamic classes.
    expect(report.resources).toMatchObject([{ name: "far", kind: "iam.Group", status: "deleted", uid: uids.far }]);
    // Only the program knows an explicit provider's settings: the engine's refresh ran it.
    expect(report.readBy).toMatchObject({ engine: true, why: expect.stringContaining("has an explicit provider") });
    expect(run.code).toBe(2);
    expect(reads(first, "far")).toBe(before);
    expect(reads(second, "far")).toBeGreaterThan(0);
    expect(run.stdout).not.toContain(second.server.token);
  });

  it("irv drift and review --refresh read the default provider's API as the stack config names it now", async () => {
    await p.pulumi("config", "set", "irv:apiUrl", second.server.url);
    await p.pulumi("config", "set", "--secret", "irv:token", second.server.token);
    const before = reads(first, "team");
    const run = await irv("drift", "--format", "json");
    const report = JSON.parse(run.stdout) as DriftReport;
    expect(report.settingsChanged).toEqual(["irv:apiUrl", "irv:token"]);
    expect(report.resources.map((r) => [r.name, r.status]).sort()).toEqual([
      ["far", "deleted"],
      ["ops", "deleted"],
      ["team", "deleted"],
    ]);
    expect(run.code).toBe(2);
    expect(reads(first, "team")).toBe(before);
    expect(reads(second, "team")).toBeGreaterThan(0);
    expect(run.stdout).not.toContain(second.server.token);

    const review = JSON.parse((await irv("review", "--refresh", "--format", "json")).stdout) as ReviewReport;
    // Gone from the API the stack now points at: the program's groups are created there.
    expect(review.changes.map((c) => [c.name, c.action]).sort()).toEqual([
      ["far", "create"],
      ["ops", "create"],
      ["team", "create"],
    ]);
    expect(reads(first, "team")).toBe(before);
  });
});
