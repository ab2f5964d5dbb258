import { afterAll, describe, expect, it } from "vitest";
import { formatReview, runReview } from "../../cli";
import { ENGINE_TIMEOUT, createStack, loadSdk, recordSteps, type TestStack } from "../support/engine";
import { path, useServer } from "../support/server";

// Scenario 5: a group made outside Pulumi comes under management by `adoptUid`, keeping its uid.
describe("adopting an existing group", { timeout: ENGINE_TIMEOUT }, () => {
  const ctx = useServer();
  let t: TestStack | undefined;
  afterAll(async () => t?.dispose());

  it("manages a pre-existing group without recreating it", async () => {
    const org = ctx.server.organization;
    const made = await ctx.api.post(path("groups", org), { name: "legacy", description: "made by hand" });
    expect(made.status).toBeLessThan(300);
    const uid: string = made.body.uid;

    const irv = loadSdk();
    let description = "made by hand";
    t = await createStack({
      stackName: "adopt",
      server: ctx.server,
      program: async () => {
        const legacy = new irv.iam.Group("legacy", { parentUid: org, name: "legacy", description, adoptUid: uid });
        return { uid: legacy.uid, createTime: legacy.createTime };
      },
    });

    // A reviewer is told it is adopted, with the uid it takes over, not that it is created.
    const review = await runReview({ stack: t.stack });
    expect(review.counts).toMatchObject({ create: 0, adopt: 1 });
    expect(review.summary).toBe("0 to create, 1 to adopt, 0 to update, 0 to replace, 0 to delete");
    expect(review.changes).toMatchObject([{ action: "adopt", name: "legacy", uid }]);
    const markdown = formatReview(review, "markdown");
    expect(markdown).toContain(`### Adopt (1)\n\n#### \`legacy\` (iam.Group): adopts uid \`${uid}\``);
    expect(markdown).not.toContain("### Create");
    // The engine's own preview calls it a create (a dynamic provider cannot change that); its
    // detail (`pulumi preview --diff`) lists the uid adopted among the inputs.
    const printed: string[] = [];
    await t.stack.preview({ diff: true, onOutput: (s) => printed.push(s) });
    expect(printed.join("")).toMatch(new RegExp(`irv:Group: \\(create\\)\\n.*legacy\\]\\n\\s+adoptUid\\s+: "${uid}"`));

    const from = ctx.server.requests.length;
    const up = await t.stack.up();
    expect(up.outputs.uid.value).toBe(uid);
    expect(up.outputs.createTime.value).toBe(made.body.createTime);
    expect(ctx.server.requests.slice(from).filter((r) => r.method === "POST")).toEqual([]);
    expect((await t.stack.preview({ expectNoChanges: true })).changeSummary).toEqual({ same: 2 });

    // Now managed: a change is an update of the same group, and destroy deletes it.
    description = "now managed by pulumi";
    const planned = recordSteps();
    await t.stack.up({ onEvent: planned.onEvent });
    expect(planned.ops("legacy")).toEqual(["update"]);
    expect((await ctx.api.get(path("groups", uid))).body.description).toBe("now managed by pulumi");

    await t.stack.destroy();
    expect((await ctx.api.get(path("groups", uid))).status).toBe(404);
  });
});
