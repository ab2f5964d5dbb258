import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startChaosProxy, type ChaosProxy } from "../support/chaos-proxy";
import { createStack, ENGINE_TIMEOUT, loadSdk, recordSteps, type TestStack } from "../support/engine";
import { path, useServer } from "../support/server";

// Documented behaviours of the dynamic classes through the real engine against a live irv-server,
// on one stack:
// - settings from IRV_* variables alone: a stack with no irv:* config at all reaches the API;
// - a binding to a role that does not exist previews cleanly and fails at `up` with the API's
//   reason (README: what preview knows and what only `up` can);
// - a resource's customTimeouts bound its create (docs/behaviour.md, Timeouts): IRV_API_URL is a
//   proxy in front of the server, which holds the create so that only the budget can end it.

const GITHUB = "https://token.actions.githubusercontent.com";

describe("settings from IRV_* variables, and a binding to a missing role", { timeout: ENGINE_TIMEOUT }, () => {
  const ctx = useServer();
  let t: TestStack | undefined;
  let proxy: ChaosProxy;
  beforeAll(async () => {
    proxy = await startChaosProxy(ctx.server.url);
  });
  afterAll(async () => {
    await t?.stack.destroy();
    await t?.dispose();
    await proxy?.close();
  });
  let bind = false;
  let slow = false;

  it("applies with IRV_API_URL and IRV_TOKEN alone; a binding to a missing role previews, then fails at up naming it", async () => {
    const irv = loadSdk();
    const org = ctx.server.organization;
    // A well-formed role uid in the org that names no role.
    const missingRole = `${org}/0123456789abcdef`;
    t = await createStack({
      stackName: "env-settings",
      env: { IRV_API_URL: proxy.url, IRV_AUTH_URL: ctx.server.authUrl, IRV_TOKEN: ctx.server.token, IRV_IDENTITY: "", IRV_IDENTITY_TOKEN: "" },
      program: async () => {
        const team = new irv.iam.Group("team", { parentUid: org, name: "env-team" });
        const ci = new irv.iam.Identity("ci", {
          groupUid: team.uid,
          name: "ci-deploy",
          claimMatch: { issuer: GITHUB, subject: "repo:acme/infra:ref:refs/heads/main" },
        });
        if (bind) new irv.iam.RoleBinding("ci-missing", { groupUid: team.uid, identityUid: ci.uid, roleUid: missingRole });
        if (slow) new irv.iam.Group("slow", { parentUid: team.uid, name: "slow-team" }, { customTimeouts: { create: "2s" } });
        return { team: team.uid };
      },
    });
    expect(
      Object.keys(await t.stack.getAllConfig()).filter((k) => k.startsWith("irv:")),
      "no irv:* config",
    ).toEqual([]);

    const team: string = (await t.stack.up()).outputs.team.value;
    const live = await ctx.api.get(path("groups", team));
    expect(live.status, live.text).toBe(200);
    expect(live.body.name).toBe("env-team");

    bind = true;
    const steps = recordSteps();
    await t.stack.preview({ onEvent: steps.onEvent });
    expect(steps.ops("ci-missing")).toEqual(["create"]);
    const from = ctx.server.requests.length;
    const failed = await t.stack.up().then(
      () => undefined,
      (e: Error) => e,
    );
    expect(failed?.message).toContain(`Invalid argument: roleUid: role ${missingRole} does not exist`);
    // The create was sent (only the API knows the role is missing) and refused; no binding exists.
    const posts = ctx.server.requests.slice(from).filter((r) => r.method === "POST" && r.path.includes("/roleBindings/"));
    expect(posts.map((r) => r.status)).toEqual([400]);
    const bindings = await ctx.api.get(path("roleBindings"), { group: team });
    expect(bindings.status, bindings.text).toBe(200);
    expect(bindings.body.roleBindings ?? []).toEqual([]);
    bind = false;
  });

  it("a create the API holds gives up when the resource's customTimeouts are spent, naming the budget", async () => {
    const hold = proxy.hold({ method: "POST", path: path("groups") });
    const from = ctx.server.requests.length;
    slow = true;
    const failed = await t!.stack.up().then(
      () => "",
      (e: Error) => e.message,
    );
    slow = false;
    // The budget is the 2 s from the start of the create: what is left of it when the request starts.
    const gaveUp =
      /POST \/iam\/v2beta1\/groups\/\S+: gave up after (\d\.\d)s, the time budget for this operation \(raise it with the resource's customTimeouts\)/.exec(
        failed,
      );
    expect(gaveUp, failed).not.toBeNull();
    expect(Number(gaveUp![1])).toBeLessThanOrEqual(2);
    // Held at the proxy, then dropped when the create gave up: the API never saw it.
    await vi.waitFor(() => expect(hold.held).toBe(0), { timeout: 60_000, interval: 100 });
    hold.stop();
    expect(ctx.server.requests.slice(from).filter((r) => r.method === "POST")).toEqual([]);
    expect((await t!.stack.exportStack()).deployment.resources.map((r: { urn: string }) => r.urn).filter((u: string) => u.endsWith("::slow"))).toEqual([]);
  });
});
