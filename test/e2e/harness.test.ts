import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINE_TIMEOUT, createStack, recordSteps, serializedProviders, type TestStack } from "../support/engine";
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
