/**
 * Events subscriptions on irv-server: v2beta1 (`/events/v2beta1/subscriptions`,
 * `chainguard.platform.events.v2beta1.SubscriptionsService`) and v1 (`/events/v1/subscriptions`,
 * `chainguard.platform.events.Subscriptions`, what the Terraform provider calls), REST and gRPC,
 * over one store: the sink's rules, no update, authorization by the subscriptions capabilities,
 * lists scoped to what a caller may see, and the events a create and a delete announce.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SINK_MAX } from "../../api/fields";
import type { ItemChange } from "../../server";
import { answer, failed, grpcFor, type GrpcApi } from "../support/grpc";
import { listAll, path, useServer } from "../support/server";
import { callersOn, created, expectError, expectFieldViolation, mkGroup, ok, type Callers } from "../support/server-helpers";

const V2 = "chainguard.platform.events.v2beta1.SubscriptionsService";
const V1 = "chainguard.platform.events.Subscriptions";
const SINK = "https://hooks.acme.example/chainguard?token=t0k3n";
/** Asserts 405 UNIMPLEMENTED in the error model (a method the collection does not offer); returns the body. */
const notAllowed = (res: { status: number; body: any; text: string }) => {
  expect({ status: res.status, code: res.body?.code }, res.text).toEqual({ status: 405, code: 12 });
  return res.body;
};
const v1Path = (uid?: string) => `/events/v1/subscriptions${uid ? `/${uid}` : ""}`;

const ctx = useServer({ fixtures: {} });
let A: string, B: string;
/** Callers bound on A: a viewer (subscriptions.list), an editor (create, delete), one whose role lists groups only. */
let as: Callers;
let tokens: Record<keyof Callers, string>;
let g: GrpcApi;

beforeAll(async () => {
  const org = ctx.server.organization;
  A = (await mkGroup(ctx.api, org, "subs-a")).uid;
  B = (await mkGroup(ctx.api, org, "subs-b")).uid;
  ({ as, tokens } = await callersOn(ctx, A));
  g = grpcFor(ctx.server.url, ctx.server.token);
});
afterAll(() => g?.close());

describe("subscriptions over REST (v2beta1)", () => {
  it("creates, reads, lists and deletes; the sink is stored as given", async () => {
    const sub = ok(await ctx.api.post(path("subscriptions", A), { sink: SINK }));
    expect(sub).toEqual({ uid: sub.uid, sink: SINK });
    expect(sub.uid.startsWith(`${A}/`)).toBe(true);
    expect(ok(await ctx.api.get(path("subscriptions", sub.uid)))).toEqual(sub);
    expect(await listAll(ctx.api, "subscriptions", { "uidp.children_of": A })).toEqual([sub]);
    const page = ok(await ctx.api.get(path("subscriptions"), { "uidp.children_of": A, order_by: "sink desc" }));
    expect(page).toMatchObject({ subscriptions: [sub], totalCount: "1" });
    ok(await ctx.api.del(path("subscriptions", sub.uid)));
    expectError(await ctx.api.get(path("subscriptions", sub.uid)), "NOT_FOUND");
    expectError(await ctx.api.del(path("subscriptions", sub.uid)), "NOT_FOUND");
  });

  it("has no update: PATCH and PUT are refused, saying to replace it", async () => {
    const sub = await created(ctx.api, "subscriptions", A, { sink: SINK });
    const patch = notAllowed(await ctx.api.patch(path("subscriptions", sub.uid), { sink: "https://other.example" }, { updateMask: "sink" }));
    expect(patch.message).toMatch(/cannot be changed; delete the subscription and create a new one/);
    notAllowed(await ctx.api.request("PUT", path("subscriptions", sub.uid), { body: { sink: SINK } }));
    expect(ok(await ctx.api.get(path("subscriptions", sub.uid))).sink).toBe(SINK);
  });

  it("refuses a sink that is not an https URL with a host, or too long, naming the field and never repeating it", async () => {
    for (const sink of [
      "http://hooks.acme.example/x?token=plain-secret",
      "hooks.acme.example",
      "https:///x?token=plain-secret",
      "https://a b.example",
      `https://h.example/${"a".repeat(SINK_MAX)}`,
      42,
    ]) {
      const res = await ctx.api.post(path("subscriptions", A), { sink });
      expectFieldViolation(res, "sink");
      expect(res.text).not.toContain("plain-secret");
    }
    expectFieldViolation(await ctx.api.post(path("subscriptions", A), {}), "sink");
    // The platform's own acceptance tests subscribe https://localhost.
    ok(await ctx.api.post(path("subscriptions", A), { sink: "https://localhost/callback" }));
    expectError(await ctx.api.post(path("subscriptions", `${A}/0123456789abcdef`), { sink: SINK }), "NOT_FOUND");
    expectFieldViolation(await ctx.api.post(path("subscriptions", "not-a-uid"), { sink: SINK }), "parent");
  });

  it("holds its group up: a group with a subscription is not deleted", async () => {
    const team = await mkGroup(ctx.api, ctx.server.organization, "subs-held");
    const sub = await created(ctx.api, "subscriptions", team.uid, { sink: SINK });
    const refused = expectError(await ctx.api.del(path("groups", team.uid)), "FAILED_PRECONDITION");
    expect(refused.message).toContain("1 subscription");
    ok(await ctx.api.del(path("subscriptions", sub.uid)));
    ok(await ctx.api.del(path("groups", team.uid)));
  });
});

describe("authorization by the subscriptions capabilities", () => {
  it("a caller without the capability is refused; list needs subscriptions.list, create and delete theirs", async () => {
    const sub = await created(ctx.api, "subscriptions", A, { sink: SINK });
    // The viewer lists and reads, but cannot create or delete.
    expect((await listAll(as.viewer, "subscriptions", { "uidp.children_of": A })).map((s) => s.uid)).toContain(sub.uid);
    ok(await as.viewer.get(path("subscriptions", sub.uid)));
    expectError(await as.viewer.post(path("subscriptions", A), { sink: SINK }), "PERMISSION_DENIED");
    expectError(await as.viewer.del(path("subscriptions", sub.uid)), "PERMISSION_DENIED");
    expectError(await as.viewer.post(v1Path(A), { sink: SINK }), "PERMISSION_DENIED");
    // A role without subscriptions.list sees none, and may not read one.
    expect(await listAll(as.blind, "subscriptions", {})).toEqual([]);
    expectError(await as.blind.get(path("subscriptions", sub.uid)), "PERMISSION_DENIED");
    expect(ok(await as.blind.get(v1Path(), { id: sub.uid })).items).toEqual([]);
    // The editor creates and deletes.
    const made = ok(await as.editor.post(path("subscriptions", A), { sink: SINK }));
    ok(await as.editor.del(path("subscriptions", made.uid)));
    expectError(await ctx.api.as(null).get(path("subscriptions")), "UNAUTHENTICATED");
  });

  it("a caller of another group sees nothing of it and may not write there", async () => {
    const theirs = await created(ctx.api, "subscriptions", B, { sink: SINK });
    for (const api of [as.viewer, as.editor]) {
      expect((await listAll(api, "subscriptions", {})).map((s) => s.uid)).not.toContain(theirs.uid);
      expect(await listAll(api, "subscriptions", { "uidp.children_of": B })).toEqual([]);
      expect(ok(await api.get(v1Path(), { id: theirs.uid })).items).toEqual([]);
      expectError(await api.get(path("subscriptions", theirs.uid)), "PERMISSION_DENIED");
    }
    expectError(await as.editor.post(path("subscriptions", B), { sink: SINK }), "PERMISSION_DENIED");
    expectError(await as.editor.del(path("subscriptions", theirs.uid)), "PERMISSION_DENIED");
    expectError(await as.editor.del(v1Path(theirs.uid)), "PERMISSION_DENIED");
    expect(ok(await ctx.api.get(path("subscriptions", theirs.uid))).uid).toBe(theirs.uid);
  });
});

describe("subscriptions over v1 REST, the Terraform provider's", () => {
  it("creates with v1's shape, lists every match under items (by id too), deletes; v2beta1 sees the same", async () => {
    const made = ok(await ctx.api.post(v1Path(A), { sink: SINK }));
    expect(made).toEqual({ id: made.id, sink: SINK });
    expect(ok(await ctx.api.get(path("subscriptions", made.id)))).toEqual({ uid: made.id, sink: SINK });
    expect(ok(await ctx.api.get(v1Path(), { id: made.id }))).toEqual({ items: [made] });
    expect(ok(await ctx.api.get(v1Path(), { "uidp.children_of": A })).items).toContainEqual(made);
    notAllowed(await ctx.api.get(v1Path(made.id)));
    notAllowed(await ctx.api.request("PUT", v1Path(made.id), { body: { sink: SINK } }));
    expectFieldViolation(await ctx.api.post(v1Path(A), { sink: SINK, uid: "x" }), "uid");
    expectFieldViolation(await ctx.api.post(v1Path(A), { sink: "http://hooks.acme.example" }), "sink");
    ok(await ctx.api.del(v1Path(made.id)));
    expect(ok(await ctx.api.get(v1Path(), { id: made.id }))).toEqual({ items: [] });
  });
});

describe("subscriptions over gRPC", () => {
  it("v2beta1: creates, gets, lists and deletes as REST does; refuses as REST does", async () => {
    const sub = answer(await g.call(V2, "CreateSubscription", { parent: A, subscription: { sink: SINK } }));
    expect(sub).toEqual({ uid: sub.uid, sink: SINK });
    expect(ok(await ctx.api.get(path("subscriptions", sub.uid)))).toEqual(sub);
    expect(answer(await g.call(V2, "GetSubscription", { uid: sub.uid }))).toEqual(sub);
    expect(answer(await g.call(V2, "ListSubscriptions", { uidp: { childrenOf: A } })).subscriptions).toContainEqual(sub);
    expect(failed(await g.call(V2, "CreateSubscription", { parent: A, subscription: { sink: "http://x.example" } }))).toBe("INVALID_ARGUMENT");
    expect(failed(await g.call(V2, "CreateSubscription", { parent: A, subscription: { sink: SINK } }, { token: tokens.viewer }))).toBe("PERMISSION_DENIED");
    expect(failed(await g.call(V2, "GetSubscription", { uid: sub.uid }, { token: tokens.blind }))).toBe("PERMISSION_DENIED");
    expect(answer(await g.call(V2, "DeleteSubscription", { uid: sub.uid }))).toEqual({});
    expect(failed(await g.call(V2, "GetSubscription", { uid: sub.uid }))).toBe("NOT_FOUND");
  });

  it("v1: Create, List (by id, and by uidp) and Delete over the same subscriptions", async () => {
    const made = answer(await g.call(V1, "Create", { parentId: A, subscription: { sink: SINK } }));
    expect(made).toEqual({ id: made.id, sink: SINK });
    expect(answer(await g.call(V1, "List", { id: made.id }))).toEqual({ items: [made] });
    expect(answer(await g.call(V1, "List", { uidp: { childrenOf: A } })).items).toContainEqual(made);
    expect(answer(await g.call(V1, "List", { id: made.id }, { token: tokens.blind }))).toEqual({});
    expect(failed(await g.call(V1, "Delete", { id: made.id }, { token: tokens.viewer }))).toBe("PERMISSION_DENIED");
    answer(await g.call(V1, "Delete", { id: made.id }));
    expect(answer(await g.call(V1, "List", { id: made.id }))).toEqual({});
  });
});

describe("the events a subscription's create and delete announce", () => {
  it("names the proto's types and the subscription's group, through v2beta1 and v1 alike", async () => {
    const heard: ItemChange[] = [];
    const stop = ctx.server.changes.subscribe((c) => heard.push(c));
    try {
      const sub = await created(ctx.api, "subscriptions", A, { sink: SINK });
      ok(await ctx.api.del(path("subscriptions", sub.uid)));
      const v1 = ok(await ctx.api.post(v1Path(A), { sink: SINK }));
      ok(await ctx.api.del(v1Path(v1.id)));
      expect(heard.map((c) => [c.kind, c.type, c.uid, c.group])).toEqual([
        ["subscriptions", "dev.chainguard.api.events.subscription.created.v1", sub.uid, A],
        ["subscriptions", "dev.chainguard.api.events.subscription.deleted.v1", sub.uid, A],
        ["subscriptions", "dev.chainguard.api.events.subscription.created.v1", v1.id, A],
        ["subscriptions", "dev.chainguard.api.events.subscription.deleted.v1", v1.id, A],
      ]);
      expect(heard[0].item).toEqual({ uid: sub.uid, sink: SINK });
    } finally {
      stop();
    }
  });
});
