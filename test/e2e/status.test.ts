import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startChaosProxy, type ChaosProxy } from "../support/chaos-proxy";
import { ENGINE_TIMEOUT } from "../support/engine";
import { useServer } from "../support/server";
import { yamlProject, type YamlProject } from "../support/yaml-project";

// Through the plugin and the real engine, on one YAML stack (docs/behaviour.md, Timeouts and
// Retries):
// - what `pulumi up`, `refresh` and `destroy` show while a request of the plugin waits to be tried
//   again: the engine's own events carry the status line, on the resource, as an ephemeral info
//   message;
// - a resource's customTimeouts bound its create: a create the API does not answer gives up when
//   its 2 s are spent, naming the budget; the same create with the default budget waits.
//   The API's address is a proxy that holds the create, so neither outcome depends on timing.

const GROUPS = "/iam/v2beta1/groups";

/** The diagnostics of `--json` output (the engine's events, one JSON object a line) matching `re`. */
function diagnostics(out: string, re: RegExp): { urn: string; ephemeral: boolean; message: string }[] {
  return out
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l).diagnosticEvent)
    .filter((d) => d && re.test(d.message));
}

describe("status lines and customTimeouts through the engine", { timeout: ENGINE_TIMEOUT }, () => {
  const ctx = useServer();
  let proxy: ChaosProxy;
  let project: YamlProject;
  const team = (timeouts = "") =>
    `  team:\n    type: irv:iam:Group\n    properties:\n      parentUid: ${ctx.server.organization}\n      name: waiting-team\n` +
    `  slow:\n    type: irv:iam:Group\n    properties:\n      parentUid: ${ctx.server.organization}\n      name: slow-team\n${timeouts}`;
  beforeAll(async () => {
    proxy = await startChaosProxy(ctx.server.url);
    project = await yamlProject("status", { url: proxy.url, token: ctx.server.token });
  });
  afterAll(async () => {
    project?.dispose();
    await proxy?.close();
  });
  /** The status lines of `out`: each on a group, ephemeral, naming the request, the 503 and the wait. */
  function expectWaits(out: string, request: RegExp): void {
    const waits = diagnostics(out, /HTTP 503/);
    expect(waits.length).toBeGreaterThanOrEqual(2);
    for (const d of waits) {
      expect(d.urn).toMatch(/::irv:iam:Group::(team|slow)$/);
      expect(d.ephemeral).toBe(true);
      expect(d.message).toMatch(
        new RegExp(`${request.source}: HTTP 503 from ${proxy.url}; trying again in \\d+ s \\(\\d+ s left of the operation's budget\\)`),
      );
    }
  }

  it("up: shows, on the group being created, that its create waits on the API's 503", async () => {
    project.write(team().split("  slow:")[0]);
    ctx.server.faults.add({ method: "POST", path: GROUPS, action: "unavailable", times: 2, retryAfterSeconds: 1 });
    const out = await project.pulumi("up", "--yes", "--skip-preview", "--json");
    expectWaits(out, new RegExp(`POST ${GROUPS}/${ctx.server.organization}`));
    expect((await project.resources()).filter((r) => r.type === "irv:iam:Group")).toHaveLength(1);
  });

  it("refresh: shows that the group's read waits on the API's 503", async () => {
    ctx.server.faults.add({ method: "GET", path: `${GROUPS}/`, action: "unavailable", times: 2, retryAfterSeconds: 1 });
    const out = await project.pulumi("refresh", "--yes", "--skip-preview", "--json");
    expectWaits(out, new RegExp(`GET ${GROUPS}/${ctx.server.organization}/[0-9a-f]{16}`));
  });

  it("a create the API holds gives up when its customTimeouts are spent, naming the budget; without them it goes through once let go", async () => {
    const hold = proxy.hold({ method: "POST", path: GROUPS });
    const from = ctx.server.requests.length;
    project.write(team("    options:\n      customTimeouts:\n        create: 2s\n"));
    const failed = await project.pulumi("up", "--yes", "--skip-preview").then(
      () => "",
      (e: Error) => e.message,
    );
    // The budget is the engine's 2 s from the start of the create: what is left of it when the request starts.
    const gaveUp = new RegExp(
      `POST ${GROUPS}/${ctx.server.organization}: gave up after (\\d\\.\\d)s, the time budget for this operation \\(raise it with the resource's customTimeouts\\)`,
    ).exec(failed);
    expect(gaveUp, failed).not.toBeNull();
    expect(Number(gaveUp![1])).toBeLessThanOrEqual(2);
    // Held at the proxy: the API never saw it, and the stack has no such group.
    expect(ctx.server.requests.slice(from).filter((r) => r.method === "POST")).toEqual([]);
    expect((await project.resources()).map((r) => r.urn).filter((u) => u.endsWith("::slow"))).toEqual([]);

    // The create that gave up left the proxy unanswered (dropped, never forwarded).
    await vi.waitFor(() => expect(hold.held).toBe(0), { timeout: 60_000, interval: 100 });
    // The same create without customTimeouts (the default budget, 5 minutes) waits while held and is created once let go.
    project.write(team());
    const up = project.pulumi("up", "--yes", "--skip-preview");
    await hold.until(hold.arrived + 1);
    hold.stop();
    await up;
    expect((await project.resources()).filter((r) => r.type === "irv:iam:Group")).toHaveLength(2);
  });

  it("destroy: shows that a group's delete waits on the API's 503", async () => {
    ctx.server.faults.add({ method: "DELETE", path: `${GROUPS}/`, action: "unavailable", times: 2, retryAfterSeconds: 1 });
    const out = await project.pulumi("destroy", "--yes", "--skip-preview", "--json");
    expectWaits(out, new RegExp(`DELETE ${GROUPS}/${ctx.server.organization}/[0-9a-f]{16}`));
    expect((await project.resources()) ?? []).toEqual([]);
  });
});
