import * as path from "node:path";
import type * as pulumi from "@pulumi/pulumi";
import { afterAll, describe, expect, it } from "vitest";
import { formatReview, runReview, type DriftReport } from "../../cli";
import { runIrv } from "../support/cli";
import { ENGINE_TIMEOUT, createStack, loadSdk, nodeRequire, pulumiEnv, recordSteps, usePluginFrom, type TestStack } from "../support/engine";
import { path as apiPath, useServer } from "../support/server";
import { yamlProject, type YamlProject } from "../support/yaml-project";

// events.Subscription through the real engine: created by the dynamic classes, refreshed, replaced
// when its sink changes (irv review names it events.Subscription), moved to the resource plugin by its alias with no write to the API,
// deleted by hand and reported by `irv drift` as events.Subscription, destroyed; and in Pulumi
// YAML on the plugin, with its sink from secret config kept encrypted in state.

const irv = loadSdk();
// The plugin's SDK has the same classes and arguments under the same names (its own types are checked by test/plugin/sdks.test.ts).
const plugin = nodeRequire("pulumi-irv/plugin") as typeof irv;
const SECRET_SINK = "https://hooks.acme.example/deliver?token=s3cr3t-sink-token";

describe("events.Subscription through the engine", { timeout: 3 * ENGINE_TIMEOUT }, () => {
  const ctx = useServer();
  const stacks: TestStack[] = [];
  const projects: YamlProject[] = [];
  afterAll(async () => {
    for (const t of stacks) await t.dispose();
    for (const p of projects) p.dispose();
  });
  /** The subscriptions the API holds under `group`. */
  const liveUnder = async (group: string) =>
    (await ctx.api.get(apiPath("subscriptions"), { "uidp.children_of": group })).body.subscriptions as { uid: string; sink: string }[];
  /** The API writes made while `fn` ran, as `METHOD path`. */
  const writesDuring = async (fn: () => Promise<unknown>) => {
    const from = ctx.server.requests.length;
    await fn();
    return ctx.server.requests
      .slice(from)
      .filter((r) => r.method !== "GET")
      .map((r) => `${r.method} ${r.path}`);
  };

  it("the dynamic classes create, refresh and replace it; the plugin takes it over by its alias; irv drift names it; destroy removes it", async () => {
    const org = ctx.server.organization;
    const state = { sink: "https://hooks.acme.example/first", sdk: "dynamic" as "dynamic" | "plugin" };
    const t = await createStack({
      stackName: "subscriptions",
      server: ctx.server,
      program: async () => {
        const sdk = state.sdk === "dynamic" ? irv : plugin;
        const team = new sdk.iam.Group("team", { parentUid: org, name: "hooked" });
        const hook = new sdk.events.Subscription("hook", { parentUid: team.uid, sink: state.sink });
        return { team: team.uid, hook: hook.uid as pulumi.Output<string> };
      },
    });
    stacks.push(t);
    const up = await t.stack.up();
    const team = up.outputs.team.value as string;
    const first = up.outputs.hook.value as string;
    expect(await liveUnder(team)).toEqual([{ uid: first, sink: "https://hooks.acme.example/first" }]);
    const resources = (await t.exportState()).deployment.resources as { urn: string; type: string }[];
    expect(resources.find((r) => r.urn.endsWith("::hook"))?.type).toBe("pulumi-nodejs:dynamic/irv:Subscription");

    // Refresh reads it back unchanged.
    const refreshed = await t.stack.refresh();
    expect(refreshed.summary.resourceChanges).not.toHaveProperty("update");

    // A new sink replaces it: the new one is made, then the old one deleted.
    state.sink = "https://hooks.acme.example/second";
    const planned = recordSteps();
    await t.stack.preview({ onEvent: planned.onEvent });
    expect(planned.ops("hook")).toEqual(["create-replacement", "replace", "delete-replaced"]);
    // irv review names it by its display name, and says the sink forces the replacement.
    const review = await runReview({ stack: t.stack });
    expect(review.changes.find((c) => c.name === "hook")).toMatchObject({
      kind: "events.Subscription",
      action: "replace",
      uid: first,
      replaceBecause: ["sink"],
    });
    expect(formatReview(review, "markdown")).toContain("#### `hook` (events.Subscription): replaced because `sink` changed");
    const replaced = await t.stack.up();
    const second = replaced.outputs.hook.value as string;
    expect(second).not.toBe(first);
    expect(await liveUnder(team)).toEqual([{ uid: second, sink: "https://hooks.acme.example/second" }]);

    // The plugin's SDK: the same resources, by the alias each plugin resource carries; nothing is written.
    state.sdk = "plugin";
    await usePluginFrom(t);
    const moved = recordSteps();
    const writes = await writesDuring(() => t.stack.up({ onEvent: moved.onEvent }));
    expect(writes).toEqual([]);
    expect(moved.ops("hook")).toEqual(["same"]);
    const after = (await t.exportState()).deployment.resources as { urn: string; type: string; id: string }[];
    expect(after.find((r) => r.urn.endsWith("::hook"))).toMatchObject({ type: "irv:events:Subscription", id: second });

    // Deleted by hand: irv drift reports it by its display name, with exit 2.
    expect((await ctx.api.del(apiPath("subscriptions", second))).status).toBe(200);
    const env = pulumiEnv(path.join(path.dirname(t.workDir), "home"));
    const drift = await runIrv(["drift", "--stack", "subscriptions", "--cwd", t.workDir, "--format", "json"], env);
    expect(drift.code, drift.stderr).toBe(2);
    const report = JSON.parse(drift.stdout) as DriftReport;
    expect(report).toMatchObject({ deleted: 1, changed: 0 });
    expect(report.resources.find((r) => r.name === "hook")).toMatchObject({ kind: "events.Subscription", status: "deleted", uid: second });

    // Refresh drops it, up makes it again, destroy removes everything.
    await t.stack.refresh();
    await t.stack.up();
    expect(await liveUnder(team)).toHaveLength(1);
    await t.stack.destroy();
    expect((await ctx.api.get(apiPath("groups", team))).status).toBe(404);
  });

  it("in Pulumi YAML on the plugin: a sink from secret config stays encrypted in state; refresh changes nothing; destroy removes it", async () => {
    const p = await yamlProject("yaml-hooks", ctx.server);
    projects.push(p);
    await p.pulumi("config", "set", "--secret", "hookSink", SECRET_SINK);
    const config = "  hookSink:\n    type: string\n    secret: true\n";
    p.write(
      [
        "  team:",
        "    type: irv:iam:Group",
        "    properties:",
        `      parentUid: ${ctx.server.organization}`,
        "      name: yaml-hooked",
        "  hook:",
        "    type: irv:events:Subscription",
        "    properties:",
        "      parentUid: ${team.uid}",
        "      sink: ${hookSink}",
        "",
      ].join("\n"),
      config,
    );
    expect((await p.previewJson()).changeSummary).toEqual({ create: 3 });
    await p.pulumi("up", "--yes", "--skip-preview");
    const hook = (await p.resources()).find((r) => r.urn.endsWith("::hook"))!;
    expect(hook.type).toBe("irv:events:Subscription");
    expect((await ctx.api.get(apiPath("subscriptions", hook.id!))).body.sink).toBe(SECRET_SINK);
    expect(p.stateText()).not.toContain("s3cr3t-sink-token");

    await p.pulumi("refresh", "--yes", "--skip-preview");
    expect((await p.previewJson("--expect-no-changes")).changeSummary).toEqual({ same: 3 });
    expect(p.stateText()).not.toContain("s3cr3t-sink-token");

    await p.pulumi("destroy", "--yes", "--skip-preview");
    expect((await ctx.api.get(apiPath("subscriptions", hook.id!))).status).toBe(404);
  });
});
