import { describe, expect, it } from "vitest";
import { dynamicProviders } from "../../provider";
import { UNKNOWN } from "../../provider/resources";
import { created, freshGroup, path, uniqueName, useProviderServer } from "../support/provider";
import { runLifecycle } from "../support/provider-lifecycle";

const ctx = useProviderServer();
const groups = dynamicProviders.groups;

describe("iam.Group provider", () => {
  it("runs the whole lifecycle", async () => {
    await runLifecycle(ctx, {
      kind: "groups",
      inputs: async () => ({ parentUid: await freshGroup(ctx), name: uniqueName("lc") }),
      update: { change: (i) => ({ ...i, name: `${i.name}-renamed`, description: "the platform team" }), mask: ["name", "description"] },
      replace: { change: async (i) => ({ ...i, parentUid: await freshGroup(ctx) }), replaces: ["parentUid"] },
      drift: {
        body: { description: "changed by hand" },
        mask: "description",
        expect: (props, inputs) => {
          expect(props.description).toBe("changed by hand");
          expect(inputs.description).toBe("changed by hand");
        },
      },
      created: (outs, inputs) => {
        expect(outs.parentUid).toBe(inputs.parentUid);
        expect(outs.description).toBe("");
        expect(outs.verified).toBe(false);
      },
    });
  });

  it("fails check naming the field, and lets unknown values through", async () => {
    const bad = await groups.check({} as any, { parentUid: "not-a-uid", name: "Bad Name!" } as any);
    expect(bad.failures?.map((f) => f.property).sort()).toEqual(["name", "parentUid"]);
    expect(bad.failures?.find((f) => f.property === "name")?.reason).toMatch(/^name: must match/);
    const unknown = await groups.check({} as any, { parentUid: UNKNOWN, name: UNKNOWN } as any);
    expect(unknown.failures).toEqual([]);
    const extra = await groups.check({} as any, { parentUid: ctx.server.organization, name: "ok-0", colour: "red" } as any);
    expect(extra.failures).toEqual([{ property: "colour", reason: "colour: is not a known field" }]);
    const timeouts = await groups.check({} as any, { parentUid: ctx.server.organization, name: "ok-0", __timeouts: { create: "soon" } } as any);
    expect(timeouts.failures?.[0]).toMatchObject({ property: "__timeouts", reason: expect.stringMatching(/^__timeouts.create: /) });
  });

  it("treats a description omitted and an empty one as the same", async () => {
    const d = await groups.diff("x", { parentUid: "p", name: "n-0", description: "" } as any, { parentUid: "p", name: "n-0" } as any);
    expect(d.changes).toBe(false);
    const unknown = await groups.diff("x", { parentUid: "p", name: "n-0", description: "" } as any, { parentUid: UNKNOWN, name: "n-0" } as any);
    expect(unknown).toMatchObject({ changes: true, replaces: ["parentUid"] });
  });

  it("explains RESOURCE_NOT_EMPTY in plain words", async () => {
    const parent = await freshGroup(ctx);
    const name = uniqueName("parent");
    const { id, outs } = await groups.create({ parentUid: parent, name });
    await created(ctx.api, "groups", id, { name: "child" });
    await created(ctx.api, "identities", id, { name: "svc", servicePrincipal: "SERVICE_PRINCIPAL_INGESTER" });
    await expect(groups.delete(id, outs!)).rejects.toThrow(`group ${name} (${id}) still contains 1 child group, 1 identity: delete or move them first`);
  });

  it("adopts an existing group, updating it to the inputs", async () => {
    const parent = await freshGroup(ctx);
    const existing = await created(ctx.api, "groups", parent, { name: uniqueName("old"), description: "before" });
    const name = uniqueName("adopted");
    const before = ctx.server.requests.filter((r) => r.method === "POST").length;
    const { id, outs } = await groups.create({ parentUid: parent, name, description: "after", adoptUid: existing.uid });
    expect(id).toBe(existing.uid);
    expect(outs).toMatchObject({ name, description: "after", adoptUid: existing.uid });
    expect(ctx.server.requests.filter((r) => r.method === "POST").length).toBe(before);
    const live = await ctx.api.get(path("groups", id));
    expect(live.body).toMatchObject({ name, description: "after" });
    // adoptUid is not a diff: it only steers create.
    expect((await groups.diff(id, outs!, { parentUid: parent, name, description: "after" })).changes).toBe(false);
  });

  it("adopts only on the first create: a later replacement creates a new group", async () => {
    const parent = await freshGroup(ctx);
    const existing = await created(ctx.api, "groups", parent, { name: uniqueName("old") });
    const inputs = { parentUid: parent, name: uniqueName("adopted"), adoptUid: existing.uid };
    const first = await groups.check({} as any, inputs);
    expect(first.inputs).toEqual(inputs);
    const { outs } = await groups.create(first.inputs!);
    // The program keeps adoptUid (as `irv export` writes it) and moves the group: a replacement.
    const moved = { ...inputs, parentUid: await freshGroup(ctx) };
    const checked = await groups.check(inputs, moved);
    expect(checked.failures).toEqual([]);
    expect(checked.inputs).not.toHaveProperty("adoptUid");
    expect((await groups.diff(existing.uid, outs!, checked.inputs!)).replaces).toEqual(["parentUid"]);
    const replacement = await groups.create(checked.inputs!);
    expect(replacement.id).not.toBe(existing.uid);
    expect(replacement.outs!.parentUid).toBe(moved.parentUid);
    // Unchanged inputs stay a no-op.
    const same = await groups.check(inputs, inputs);
    expect((await groups.diff(existing.uid, outs!, same.inputs!)).changes).toBe(false);
  });

  it("fails check, at preview, on an adoptUid under another parent", async () => {
    const parent = await freshGroup(ctx);
    const elsewhere = await created(ctx.api, "groups", await freshGroup(ctx), { name: uniqueName("x") });
    const owner = elsewhere.uid.slice(0, elsewhere.uid.lastIndexOf("/"));
    const r = await groups.check({} as any, { parentUid: parent, name: "a-0", adoptUid: elsewhere.uid });
    expect(r.failures).toEqual([{ property: "adoptUid", reason: `adoptUid: belongs to ${owner}, but parentUid is ${parent}` }]);
    expect((await groups.check({} as any, { parentUid: owner, name: "a-0", adoptUid: elsewhere.uid })).failures).toEqual([]);
    expect((await groups.check({} as any, { parentUid: UNKNOWN, name: "a-0", adoptUid: elsewhere.uid })).failures).toEqual([]);
    expect((await groups.check({} as any, { parentUid: parent, name: "a-0", adoptUid: UNKNOWN })).failures).toEqual([]);
    const assoc = await dynamicProviders.accountAssociations.check({} as any, { groupUid: parent, name: "a-0", adoptUid: owner } as any);
    expect(assoc.failures?.map((f) => f.property)).toEqual(["adoptUid"]);
  });

  it("refuses to adopt a missing group or one under another parent", async () => {
    const parent = await freshGroup(ctx);
    const elsewhere = await created(ctx.api, "groups", await freshGroup(ctx), { name: uniqueName("x") });
    await expect(groups.create({ parentUid: parent, name: "a-0", adoptUid: `${parent}/0123456789abcdef` })).rejects.toThrow(/no group with this uid exists/);
    await expect(groups.create({ parentUid: parent, name: "a-0", adoptUid: elsewhere.uid })).rejects.toThrow(
      `belongs to ${elsewhere.uid.slice(0, elsewhere.uid.lastIndexOf("/"))}, but parentUid is ${parent}`,
    );
  });
});
