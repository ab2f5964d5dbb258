import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as path from "node:path";
import { ENGINE_TIMEOUT, PluginResource, createStack, recordSteps, repoRoot, serializedProviders, usePluginFrom, type TestStack } from "../support/engine";

import { Trivial } from "../support/trivial";

// Proves the harness itself: the CLI, the file backend, the provider host resolving modules from
// the work dir, and the step recorder, with a resource that makes no API call.
describe("engine harness", { timeout: ENGINE_TIMEOUT }, () => {
  let t: TestStack;
  beforeAll(async () => {
    t = await createStack({
      stackName: "harness",
      program: async () => {
        const a = new Trivial("a", { value: "one" });
        new Trivial("b", { value: "two" });
        return { a: a.value };
      },
    });
  });
  afterAll(async () => t?.dispose());

  it("previews, creates, previews no change, and destroys", async () => {
    const planned = recordSteps();
    const preview = await t.stack.preview({ onEvent: planned.onEvent });
    expect(preview.changeSummary.create).toBe(3); // the stack and two resources
    expect(planned.ops("a")).toEqual(["create"]);

    const up = await t.stack.up();
    expect(up.outputs.a.value).toBe("one");
    const shims = serializedProviders(await t.exportState());
    expect([...shims.keys()].sort()).toEqual(["a", "b"]);

    const again = await t.stack.preview({ expectNoChanges: true });
    expect(again.changeSummary).toEqual({ same: 3 });

    const gone = recordSteps();
    await t.stack.destroy({ onEvent: gone.onEvent });
    expect(gone.ops("b")).toEqual(["delete"]);
  });
});

// The benchmark's floor for a resource plugin (harness/trivial-plugin.ts): found through the
// project's plugins.providers path, it echoes inputs, gives a uid that dependents take, reads
// back what it holds and deletes without a call anywhere.
describe("the trivial resource plugin", { timeout: ENGINE_TIMEOUT }, () => {
  it("previews, creates, previews no change, refreshes with no change, updates and destroys", async () => {
    let value = "one";
    const t = await createStack({
      stackName: "trivial-plugin",
      program: async () => {
        const a = new PluginResource("Group", "a", { name: value }, "irvtrivial");
        const b = new PluginResource("Role", "b", { groupUid: a.uid, name: "two" }, "irvtrivial");
        return { a: a.uid, b: b.uid };
      },
    });
    try {
      await usePluginFrom(t, "irvtrivial", path.join(repoRoot, "harness", "bin"));
      const preview = await t.stack.preview();
      expect(preview.changeSummary.create).toBe(3);
      const up = await t.stack.up();
      expect(up.outputs.a.value).toMatch(/^[0-9a-f-]{36}$/);
      expect(up.outputs.b.value).toMatch(/^[0-9a-f-]{36}$/);
      expect((await t.stack.preview({ expectNoChanges: true })).changeSummary).toEqual({ same: 3 });
      const refresh = await t.stack.refresh();
      expect(refresh.summary.resourceChanges).toEqual({ same: 3 });
      value = "uno";
      expect((await t.stack.up()).summary.resourceChanges).toMatchObject({ update: 1, same: 2 });
      const gone = recordSteps();
      await t.stack.destroy({ onEvent: gone.onEvent });
      expect(gone.ops("b")).toEqual(["delete"]);
    } finally {
      await t.dispose();
    }
  });
});
