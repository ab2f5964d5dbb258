import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINE_TIMEOUT, createStack, loadSdk, recordSteps, type TestStack } from "../support/engine";
import { path, useServer } from "../support/server";

// Scenarios 2 (update in place), 3 (replace) and 4 (drift) on one small stack whose program reads
// `desired`, so each test changes one thing and runs the engine over it.
describe("changes through the engine", { timeout: ENGINE_TIMEOUT }, () => {
  const ctx = useServer();
  const desired = { description: "builds things", teamUnderEng: false };
  let t: TestStack;
  const uids: Record<string, string> = {};

  beforeAll(async () => {
    const irv = loadSdk();
    t = await createStack({
      stackName: "lifecycle",
      server: ctx.server,
      program: async () => {
        const org = ctx.server.organization;
        const eng = new irv.iam.Group("eng", { parentUid: org, name: "eng", description: desired.description });
        const team = new irv.iam.Group("team", {
          parentUid: desired.teamUnderEng ? eng.uid : org,
          name: "team",
          description: "a team",
        });
        return { eng: eng.uid, team: team.uid };
      },
    });
    const up = await t.stack.up();
    uids.eng = up.outputs.eng.value;
    uids.team = up.outputs.team.value;
  });
  afterAll(async () => {
    await t?.stack.destroy();
    await t?.dispose();
  });

  /** The requests the server received while `fn` ran. */
  async function requestsDuring(fn: () => Promise<unknown>) {
    const from = ctx.server.requests.length;
    await fn();
    return ctx.server.requests.slice(from);
  }

  it("updates a description in place with a one-field mask", async () => {
    desired.description = "builds and ships things";
    const planned = recordSteps();
    await t.stack.preview({ onEvent: planned.onEvent });
    expect(planned.ops("eng")).toEqual(["update"]);
    expect(planned.ops("team")).toEqual(["same"]);

    const sent = await requestsDuring(() => t.stack.up());
    const writes = sent.filter((r) => r.method !== "GET");
    expect(writes).toHaveLength(1);
    expect(writes[0]).toMatchObject({ method: "PATCH", path: path("groups", uids.eng), status: 200 });
    expect(writes[0].query.updateMask).toBe("description");
    const got = await ctx.api.get(path("groups", uids.eng));
    expect(got.body).toMatchObject({ uid: uids.eng, description: "builds and ships things" });
  });

  it("replaces a group whose parent changes", async () => {
    desired.teamUnderEng = true;
    const planned = recordSteps();
    const preview = await t.stack.preview({ onEvent: planned.onEvent });
    expect(preview.changeSummary.replace).toBe(1);
    expect(planned.ops("team")).toContain("replace");
    expect(planned.steps.find((s) => s.name === "team" && s.op === "replace")?.keys).toContain("parentUid");

    const up = await t.stack.up();
    const newTeam: string = up.outputs.team.value;
    expect(newTeam).not.toBe(uids.team);
    expect(newTeam.startsWith(`${uids.eng}/`)).toBe(true);
    expect((await ctx.api.get(path("groups", uids.team))).status).toBe(404);
    uids.team = newTeam;
  });

  it("reports drift on refresh, fails expect-no-changes, and passes after reconciling", async () => {
    // Behind Pulumi's back: edit one group, delete the other.
    expect((await ctx.api.patch(path("groups", uids.eng), { description: "edited by hand" }, { updateMask: "description" })).status).toBe(200);
    expect((await ctx.api.del(path("groups", uids.team))).status).toBeLessThan(300);

    const refresh = await t.stack.refresh();
    expect(refresh.summary.resourceChanges).toMatchObject({ update: 1, delete: 1 });

    await expect(t.stack.preview({ expectNoChanges: true })).rejects.toThrow(/no-changes|expect/i);
    const planned = recordSteps();
    await t.stack.preview({ onEvent: planned.onEvent });
    expect(planned.ops("eng")).toEqual(["update"]);
    expect(planned.ops("team")).toEqual(["create"]);

    await t.stack.up();
    const again = await t.stack.preview({ expectNoChanges: true });
    expect(again.changeSummary).toEqual({ same: 3 });
    const eng = await ctx.api.get(path("groups", uids.eng));
    expect(eng.body.description).toBe("builds and ships things");
  });
});
