import { afterAll, describe, expect, it } from "vitest";
import { createStack, ENGINE_TIMEOUT, loadSdk, recordSteps, type TestStack } from "../support/engine";
import { path, useServer } from "../support/server";

// Two documented behaviours through the real engine against a live irv-server:
// - settings from IRV_* variables alone: a stack with no irv:* config at all reaches the API;
// - a binding to a role that does not exist previews cleanly and fails at `up` with the API's
//   reason (README: what preview knows and what only `up` can).

const GITHUB = "https://token.actions.githubusercontent.com";

describe("settings from IRV_* variables, and a binding to a missing role", { timeout: ENGINE_TIMEOUT }, () => {
  const ctx = useServer();
  let t: TestStack | undefined;
  afterAll(async () => {
    await t?.stack.destroy();
    await t?.dispose();
  });

  it("applies with IRV_API_URL and IRV_TOKEN alone; a binding to a missing role previews, then fails at up naming it", async () => {
    const irv = loadSdk();
    const org = ctx.server.organization;
    // A well-formed role uid in the org that names no role.
    const missingRole = `${org}/0123456789abcdef`;
    let bind = false;
    t = await createStack({
      stackName: "env-settings",
      env: { IRV_API_URL: ctx.server.url, IRV_AUTH_URL: ctx.server.authUrl, IRV_TOKEN: ctx.server.token, IRV_IDENTITY: "", IRV_IDENTITY_TOKEN: "" },
      program: async () => {
        const team = new irv.iam.Group("team", { parentUid: org, name: "env-team" });
        const ci = new irv.iam.Identity("ci", {
          groupUid: team.uid,
          name: "ci-deploy",
          claimMatch: { issuer: GITHUB, subject: "repo:acme/infra:ref:refs/heads/main" },
        });
        if (bind) new irv.iam.RoleBinding("ci-missing", { groupUid: team.uid, identityUid: ci.uid, roleUid: missingRole });
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
});
