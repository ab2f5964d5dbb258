import { describe, expect, it } from "vitest";
import { dynamicProviders } from "../../provider";
import { created, builtinRole, freshGroup, useProviderServer } from "../support/provider";
import { runLifecycle } from "../support/provider-lifecycle";

const ctx = useProviderServer();
const invites = dynamicProviders.groupInvites;

describe("iam.GroupInvite provider", () => {
  it("runs the whole lifecycle (every change replaces; no in-place update exists)", async () => {
    const viewer = await builtinRole(ctx, "viewer");
    await runLifecycle(ctx, {
      kind: "groupInvites",
      inputs: async () => ({ groupUid: await freshGroup(ctx), roleUid: viewer, ttl: "86400s", email: "new@example.com" }),
      replace: { change: (i) => ({ ...i, email: "other@example.com", singleUse: true }), replaces: ["email", "singleUse"] },
      created: (outs, inputs) => {
        expect(typeof outs.code).toBe("string");
        expect((outs.code as string).length).toBeGreaterThan(0);
        expect(outs.ttl).toBe("86400s");
        expect(Date.parse(outs.expirationTime as string)).toBeGreaterThan(Date.now());
        expect(outs.keyId).toBeTruthy();
        expect(outs.groupUid).toBe(inputs.groupUid);
      },
    });
  });

  it("keeps the code from state through an update that changes nothing (a stack moving back from the plugin)", async () => {
    const viewer = await builtinRole(ctx, "viewer");
    const inputs = { groupUid: await freshGroup(ctx), roleUid: viewer, ttl: "3600s" };
    const { id, outs } = await invites.create(inputs);
    const updated = await invites.update(id, outs as any, inputs as any);
    expect(updated.outs).toEqual(outs);
  });

  it("keeps the code from state on read, and reads ttl-declared inputs back as ttl", async () => {
    const viewer = await builtinRole(ctx, "viewer");
    const group = await freshGroup(ctx);
    const { id, outs } = await invites.create({ groupUid: group, roleUid: viewer, ttl: "3600s" });
    const read = await invites.read(id, outs as any);
    expect(read.props!.code).toBe(outs!.code);
    // The API's defaults for omitted inputs (email "", singleUse false) are not read back as inputs.
    expect(read.inputs).toEqual({ groupUid: group, roleUid: viewer, ttl: "3600s" });
    // A read-only reference (no prior state) still gets a full state, with a null code.
    const fresh = await invites.read(id, {} as any);
    expect(fresh.props).toMatchObject({ uid: id, roleUid: viewer, keyId: outs!.keyId, code: null });
    // An import declares the ttl the invite was made with: its expiration less its creation.
    expect(fresh.inputs!.ttl).toBe("3600s");
    expect(fresh.props!.role).toMatchObject({ uid: viewer, name: "viewer" });
  });

  it("requires a ttl, and refuses expirationTime as an input (the API computes it)", async () => {
    const viewer = await builtinRole(ctx, "viewer");
    const group = ctx.server.organization;
    const none = await invites.check({} as any, { groupUid: group, roleUid: viewer } as any);
    expect(none.failures?.map((f) => f.property)).toEqual(["ttl"]);
    const old = await invites.check(
      {} as any,
      { groupUid: group, roleUid: viewer, ttl: "60s", expirationTime: new Date(Date.now() + 3600_000).toISOString() } as any,
    );
    expect(old.failures).toEqual([{ property: "expirationTime", reason: "expirationTime: is not a known field" }]);
  });

  it("checks the ttl when a change will replace the invite, not once it is made", async () => {
    const viewer = await builtinRole(ctx, "viewer");
    const group = ctx.server.organization;
    const ttl = { groupUid: group, roleUid: viewer, ttl: "3600s" };
    expect((await invites.check(ttl as any, { ...ttl, ttl: "0s" } as any)).failures?.map((f) => f.property)).toEqual(["ttl"]);
    expect((await invites.check(ttl as any, { ...ttl, ttl: "99999999s" } as any)).failures?.map((f) => f.property)).toEqual(["ttl"]);
    expect((await invites.check(ttl as any, ttl as any)).failures).toEqual([]);
    // An invite whose ttl is out of bounds today but unchanged is not made again: no failure.
    const long = { ...ttl, ttl: "99999999s" };
    expect((await invites.check(long as any, long as any)).failures).toEqual([]);
  });

  it("ignores the computed expirationTime when the program gives a ttl", async () => {
    const olds = { groupUid: "g", roleUid: "r", ttl: "60s", expirationTime: "2030-01-01T00:00:00.000Z", email: "", singleUse: false };
    expect((await invites.diff("x", olds as any, { groupUid: "g", roleUid: "r", ttl: "60s" } as any)).changes).toBe(false);
  });

  it("adopts an invite (without its code, which only create returns)", async () => {
    const viewer = await builtinRole(ctx, "viewer");
    const group = await freshGroup(ctx);
    const existing = await created(ctx.api, "groupInvites", group, { roleUid: viewer, ttl: "3600s" });
    const { id, outs } = await invites.create({ groupUid: group, roleUid: viewer, ttl: "3600s", adoptUid: existing.uid });
    expect(id).toBe(existing.uid);
    expect(outs!.code).toBeNull();
    await expect(invites.create({ groupUid: group, roleUid: viewer, ttl: "3600s", email: "x@example.com", adoptUid: existing.uid })).rejects.toThrow(
      /email of the existing group invite differ/,
    );
  });
});
