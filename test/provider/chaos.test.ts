/**
 * Every kind x create, update, delete and read x every fault kind of the chaos proxy, against a
 * live irv-server: the provider talks to the proxy, the checks talk to the server directly. Each
 * operation must succeed, and afterwards the server and what the provider returned must agree:
 * no duplicate, nothing lost, nothing half-written.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { configure, dynamicProviders } from "../../provider";
import { COLLECTIONS, type CollectionName } from "../../api/collections";
import { parentOf } from "../../api/uid";
import { FAULT_KINDS, startChaosProxy, type ChaosProxy, type FaultKind } from "../support/chaos-proxy";
import { useServer, path } from "../support/server";
import { created, builtinRole, freshGroup, uniqueName } from "../support/provider";
import type { Rec } from "../../provider/resources/spec";

const ctx = useServer();
let proxy: ChaosProxy;
let viewer: string;

beforeAll(async () => {
  // A `slow` answer (held 1.5 s) must outlast the client's per-attempt timeout (0.5 s here).
  process.env.IRV_REQUEST_TIMEOUT_MS = "500";
  proxy = await startChaosProxy(ctx.server.url, { retryAfterSeconds: 1, slowMs: 1500 });
  const settings: Record<string, string> = { "irv:apiUrl": proxy.url, "irv:token": ctx.server.token };
  configure((k) => settings[k]);
  viewer = await builtinRole(ctx, "viewer");
});
afterAll(() => proxy.close());

interface Kind {
  kind: CollectionName;
  /** Fresh inputs in a fresh group (prerequisites made through the API, unfaulted). */
  inputs(): Promise<Rec>;
  /** An in-place change and the output fields that show it; none for invites (they are replaced). */
  update?: { change(i: Rec): Rec; shows(outs: Rec): unknown; expect: unknown };
}

const claimMatch = { issuer: "https://token.actions.githubusercontent.com", subject: "repo:acme/infra:ref:refs/heads/main" };
const KINDS: Kind[] = [
  {
    kind: "groups",
    inputs: async () => ({ parentUid: await freshGroup(ctx), name: uniqueName("g") }),
    update: { change: (i) => ({ ...i, description: "changed" }), shows: (o) => o.description, expect: "changed" },
  },
  {
    kind: "identities",
    inputs: async () => ({ groupUid: await freshGroup(ctx), name: uniqueName("ci"), claimMatch }),
    update: { change: (i) => ({ ...i, description: "changed" }), shows: (o) => o.description, expect: "changed" },
  },
  {
    kind: "roles",
    inputs: async () => ({ groupUid: await freshGroup(ctx), name: uniqueName("r"), capabilities: ["groups.list"] }),
    update: { change: (i) => ({ ...i, capabilities: ["groups.list", "roles.list"] }), shows: (o) => o.capabilities, expect: ["groups.list", "roles.list"] },
  },
  {
    kind: "roleBindings",
    inputs: async () => {
      const group = await freshGroup(ctx);
      const identity = (await created(ctx.api, "identities", group, { name: uniqueName("id"), claimMatch })).uid;
      return { groupUid: group, identityUid: identity, roleUid: viewer };
    },
    update: {
      change: (i) => ({ ...i, roleUid: builtins.editor }),
      shows: (o) => o.roleUid,
      get expect() {
        return builtins.editor;
      },
    },
  },
  {
    kind: "identityProviders",
    inputs: async () => ({
      groupUid: await freshGroup(ctx),
      name: uniqueName("sso"),
      defaultRoleUid: await builtinRole(ctx, "viewer"),
      oidc: { issuer: "https://accounts.example.com", clientId: "client-1", clientSecret: "s3cret" },
    }),
    update: { change: (i) => ({ ...i, description: "changed" }), shows: (o) => o.description, expect: "changed" },
  },
  {
    kind: "accountAssociations",
    inputs: async () => ({ groupUid: await freshGroup(ctx), name: uniqueName("acct"), amazon: { account: "123456789012" } }),
    update: { change: (i) => ({ ...i, amazon: { account: "210987654321" } }), shows: (o) => (o.amazon as Rec | undefined)?.account, expect: "210987654321" },
  },
  {
    kind: "groupInvites",
    inputs: async () => ({ groupUid: await freshGroup(ctx), roleUid: viewer, ttl: "86400s", email: "new@example.com" }),
  },
];
const builtins: Record<string, string> = {};
beforeAll(async () => {
  builtins.editor = await builtinRole(ctx, "editor");
});

/** The items of `kind` directly under `parent`, read from the server, not through the proxy. */
async function liveUnder(kind: CollectionName, parent: string): Promise<Rec[]> {
  if (kind === "accountAssociations") {
    // One per group, named by the group's uid.
    const res = await liveItem(kind, parent);
    expect([200, 404], res.text).toContain(res.status);
    return res.status === 200 ? [res.body] : [];
  }
  const res = await ctx.api.get(path(kind), kind === "roleBindings" ? { group: parent } : { "uidp.children_of": parent });
  expect(res.status, res.text).toBe(200);
  return (res.body[kind] as Rec[]).filter((x) => parentOf(x.uid as string) === parent);
}

async function liveItem(kind: CollectionName, uid: string) {
  return ctx.api.get(`${path(kind)}/${uid}`);
}

/** The parent of a kind's inputs. */
const parentIn = (i: Rec) => (i.parentUid ?? i.groupUid) as string;
/** The path of the collection on the wire, for arming faults on one verb of one kind. */
const wire = (kind: CollectionName) => `${COLLECTIONS[kind].path}/`;

/** Asserts the server holds exactly the one item the provider returned, with the same fields. */
async function expectAgrees(kind: CollectionName, inputs: Rec, id: string, outputs: object): Promise<void> {
  const outs: Rec = { ...outputs };
  const items = await liveUnder(kind, parentIn(inputs));
  expect(
    items.map((x) => x.uid),
    "exactly one, and it is the one in state",
  ).toEqual([id]);
  expect(outs.uid).toBe(id);
  const live = items[0];
  for (const k of ["name", "description", "createTime", "roleUid", "expirationTime", "keyId"]) if (k in live && k in outs) expect(outs[k], k).toEqual(live[k]);
}

function provider(kind: CollectionName) {
  return (dynamicProviders as Record<string, any>)[kind];
}

// Cells run a few at a time: each arms its fault on paths only it uses (its own group or uid).
describe.concurrent.each(KINDS)("$kind through the chaos proxy", (k) => {
  it.each(FAULT_KINDS.map((f) => [f]))("create survives %s", async (fault: FaultKind) => {
    const inputs = await k.inputs();
    const armed = proxy.arm(fault, { method: "POST", path: `${wire(k.kind)}${parentIn(inputs)}` });
    const { id, outs } = await provider(k.kind).create(inputs);
    expect(armed.used, "the fault was injected").toBe(1);
    await expectAgrees(k.kind, inputs, id, outs);
    if (k.kind === "groupInvites") expect(typeof outs.code === "string" && outs.code.length > 0, "the invite's code is in state").toBe(true);
  });

  it.each(FAULT_KINDS.map((f) => [f]))("read survives %s", async (fault: FaultKind) => {
    const inputs = await k.inputs();
    const { id, outs } = await provider(k.kind).create(inputs);
    const armed = proxy.arm(fault, { method: "GET", path: `${wire(k.kind)}${id}` });
    const read = await provider(k.kind).read(id, outs);
    expect(armed.used).toBe(1);
    expect(read.id).toBe(id);
    await expectAgrees(k.kind, inputs, id, read.props);
  });

  it.each(FAULT_KINDS.map((f) => [f]))("update survives %s", async (fault: FaultKind) => {
    const inputs = await k.inputs();
    if (!k.update) {
      // An invite cannot change in place: a changed input replaces it (a create and a delete,
      // covered above and below). The update it does get changes nothing on the API (a stack
      // moving between the plugin and the dynamic classes): a read that keeps the code only
      // the create returned. That read survives the fault.
      const { id, outs } = await provider(k.kind).create(inputs);
      const replacing = await provider(k.kind).diff(id, outs, { ...inputs, email: "other@example.com" });
      expect(replacing.replaces).toEqual(["email"]);
      const armed = proxy.arm(fault, { method: "GET", path: `${wire(k.kind)}${id}` });
      const updated = await provider(k.kind).update(id, outs, inputs);
      expect(armed.used, "the fault was injected").toBe(1);
      expect(updated.outs.code, "the code only the create returned is kept").toBe(outs.code);
      expect(updated.outs.email).toBe(inputs.email);
      await expectAgrees(k.kind, inputs, id, updated.outs);
      return;
    }
    const { id, outs } = await provider(k.kind).create(inputs);
    const news = k.update.change(inputs);
    const armed = proxy.arm(fault, { method: "PATCH", path: `${wire(k.kind)}${id}` });
    const updated = await provider(k.kind).update(id, outs, news);
    expect(armed.used).toBe(1);
    expect(k.update.shows(updated.outs)).toEqual(k.update.expect);
    const live = await liveItem(k.kind, id);
    expect(live.status).toBe(200);
    expect(k.update.shows(provider(k.kind) && (await provider(k.kind).read(id, updated.outs)).props)).toEqual(k.update.expect);
    await expectAgrees(k.kind, inputs, id, updated.outs);
  });

  it.each(FAULT_KINDS.map((f) => [f]))("delete survives %s (NOT_FOUND on the retry means done)", async (fault: FaultKind) => {
    const inputs = await k.inputs();
    const { id, outs } = await provider(k.kind).create(inputs);
    const armed = proxy.arm(fault, { method: "DELETE", path: `${wire(k.kind)}${id}` });
    await provider(k.kind).delete(id, outs);
    expect(armed.used).toBe(1);
    expect((await liveItem(k.kind, id)).status).toBe(404);
    expect(await liveUnder(k.kind, parentIn(inputs))).toEqual([]);
  });
});

describe("lost answers that used to break a create", () => {
  it("an invite whose create and whose orphan's delete both lost their answers ends as one invite with its code", async () => {
    const inputs = { groupUid: await freshGroup(ctx), roleUid: viewer, ttl: "3600s" };
    proxy.reset();
    proxy.arm("drop", { method: "POST", path: wire("groupInvites") });
    proxy.arm("drop", { method: "DELETE", path: wire("groupInvites") });
    const { id, outs } = await dynamicProviders.groupInvites.create(inputs as any);
    expect(proxy.counts.drop).toBe(2);
    await expectAgrees("groupInvites", inputs, id, outs!);
    expect(outs!.code).toEqual(expect.any(String));
  });

  it("an invite whose every write loses its answer a few times still ends as exactly one invite", async () => {
    const inputs = { groupUid: await freshGroup(ctx), roleUid: viewer, ttl: "3600s" };
    proxy.reset();
    proxy.arm("drop", { method: "POST", path: wire("groupInvites"), times: 3 });
    proxy.arm("slow", { method: "DELETE", path: wire("groupInvites"), times: 2 });
    proxy.arm("reset", { method: "GET", path: COLLECTIONS.groupInvites.path, times: 2 });
    const { id, outs } = await dynamicProviders.groupInvites.create(inputs as any);
    expect(proxy.counts).toMatchObject({ drop: 3, slow: 2, reset: 2 });
    await expectAgrees("groupInvites", inputs, id, outs!);
  });

  it("an invite whose orphan cannot be deleted in time fails naming the invite left behind", async () => {
    const inputs = { groupUid: await freshGroup(ctx), roleUid: viewer, ttl: "3600s", __timeouts: { create: "3s" } };
    proxy.reset();
    proxy.arm("drop", { method: "POST", path: wire("groupInvites") });
    proxy.arm("unavailable", { method: "DELETE", path: wire("groupInvites"), times: 100 });
    const err = await dynamicProviders.groupInvites.create(inputs as any).then(
      () => undefined,
      (e: Error) => e,
    );
    const [left] = await liveUnder("groupInvites", inputs.groupUid);
    expect(err?.message).toContain(`group invite ${left.uid} was created but its response (and code) was lost`);
    expect(err?.message).toContain("delete it by hand");
    proxy.reset();
  });

  it("a create reset before it reached the server three times in a row is sent again, not given up", async () => {
    const inputs = { groupUid: await freshGroup(ctx), name: uniqueName("ci"), claimMatch };
    proxy.reset();
    proxy.arm("reset", { method: "POST", path: wire("identities"), times: 4 });
    const { id, outs } = await dynamicProviders.identities.create(inputs as any);
    expect(proxy.counts.reset).toBe(4);
    await expectAgrees("identities", inputs, id, outs!);
  });

  it("a create whose recovery look-up also loses answers neither duplicates nor gives up", async () => {
    const inputs = { groupUid: await freshGroup(ctx), identityUid: "", roleUid: viewer };
    inputs.identityUid = (await created(ctx.api, "identities", inputs.groupUid, { name: uniqueName("id"), claimMatch })).uid;
    proxy.reset();
    proxy.arm("slow", { method: "POST", path: wire("roleBindings") });
    proxy.arm("drop", { method: "GET", path: COLLECTIONS.roleBindings.path, times: 3 });
    const { id, outs } = await dynamicProviders.roleBindings.create(inputs as any);
    expect(proxy.counts).toMatchObject({ slow: 1, drop: 3 });
    await expectAgrees("roleBindings", inputs, id, outs!);
  });
});
