import { describe, expect, it } from "vitest";
import { SINK_MAX } from "../../api/fields";
import { dynamicProviders } from "../../provider";
import { created, freshGroup, path, requestsTo, useProviderServer } from "../support/provider";
import { runLifecycle } from "../support/provider-lifecycle";

const ctx = useProviderServer();
const subscriptions = dynamicProviders.subscriptions;
const SINK = "https://hooks.acme.example/chainguard?token=t0k3n";

describe("events.Subscription provider", () => {
  it("runs the whole lifecycle (every change replaces; no in-place update exists)", async () => {
    await runLifecycle(ctx, {
      kind: "subscriptions",
      inputs: async () => ({ parentUid: await freshGroup(ctx), sink: SINK }),
      replace: { change: (i) => ({ ...i, sink: "https://hooks.acme.example/other" }), replaces: ["sink"] },
      created: (outs, inputs) => expect(outs).toEqual({ uid: outs.uid, parentUid: inputs.parentUid, sink: SINK }),
    });
  });

  it("replaces on a change of group as on a change of sink, creating before deleting", async () => {
    const olds = { parentUid: await freshGroup(ctx), sink: SINK };
    const moved = await subscriptions.diff("x", olds as any, { ...olds, parentUid: await freshGroup(ctx) } as any);
    expect(moved).toEqual({ changes: true, replaces: ["parentUid"], deleteBeforeReplace: false });
    expect((await subscriptions.diff("x", olds as any, { ...olds } as any)).changes).toBe(false);
  });

  it("imports: a read with no prior state gives the inputs the subscription was made with", async () => {
    const group = await freshGroup(ctx);
    const made = await created(ctx.api, "subscriptions", group, { sink: SINK });
    const read = await subscriptions.read(made.uid, {} as any);
    expect(read.id).toBe(made.uid);
    expect(read.inputs).toEqual({ parentUid: group, sink: SINK });
    expect(read.props).toEqual({ uid: made.uid, parentUid: group, sink: SINK });
    expect((await subscriptions.diff(made.uid, read.props as any, { parentUid: group, sink: SINK } as any)).changes).toBe(false);
  });

  it("treats NOT_FOUND as gone: read drops it, delete is done", async () => {
    const missing = `${await freshGroup(ctx)}/0123456789abcdef`;
    expect((await subscriptions.read(missing, { parentUid: "x", sink: SINK } as any)).id).toBe("");
    await subscriptions.delete(missing, { parentUid: "x", sink: SINK } as any);
  });

  it("checks the sink at preview: https, a host, no spaces, bounded, and never repeats it", async () => {
    const parentUid = ctx.server.organization;
    const reasons = async (sink: unknown) => (await subscriptions.check({} as any, { parentUid, sink } as any)).failures;
    expect(await reasons(SINK)).toEqual([]);
    expect(await reasons("https://localhost/callback")).toEqual([]);
    for (const bad of [
      "http://hooks.acme.example/x?token=plain-secret",
      "ftp://hooks.acme.example",
      "hooks.acme.example/x",
      "https:///path-only",
      "https:\\\\hooks.acme.example",
      " https://hooks.acme.example/x",
      "https://hooks.acme.example/a b",
      `https://hooks.acme.example/${"a".repeat(SINK_MAX)}`,
    ]) {
      const failures = await reasons(bad);
      expect(
        failures?.map((f) => f.property),
        bad,
      ).toEqual(["sink"]);
      expect(JSON.stringify(failures)).not.toContain("plain-secret");
    }
    expect((await reasons(undefined))?.map((f) => f.property)).toEqual(["sink"]);
    expect((await subscriptions.check({} as any, { sink: SINK } as any)).failures?.map((f) => f.property)).toEqual(["parentUid"]);
  });

  it("recovers a create whose answer was lost, without taking a like subscription that was there before", async () => {
    const group = await freshGroup(ctx);
    const before = await created(ctx.api, "subscriptions", group, { sink: SINK });
    const posts = requestsTo(ctx, "POST", path("subscriptions", group)).length;
    ctx.server.faults.add({ method: "POST", path: path("subscriptions", group), action: "drop-after" });
    const { id } = await subscriptions.create({ parentUid: group, sink: SINK } as any);
    expect(id).not.toBe(before.uid);
    // One create landed and was found, not made again: the group holds the old one and the new one.
    expect(requestsTo(ctx, "POST", path("subscriptions", group)).length - posts).toBe(1);
    const listed = await ctx.api.get(path("subscriptions"), { "uidp.children_of": group });
    expect(listed.body.subscriptions.map((s: { uid: string }) => s.uid).sort()).toEqual([before.uid, id].sort());
  });

  it("adopts an existing subscription of the same group and sink, and refuses one of another sink", async () => {
    const group = await freshGroup(ctx);
    const existing = await created(ctx.api, "subscriptions", group, { sink: SINK });
    const { id, outs } = await subscriptions.create({ parentUid: group, sink: SINK, adoptUid: existing.uid } as any);
    expect(id).toBe(existing.uid);
    expect(outs).toMatchObject({ uid: existing.uid, parentUid: group, sink: SINK });
    await expect(subscriptions.create({ parentUid: group, sink: "https://hooks.acme.example/other", adoptUid: existing.uid } as any)).rejects.toThrow(
      /sink of the existing subscription differ from the inputs and cannot change in place/,
    );
  });
});
