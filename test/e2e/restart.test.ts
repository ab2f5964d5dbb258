/**
 * The complaint, end to end: a stack applied against `irv-server --data-dir` still points
 * at its resources after the server restarts. Refresh finds every resource unchanged, a preview
 * plans nothing, and destroy deletes them, all with the token the stack was configured with
 * before the restart. The server is a process (on a Node with node:sqlite, which the data
 * directory's lock needs), stopped and started again on the same port.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ENGINE_TIMEOUT, createStack, loadSdk, recordSteps } from "../support/engine";
import { apiFor, path } from "../support/server";
import { ensureBuilt, launch, portOf, stop, type ServerProcess } from "../support/server-process";

describe("a stack across an irv-server restart", { timeout: ENGINE_TIMEOUT }, () => {
  it("refreshes and previews with no changes, and destroys, after the server restarts on its data directory", async () => {
    ensureBuilt();
    const parent = mkdtempSync(join(tmpdir(), "irv-restart-"));
    const dataDir = join(parent, "data");
    let server: ServerProcess = await launch(dataDir);
    const endpoint = { url: server.start.url, authUrl: server.start.authUrl, token: server.start.token };
    const org = server.start.organization;
    const irv = loadSdk();
    const t = await createStack({
      stackName: "restart",
      server: endpoint,
      program: async () => {
        const eng = new irv.iam.Group("eng", { parentUid: org, name: "eng", description: "engineering" });
        const ci = new irv.iam.Identity("ci", {
          groupUid: eng.uid,
          name: "ci-0",
          claimMatch: { issuer: "https://token.actions.githubusercontent.com", subject: "repo:acme/infra:ref:refs/heads/main" },
        });
        const deployer = new irv.iam.Role("deployer", { groupUid: eng.uid, name: "deployer", capabilities: ["repo.list"] });
        new irv.iam.RoleBinding("ci-deployer", { groupUid: eng.uid, identityUid: ci.uid, roleUid: deployer.uid });
        return { eng: eng.uid };
      },
    });
    try {
      const up = await t.stack.up();
      const eng = up.outputs.eng.value as string;
      await stop(server);
      server = await launch(dataDir, ["--port", portOf(endpoint.url)]);
      expect(server.start.organization).toBe(org);

      const refresh = await t.stack.refresh();
      expect(refresh.summary.resourceChanges).toEqual({ same: 5 });
      const planned = recordSteps();
      await t.stack.preview({ onEvent: planned.onEvent });
      expect(planned.steps.map((s) => s.op)).toEqual(["same", "same", "same", "same"]);

      await t.stack.destroy();
      expect((await apiFor(server.start.url, endpoint.token).get(path("groups", eng))).status).toBe(404);
    } finally {
      await t.dispose();
      await stop(server);
      rmSync(parent, { recursive: true, force: true });
    }
  });
});
