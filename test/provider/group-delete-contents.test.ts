import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { providers } from "../../provider";
import { apiCreate, freshGroup, path, useProviderServer } from "../support/provider";

// A group and its contents deleted by the same run in parallel: the engine orders deletes only by
// references, and code that names a group by its literal uid (which `pulumi import` writes for a
// group whose account association shares its uid) has none.
const ctx = useProviderServer();
const groups = providers.groups;

describe("deleting a group while its contents are being deleted", () => {
  it("tries again while what the group holds shrinks, and succeeds once it is empty", async () => {
    const id = await freshGroup(ctx);
    const identity = await apiCreate(ctx, "identities", id, { name: "svc", servicePrincipal: "INGESTER" });
    await apiCreate(ctx, "accountAssociations", id, { name: "accounts", amazon: { account: "123456789012" } });
    let settled = false;
    const deleting = groups.delete(id, { uid: id, parentUid: ctx.server.organization, name: "g" } as any).finally(() => (settled = true));
    // The other deletes of the run land after the group's first refusal, one after the other.
    const refusals = () => ctx.server.requests.filter((r) => r.method === "DELETE" && r.path === path("groups", id) && r.status === 400).length;
    while (refusals() < 1 && !settled) await sleep(10);
    expect((await ctx.api.del(path("identities", identity.uid))).status).toBeLessThan(300);
    while (refusals() < 2 && !settled) await sleep(10);
    expect((await ctx.api.del(path("accountAssociations", id))).status).toBeLessThan(300);
    await deleting;
    expect((await ctx.api.get(path("groups", id))).status).toBe(404);
  });

  it("still fails, in plain words, when what it holds stays", async () => {
    const id = await freshGroup(ctx);
    await apiCreate(ctx, "identities", id, { name: "svc", servicePrincipal: "INGESTER" });
    await expect(groups.delete(id, { uid: id, parentUid: ctx.server.organization, name: "g" } as any)).rejects.toThrow(`group g (${id}) still contains 1 identity: delete or move them first`);
    expect((await ctx.api.get(path("groups", id))).status).toBe(200);
  });
});
