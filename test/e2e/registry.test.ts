import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { formatReview, runReview, type DriftReport } from "../../cli";
import { runIrv } from "../support/cli";
import { ENGINE_TIMEOUT, createStack, loadSdk, pulumiEnv, recordSteps, type TestStack } from "../support/engine";
import { path as apiPath, useServer } from "../support/server";

// registry.Repo and registry.Tag through the real engine, from TypeScript: a synced repo and a tag
// created, read back with no drift (irv drift, refresh, a preview expecting no changes), the repo
// updated in place and the tag replaced (irv review names them), drift by hand reported, destroyed.

const irv = loadSdk();
const DIGEST = `sha256:${"3c".repeat(32)}`;
const MOVED = `sha256:${"4d".repeat(32)}`;

describe("registry.Repo and registry.Tag through the engine", { timeout: 3 * ENGINE_TIMEOUT }, () => {
  const ctx = useServer({ fixtures: { groups: [{ path: "catalog" }], repos: [{ name: "nginx", group: "catalog", readme: "# nginx" }] } });
  const stacks: TestStack[] = [];
  afterAll(async () => {
    for (const t of stacks) await t.dispose();
  });

  it("creates a repo and a tag, reads them back with no drift, updates the repo in place and replaces the tag, reports drift by hand, destroys", async () => {
    const org = ctx.server.organization;
    const source = (await ctx.api.get(apiPath("repos"), { name: "nginx" })).body.repos[0].uid as string;
    const state = { description: "Our app", digest: DIGEST };
    const t = await createStack({
      stackName: "registry",
      server: ctx.server,
      program: async () => {
        const team = new irv.iam.Group("team", { parentUid: org, name: "images" });
        const app = new irv.registry.Repo("app", {
          parentUid: team.uid,
          name: "app",
          description: state.description,
          readme: "# App",
          catalogTier: "APPLICATION",
          bundles: ["application"],
          aliases: ["acme-app"],
          activeTags: ["stable"],
          syncConfig: { source, amazon: "123456789012.dkr.ecr.us-east-1.amazonaws.com/app" },
        });
        const stable = new irv.registry.Tag("stable", { repoUid: app.uid, name: "stable", digest: state.digest });
        const nginx = irv.registry.getRepoOutput({ uid: source });
        return { team: team.uid, app: app.uid, tag: stable.uid, readme: nginx.readme, syncedFrom: app.syncConfig.apply((s) => s?.source) };
      },
    });
    stacks.push(t);
    const up = await t.stack.up();
    const app = up.outputs.app.value as string;
    const tag = up.outputs.tag.value as string;
    expect(up.outputs.readme.value).toBe("# nginx");
    expect(up.outputs.syncedFrom.value).toBe(source);
    const live = (await ctx.api.get(apiPath("repos", app))).body;
    expect(live).toMatchObject({
      name: "app",
      catalogTier: "CATALOG_TIER_APPLICATION",
      bundles: ["application"],
      activeTags: ["stable"],
      sync_config: { source },
    });
    expect((await ctx.api.get(apiPath("tags", tag))).body).toMatchObject({ name: "stable", digest: DIGEST });
    // The README is written apart from the repo (UpdateRepoReadme).
    expect((await ctx.api.get(`${apiPath("repos", app)}/readme`)).body.content).toBe("# App");

    // Read back: no drift, refresh changes nothing, and a preview has no changes.
    const env = pulumiEnv(path.join(path.dirname(t.workDir), "home"));
    const clean = await runIrv(["drift", "--stack", "registry", "--cwd", t.workDir, "--format", "json"], env);
    expect(clean.code, clean.stdout + clean.stderr).toBe(0);
    const refreshed = await t.stack.refresh();
    expect(refreshed.summary.resourceChanges).not.toHaveProperty("update");
    const quiet = recordSteps();
    await t.stack.preview({ onEvent: quiet.onEvent });
    expect(quiet.ops("app")).toEqual(["same"]);
    expect(quiet.ops("stable")).toEqual(["same"]);

    // A new description updates the repo in place; a new digest replaces the tag, deleting the old first.
    state.description = "Our app, rebuilt nightly";
    state.digest = MOVED;
    const planned = recordSteps();
    await t.stack.preview({ onEvent: planned.onEvent });
    expect(planned.ops("app")).toEqual(["update"]);
    expect(planned.ops("stable")).toEqual(["delete-replaced", "replace", "create-replacement"]);
    const review = await runReview({ stack: t.stack });
    expect(review.changes.find((c) => c.name === "stable")).toMatchObject({ kind: "registry.Tag", action: "replace", replaceBecause: ["digest"] });
    expect(formatReview(review, "markdown")).toContain("(registry.Repo)");
    await t.stack.up();
    expect((await ctx.api.get(apiPath("repos", app))).body.description).toBe("Our app, rebuilt nightly");
    const tags = (await ctx.api.get(apiPath("tags"), { "uidp.children_of": app })).body.tags as { name: string; digest: string }[];
    expect(tags.map((x) => [x.name, x.digest])).toEqual([["stable", MOVED]]);

    // Changed by hand: irv drift reports the repo's description and README by its display name.
    expect((await ctx.api.patch(apiPath("repos", app), { description: "by hand" }, { updateMask: "description" })).status).toBe(200);
    expect((await ctx.api.patch(`${apiPath("repos", app)}/readme`, { content: "# by hand" })).status).toBe(200);
    const drift = await runIrv(["drift", "--stack", "registry", "--cwd", t.workDir, "--format", "json"], env);
    expect(drift.code, drift.stderr).toBe(2);
    const report = JSON.parse(drift.stdout) as DriftReport;
    const drifted = report.resources.find((r) => r.name === "app");
    expect(drifted).toMatchObject({ kind: "registry.Repo", status: "changed", uid: app });
    expect(drifted?.fields.map((f) => [f.path, f.recorded, f.live])).toEqual([
      ["description", "Our app, rebuilt nightly", "by hand"],
      ["readme", "# App", "# by hand"],
    ]);

    await t.stack.destroy();
    expect((await ctx.api.get(apiPath("repos", app))).status).toBe(404);
  });
});
