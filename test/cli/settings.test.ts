import { writeFileSync } from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DriftReport, ReviewReport } from "../../cli";
import { sampleFixtures } from "../../server";
import { ENGINE_TIMEOUT, pulumiEnv } from "../support/engine";
import { createFolderProject, type FolderProject } from "../support/folder";
import { startTestServer, type TestServer } from "../support/server";
import { runIrv } from "../support/cli";

// A dynamic provider's settings are the ones recorded at the last `pulumi up` (the default
// pulumi-nodejs provider's inputs), and a refresh that does not run the program uses those. After
// `pulumi config set irv:apiUrl <another API>`, `irv drift` and `irv review --refresh` must ask
// the API the config names now, not the old one; a plain `pulumi refresh` and `pulumi destroy`
// still use the old one, and `pulumi refresh --run-program` the new. A folder project, as a user
// runs them.

const PROGRAM = `const pulumi = require("@pulumi/pulumi");
const irv = require("pulumi-irv");
new irv.iam.Group("team", { parentUid: new pulumi.Config().require("organization"), name: "team" });
`;

describe("irv drift and review after the irv:* settings change", { timeout: ENGINE_TIMEOUT }, () => {
  let first: TestServer;
  let second: TestServer;
  let p: FolderProject;
  let env: Record<string, string>;
  let uid: string;

  beforeAll(async () => {
    first = await startTestServer();
    // The same organization served by another irv-server, where the group was never created.
    second = await startTestServer({ fixtures: { ...sampleFixtures(), organizationUid: first.server.organization } });
    // The program sits in the project folder, whose node_modules resolves pulumi-irv.
    p = await createFolderProject({ main: "team.js", server: first.server, config: { organization: first.server.organization } });
    writeFileSync(path.join(p.dir, "team.js"), PROGRAM);
    env = pulumiEnv(path.join(path.dirname(p.dir), "home"));
    await p.pulumi("up", "--yes", "--skip-preview");
    uid = JSON.parse(await p.pulumi("stack", "export")).deployment.resources.find((r: any) => String(r.urn).endsWith("::team")).id;
    await p.pulumi("config", "set", "irv:apiUrl", second.server.url);
    await p.pulumi("config", "set", "irv:authUrl", second.server.authUrl);
    await p.pulumi("config", "set", "--secret", "irv:token", second.server.token);
  }, ENGINE_TIMEOUT);
  afterAll(async () => {
    p?.dispose();
    await first?.close();
    await second?.close();
  });

  const reads = (s: TestServer) => s.server.requests.filter((r) => r.method === "GET" && r.path.includes(uid.split("/").pop()!)).length;

  it("irv drift checks the API the config names now, and says the settings changed", async () => {
    const before = reads(first);
    const run = await runIrv(["drift", "--stack", "dev", "--cwd", p.dir, "--format", "json"], env);
    expect(run.stderr).toBe("");
    const report = JSON.parse(run.stdout) as DriftReport;
    // The group lives on the first server only: on the second, it is gone.
    expect(report.resources).toMatchObject([{ name: "team", status: "deleted", uid }]);
    expect(report.settingsChanged).toEqual(["irv:apiUrl", "irv:authUrl", "irv:token"]);
    // A default provider's settings are the stack's config: irv read with the current ones itself.
    expect(report.readBy).toEqual({ engine: false });
    expect(run.code).toBe(2);
    expect(reads(first)).toBe(before);
    expect(reads(second)).toBeGreaterThan(0);
    expect(run.stdout).not.toContain(second.server.token);

    const text = await runIrv(["drift", "--stack", "dev", "--cwd", p.dir], env);
    expect(text.stdout).toContain("Checked with the current irv:apiUrl, irv:authUrl, irv:token (changed since the last pulumi up");
  });

  it("irv review --refresh refreshes from the API the config names now", async () => {
    const before = reads(second);
    const firstBefore = reads(first);
    const run = await runIrv(["review", "--refresh", "--format", "json", "--stack", "dev", "--cwd", p.dir], env);
    expect(run.stderr).toBe("");
    const review = JSON.parse(run.stdout) as ReviewReport;
    expect(reads(second)).toBeGreaterThan(before);
    expect(reads(first)).toBe(firstBefore);
    // Gone from the API the stack now points at: the program's group is created there.
    expect(review.changes).toMatchObject([{ action: "create", name: "team" }]);
  });

  // docs/behaviour.md, "What the state holds of your settings"; README, Settings.
  it("pulumi refresh and destroy use the settings of the last up, refresh --run-program the current ones", async () => {
    const group = `/iam/v2beta1/groups/${uid}`;
    const at = (s: TestServer) => s.server.requests.length;
    const since = (s: TestServer, from: number) => s.server.requests.slice(from).filter((r) => r.path.includes(uid.split("/").pop()!));
    const [first0, second0] = [at(first), at(second)];
    await p.pulumi("refresh", "--yes", "--skip-preview");
    // Read where the last up recorded it (the group is there: no change), not where the config points now.
    expect(since(first, first0).map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([`GET ${group} 200`]);
    expect(since(second, second0)).toEqual([]);
    const [first1, second1] = [at(first), at(second)];
    const ran = await p.pulumi("refresh", "--run-program", "--preview-only", "--json");
    // The program ran with the current config: the group was read on the second server, where it is gone.
    expect(since(second, second1).map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([`GET ${group} 404`]);
    expect(since(first, first1)).toEqual([]);
    const steps = (JSON.parse(ran).steps as { op: string; urn: string }[]).map((s) => `${s.op} ${s.urn.split("::").pop()}`);
    expect(steps).toEqual(["same irv-folder-dev", "delete team"]);
    const [first2, second2] = [at(first), at(second)];
    await p.pulumi("destroy", "--yes", "--skip-preview");
    expect(since(first, first2).map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([`DELETE ${group} 200`]);
    expect(since(second, second2)).toEqual([]);
    expect((await first.api.get(group)).status).toBe(404);
  });
});
