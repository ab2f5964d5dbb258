import { describe, expect, it } from "vitest";
import type { Capability } from "../../api/capabilities";
import { dynamicProviders } from "../../provider";
import { created, freshGroup, uniqueName, useProviderServer } from "../support/provider";
import { runLifecycle } from "../support/provider-lifecycle";

const ctx = useProviderServer();
const roles = dynamicProviders.roles;

describe("iam.Role provider", () => {
  it("runs the whole lifecycle", async () => {
    await runLifecycle(ctx, {
      kind: "roles",
      inputs: async () => ({ groupUid: await freshGroup(ctx), name: uniqueName("deployer"), capabilities: ["groups.list", "identity.list"] }),
      update: { change: (i) => ({ ...i, capabilities: [...(i.capabilities as string[]), "roles.list"] }), mask: ["capabilities"] },
      replace: { change: async (i) => ({ ...i, groupUid: await freshGroup(ctx) }), replaces: ["groupUid"] },
      drift: {
        body: { capabilities: ["CAP_IAM_GROUPS_LIST"] },
        mask: "capabilities",
        expect: (props, inputs) => {
          expect(props.capabilities).toEqual(["groups.list"]);
          expect(inputs.capabilities).toEqual(["groups.list"]);
        },
      },
    });
  });

  it("sees capabilities as a set: reordering is no change", async () => {
    const olds = { groupUid: "g", name: "r-0", description: "", capabilities: ["a.list", "b.list"] };
    expect((await roles.diff("x", olds as any, { ...olds, capabilities: ["b.list", "a.list"] } as any)).changes).toBe(false);
  });

  it("sees no perpetual diff when the program repeats a capability (the API stores each once)", async () => {
    const inputs = { groupUid: await freshGroup(ctx), name: uniqueName("dup"), capabilities: ["groups.list", "roles.list", "groups.list"] as Capability[] };
    const { id, outs } = await roles.create(inputs);
    expect(outs!.capabilities).toEqual(["groups.list", "roles.list"]);
    expect((await roles.diff(id, outs, inputs)).changes).toBe(false);
    const read = await roles.read(id, outs);
    expect((await roles.diff(id, read.props, inputs)).changes).toBe(false);
    expect((await roles.diff(id, outs, { ...inputs, capabilities: ["groups.list"] })).changes).toBe(true);
  });

  it("fails check on unknown capabilities, naming the element", async () => {
    const r = await roles.check({} as any, { groupUid: ctx.server.organization, name: "r-0", capabilities: ["groups.list", "groups.fly"] } as any);
    expect(r.failures).toEqual([{ property: "capabilities", reason: "capabilities.1: is not a known capability" }]);
    const empty = await roles.check({} as any, { groupUid: ctx.server.organization, name: "r-0", capabilities: [] } as any);
    expect(empty.failures?.map((f) => f.property)).toEqual(["capabilities"]);
  });

  it("adopts an existing custom role", async () => {
    const group = await freshGroup(ctx);
    const role = await created(ctx.api, "roles", group, { name: "old", capabilities: ["CAP_IAM_GROUPS_LIST"] });
    const { id, outs } = await roles.create({ groupUid: group, name: "new", capabilities: ["groups.list", "repo.list"], adoptUid: role.uid });
    expect(id).toBe(role.uid);
    expect(outs).toMatchObject({ name: "new" });
    expect([...outs!.capabilities].sort()).toEqual(["groups.list", "repo.list"]);
  });
});
