import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { configure, dynamicProviders } from "../../provider";
import { startChaosProxy, type ChaosProxy } from "../support/chaos-proxy";
import { created, freshGroup, path, useProviderServer } from "../support/provider";

// A group and its contents deleted by the same run in parallel: the engine orders deletes only by
// references, and code that names a group by its literal uid (which `pulumi import` writes for a
// group whose account association shares its uid) has none.
// The provider talks to the server through a proxy that holds the group's DELETEs, so that the
// test deletes the contents between two of its attempts however slowly either side runs (the
// provider waits a second between them; a loaded machine can take longer than that to act).
const ctx = useProviderServer();
const groups = dynamicProviders.groups;
let proxy: ChaosProxy;
beforeAll(async () => {
  proxy = await startChaosProxy(ctx.server.url);
  const settings: Record<string, string> = { "irv:apiUrl": proxy.url, "irv:token": ctx.server.token };
  configure((k) => settings[k]);
});
afterAll(() => proxy.close());

describe("deleting a group while its contents are being deleted", () => {
  it("tries again while what the group holds shrinks, and succeeds once it is empty", async () => {
    const id = await freshGroup(ctx);
    const identity = await created(ctx.api, "identities", id, { name: "svc", servicePrincipal: "SERVICE_PRINCIPAL_INGESTER" });
    await created(ctx.api, "accountAssociations", id, { name: "accounts", amazon: { account: "123456789012" } });
    const attempts = proxy.hold({ method: "DELETE", path: path("groups", id) });
    const deleting = groups.delete(id, { uid: id, parentUid: ctx.server.organization, name: "g-0" } as any);
    const refusals = () => ctx.server.requests.filter((r) => r.method === "DELETE" && r.path === path("groups", id) && r.status === 400).length;
    // The first attempt is refused (an identity and an association); the other deletes of the
    // run land before the next attempt, one at a time.
    await attempts.until(1);
    attempts.release();
    await attempts.until(2);
    expect(refusals()).toBe(1);
    expect((await ctx.api.del(path("identities", identity.uid))).status).toBeLessThan(300);
    attempts.release();
    await attempts.until(3);
    expect(refusals()).toBe(2);
    expect((await ctx.api.del(path("accountAssociations", id))).status).toBeLessThan(300);
    attempts.release();
    await deleting;
    attempts.stop();
    expect(refusals()).toBe(2);
    expect((await ctx.api.get(path("groups", id))).status).toBe(404);
  });

  it("still fails, in plain words, when what it holds stays", async () => {
    const id = await freshGroup(ctx);
    await created(ctx.api, "identities", id, { name: "svc", servicePrincipal: "SERVICE_PRINCIPAL_INGESTER" });
    await expect(groups.delete(id, { uid: id, parentUid: ctx.server.organization, name: "g-0" } as any)).rejects.toThrow(
      `group g-0 (${id}) still contains 1 identity: delete or move them first`,
    );
    expect((await ctx.api.get(path("groups", id))).status).toBe(200);
  });
});

// The platform need not send the PreconditionFailure detail irv-server sends, nor a message that
// changes as the contents go: the proxy answers the group's DELETEs with the code and a fixed
// message only, as such a server would.
function withoutDetail(id: string): void {
  proxy.rewrite({ method: "DELETE", path: path("groups", id) }, (_status, body) => {
    const s = JSON.parse(body.toString());
    if (s.code !== 9) return body;
    const info = s.details.filter((d: { "@type": string }) => d["@type"].endsWith("ErrorInfo"));
    return Buffer.from(JSON.stringify({ code: 9, message: "Failed precondition: group is not empty", details: info }));
  });
}

describe("deleting a group against a server that does not say what the group holds", () => {
  it("tries again on the code and message alone, and succeeds once it is empty", async () => {
    const id = await freshGroup(ctx);
    const identity = await created(ctx.api, "identities", id, { name: "svc", servicePrincipal: "SERVICE_PRINCIPAL_INGESTER" });
    withoutDetail(id);
    const attempts = proxy.hold({ method: "DELETE", path: path("groups", id) });
    const outcome = groups.delete(id, { uid: id, parentUid: ctx.server.organization, name: "g-0" } as any).then(
      () => "deleted",
      (e: Error) => e.message,
    );
    await attempts.until(1);
    attempts.release();
    // A provider that gives up on the first refusal settles here instead of trying again.
    const next = await Promise.race([attempts.until(2).then(() => "tried again"), outcome]);
    expect(next).toBe("tried again");
    expect((await ctx.api.del(path("identities", identity.uid))).status).toBeLessThan(300);
    attempts.release();
    expect(await outcome).toBe("deleted");
    attempts.stop();
    expect((await ctx.api.get(path("groups", id))).status).toBe(404);
  });

  it("gives up after a bounded number of tries, in plain words, when the refusal stays", async () => {
    const id = await freshGroup(ctx);
    await created(ctx.api, "identities", id, { name: "svc", servicePrincipal: "SERVICE_PRINCIPAL_INGESTER" });
    withoutDetail(id);
    const before = ctx.server.requests.filter((r) => r.method === "DELETE" && r.path === path("groups", id)).length;
    await expect(groups.delete(id, { uid: id, parentUid: ctx.server.organization, name: "g-0" } as any)).rejects.toThrow(
      `group g-0 (${id}) could not be deleted (group is not empty): if it still holds anything, delete or move it first`,
    );
    expect(ctx.server.requests.filter((r) => r.method === "DELETE" && r.path === path("groups", id)).length - before).toBe(5);
    expect((await ctx.api.get(path("groups", id))).status).toBe(200);
  });
});
