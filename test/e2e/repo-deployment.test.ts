import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runReview } from "../../cli";
import { runIrv } from "../support/cli";
import { deploymentPath, seedDeployer } from "../support/deployments";
import { ENGINE_TIMEOUT, createStack, loadSdk, pulumiEnv, recordSteps, type TestStack } from "../support/engine";
import { useServer } from "../support/server";

// registry.RepoDeployment through the real engine, from TypeScript: a repo and its deployment
// created by an organization whose admin holds registry.deployments.create (a custom role), read
// back with no drift (irv drift, refresh, a preview with no changes); a change of charts refused
// to the organization, saying only the platform's staff may, and made when the program runs as
// the staff (irv-server --staff); destroyed, the deployment cleared as the staff.

const irv = loadSdk();
const PODINFO = [{ repo: "oci://ghcr.io/stefanprodan/charts/podinfo", source: "https://github.com/stefanprodan/podinfo" }];
const KYVERNO = [{ repo: "https://kyverno.github.io/kyverno/", chart: "kyverno" }];

describe("registry.RepoDeployment through the engine", { timeout: 3 * ENGINE_TIMEOUT }, () => {
  const ctx = useServer({ staff: true, seed: seedDeployer() });
  const stacks: TestStack[] = [];
  afterAll(async () => {
    for (const t of stacks) await t.dispose();
  });

  it("creates a repo's deployment, reads it back with no drift; only the platform's staff change or clear it", async () => {
    const state: { deployed: boolean; description: string; charts: { repo: string; source?: string; chart?: string }[] } = {
      deployed: true,
      description: "podinfo",
      charts: PODINFO,
    };
    const t = await createStack({
      stackName: "deployment",
      server: ctx.server,
      program: async () => {
        const app = new irv.registry.Repo("app", { parentUid: ctx.server.organization, name: "podinfo", description: state.description });
        const podinfo = state.deployed ? new irv.registry.RepoDeployment("podinfo", { repoUid: app.uid, charts: state.charts }) : undefined;
        return { app: app.uid, deployment: podinfo?.uid };
      },
    });
    stacks.push(t);
    // An update runs with the token set now; a destroy, which runs no program, with the one the last update that changed something recorded.
    const token = (value: string) => t.stack.setConfig("irv:token", { value, secret: true });
    const up = await t.stack.up();
    const app = up.outputs.app.value as string;
    expect(up.outputs.deployment.value).toBe(app);
    expect((await ctx.api.get(deploymentPath(app))).body).toEqual({ id: app, charts: PODINFO });

    // Read back: no drift, refresh changes nothing, and a preview has no changes.
    const env = pulumiEnv(path.join(path.dirname(t.workDir), "home"));
    const clean = await runIrv(["drift", "--stack", "deployment", "--cwd", t.workDir, "--format", "json"], env);
    expect(clean.code, clean.stdout + clean.stderr).toBe(0);
    const refreshed = await t.stack.refresh();
    expect(refreshed.summary.resourceChanges).not.toHaveProperty("update");
    const quiet = recordSteps();
    await t.stack.preview({ onEvent: quiet.onEvent });
    expect(quiet.ops("podinfo")).toEqual(["same"]);

    // New charts: an update in place, which the organization may not make and the staff may.
    state.charts = KYVERNO;
    const review = await runReview({ stack: t.stack });
    expect(review.changes.find((c) => c.name === "podinfo")).toMatchObject({ kind: "registry.RepoDeployment", action: "update" });
    const refused = await t.stack.up().catch((e: Error) => e);
    expect(String(refused)).toContain("changing its charts takes registry.deployments.update, which on the platform only its staff hold");
    expect(String(refused)).toContain("retainOnDelete: true");
    expect((await ctx.api.get(deploymentPath(app))).body.charts).toEqual(PODINFO);
    // Destroyed by the organization: refused at the deployment.
    const kept = await t.stack.destroy().catch((e: Error) => e);
    expect(String(kept)).toContain("deleting it (an update with no charts");
    expect((await ctx.api.get(deploymentPath(app))).body.charts).toEqual(PODINFO);

    // As the platform's staff: the new charts, then the deployment cleared (the program without it).
    await token(ctx.server.staffToken!);
    await t.stack.up();
    expect((await ctx.api.get(deploymentPath(app))).body.charts).toEqual(KYVERNO);
    state.deployed = false;
    await t.stack.up();
    expect((await ctx.api.get(deploymentPath(app))).status).toBe(404);

    // The organization's again (an update records its token for the destroy), which deletes the repo.
    await token(ctx.server.token);
    state.description = "podinfo, undeployed";
    await t.stack.up();
    await t.stack.destroy();
    expect((await ctx.api.get(`/registry/v2beta1/repos/${app}`)).status).toBe(404);
  });
});
