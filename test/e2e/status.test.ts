import { afterAll, describe, expect, it } from "vitest";
import { ENGINE_TIMEOUT } from "../support/engine";
import { useServer } from "../support/server";
import { yamlProject, type YamlProject } from "../support/yaml-project";

// What `pulumi up` shows while a request of the plugin waits to be tried again: the engine's own
// events carry the status line, on the resource, as an ephemeral info message.
describe("status lines through the engine", { timeout: ENGINE_TIMEOUT }, () => {
  const ctx = useServer();
  let project: YamlProject | undefined;
  afterAll(() => project?.dispose());

  it("shows, on the group being created, that its create waits on the API's 503", async () => {
    project = await yamlProject("status", ctx.server);
    project.write(`  team:\n    type: irv:iam:Group\n    properties:\n      parentUid: ${ctx.server.organization}\n      name: waiting-team\n`);
    ctx.server.faults.add({ method: "POST", path: "/iam/v2beta1/groups", action: "unavailable", times: 2, retryAfterSeconds: 1 });
    const out = await project.pulumi("up", "--yes", "--skip-preview", "--json");
    // `--json` streams the engine's events, one JSON object a line.
    const events = out
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l));
    const waits = events.map((e) => e.diagnosticEvent).filter((d) => d && /HTTP 503/.test(d.message));
    expect(waits.length).toBeGreaterThanOrEqual(2);
    for (const d of waits) {
      expect(d.urn).toMatch(/::irv:iam:Group::team$/);
      expect(d.ephemeral).toBe(true);
      expect(d.message).toMatch(new RegExp(`POST /iam/v2beta1/groups/${ctx.server.organization}: HTTP 503 from ${ctx.server.url}; trying again in \\d+ s`));
    }
    expect((await project.resources()).filter((r) => r.type === "irv:iam:Group")).toHaveLength(1);
  });
});
