import { afterEach, describe, expect, it } from "vitest";
import {
  ApiError,
  DeadlineExceededError,
  FailedPreconditionError,
  InvalidArgumentError,
  IrvClient,
  NotFoundError,
  PermissionDeniedError,
  ResourceExhaustedError,
  UnauthenticatedError,
  UnavailableError,
} from "../../client";
import { dynamicProviders } from "../../provider";
import { StaticTokenSource } from "../../client/auth";
import { backoff, retryAfterMs, retryAfterWait } from "../../client/retry";
import { freshGroup, uniqueName, useProviderServer } from "../support/provider";
import { path } from "../support/server";

const ctx = useProviderServer();
const client = () => new IrvClient(ctx.server.url, new StaticTokenSource(ctx.server.token));
const posts = (p: string) => ctx.server.requests.filter((r) => r.method === "POST" && r.path === p).length;

afterEach(() => ctx.server.faults.clear());

describe("pagination", () => {
  it("follows nextPageToken to the end, keeping the order", async () => {
    const parent = await freshGroup(ctx);
    const names = Array.from({ length: 7 }, (_, i) => `child-${i}`);
    for (const name of names) await client().create("groups", parent, { name });
    const before = ctx.server.requests.length;
    const seen: string[] = [];
    for await (const g of client().list("groups", { "uidp.children_of": parent, pageSize: 3, orderBy: "name desc" })) seen.push(g.name);
    expect(seen).toEqual([...names].reverse());
    const pages = ctx.server.requests.slice(before).filter((r) => r.path === path("groups"));
    expect(pages.length).toBe(3);
    expect(pages[0].query).toMatchObject({ page_size: "3", order_by: "name desc" });
    expect(pages[1].query.page_token).toBeTruthy();
  });

  it("collects at page_size 200 by default, with filters and scope", async () => {
    const parent = await freshGroup(ctx);
    await client().create("groups", parent, { name: "needle" });
    await client().create("groups", parent, { name: "hay" });
    const found = await client().collect("groups", { "uidp.descendants_of": parent, name: "needle" });
    expect(found.map((g) => g.name)).toEqual(["needle"]);
    expect(ctx.server.requests.at(-1)!.query.page_size).toBe("200");
    const page = await client().page("groups", { "uidp.descendants_of": parent, pageSize: 1, skip: 1 });
    expect(page).toMatchObject({ totalCount: 3, skipped: 1 });
    expect(page.items).toHaveLength(1);
  });
});

describe("typed errors", () => {
  it("maps codes to classes carrying status, code, message and details", async () => {
    const org = ctx.server.organization;
    const missing = await client()
      .get("groups", `${org}/0123456789abcdef`)
      .catch((e) => e);
    expect(missing).toBeInstanceOf(NotFoundError);
    expect(missing).toMatchObject({ status: 404, code: 5, codeName: "NOT_FOUND" });

    const invalid = await client()
      .create("groups", org, { name: "Bad!" })
      .catch((e) => e);
    expect(invalid).toBeInstanceOf(InvalidArgumentError);
    expect(invalid.fieldViolations.map((v: { field: string }) => v.field)).toEqual(["name"]);
    expect(invalid.message).toMatch(/^POST \/iam\/v2beta1\/groups\/[0-9a-f]{40}: /);

    const parent = await freshGroup(ctx);
    await client().create("groups", parent, { name: "kid" });
    const notEmpty = await client()
      .delete("groups", parent)
      .catch((e) => e);
    expect(notEmpty).toBeInstanceOf(FailedPreconditionError);
    expect(notEmpty.violations[0].type).toBe("RESOURCE_NOT_EMPTY");

    const anonymous = await new IrvClient(ctx.server.url, new StaticTokenSource("not-a-token")).get("groups", org).catch((e) => e);
    expect(anonymous).toBeInstanceOf(UnauthenticatedError);
    expect(anonymous.message).not.toContain("not-a-token");
  });

  it("falls back to ApiError for codes it does not know, and to the HTTP status without a body", () => {
    const future = ApiError.fromStatus(418, { code: 99, message: "teapot", details: [] });
    expect(future.constructor).toBe(ApiError);
    expect(future).toMatchObject({ code: 99, codeName: undefined, apiMessage: "teapot" });
    expect(ApiError.fromStatus(503, undefined)).toBeInstanceOf(UnavailableError);
    expect(ApiError.fromStatus(403, "")).toBeInstanceOf(PermissionDeniedError);
  });
});

describe("retries", () => {
  it("retries GET through 503 UNAVAILABLE and connection resets", async () => {
    const org = ctx.server.organization;
    ctx.server.faults.add({ method: "GET", path: path("groups", org), action: "unavailable", times: 2, retryAfterSeconds: 0 });
    ctx.server.faults.add({ method: "GET", path: path("groups", org), action: "reset" });
    const before = ctx.server.requests.filter((r) => r.path === path("groups", org)).length;
    expect((await client().get("groups", org)).uid).toBe(org);
    expect(ctx.server.requests.filter((r) => r.path === path("groups", org)).length - before).toBe(4);
  });

  it("honours Retry-After on 429 RESOURCE_EXHAUSTED", async () => {
    const org = ctx.server.organization;
    ctx.server.faults.add({ path: path("groups", org), action: "exhausted", retryAfterSeconds: 0 });
    expect((await client().get("groups", org)).uid).toBe(org);
    // A Retry-After longer than the call's budget is not waited out: the error surfaces at once.
    ctx.server.faults.add({ path: path("groups", org), action: "exhausted", retryAfterSeconds: 30 });
    const err = await client()
      .get("groups", org, { deadline: Date.now() + 5_000 })
      .catch((e) => e);
    expect(err).toBeInstanceOf(ResourceExhaustedError);
    expect(retryAfterMs("2")).toBe(2000);
    expect(retryAfterMs(new Date(Date.now() + 60_000).toUTCString())).toBeGreaterThan(50_000);
  });

  it("waits out throttling past eight retries while the budget lasts", async () => {
    const org = ctx.server.organization;
    ctx.server.faults.add({ path: path("groups", org), action: "exhausted", retryAfterSeconds: 0, times: 12 });
    expect((await client().get("groups", org)).uid).toBe(org);
  });

  it("honours Retry-After with added jitter, never less", () => {
    expect(retryAfterWait(1000, () => 0)).toBe(1000);
    expect(retryAfterWait(1000, () => 1)).toBe(1500);
    expect(retryAfterWait(10_000, () => 1)).toBe(11_000);
    expect(retryAfterWait(0, () => 1)).toBe(0);
  });

  it("backs off exponentially with jitter", () => {
    const low = [1, 2, 3, 4].map((n) => backoff(n, 100, 10_000, () => 0));
    const high = [1, 2, 3, 4].map((n) => backoff(n, 100, 10_000, () => 1));
    expect(low).toEqual([50, 100, 200, 400]);
    expect(high).toEqual([100, 200, 400, 800]);
    expect(backoff(20, 100, 1_000, () => 1)).toBe(1_000);
  });

  it("retries a PATCH (it carries an explicit updateMask) through a reset", async () => {
    const g = await client().create("groups", await freshGroup(ctx), { name: "patched" });
    ctx.server.faults.add({ method: "PATCH", action: "reset" });
    const after = await client().update("groups", g.uid, { description: "x" }, ["description"]);
    expect(after.description).toBe("x");
  });

  it("retries a create refused with 503 (never applied) without duplicates", async () => {
    const parent = await freshGroup(ctx);
    ctx.server.faults.add({ method: "POST", path: path("groups", parent), action: "unavailable", retryAfterSeconds: 0 });
    await dynamicProviders.groups.create({ parentUid: parent, name: "once" });
    expect(await client().collect("groups", { "uidp.children_of": parent })).toHaveLength(1);
  });

  it("recovers a create whose response was dropped by looking it up: exactly one exists", async () => {
    const parent = await freshGroup(ctx);
    ctx.server.faults.add({ method: "POST", path: path("groups", parent), action: "drop-after" });
    const { id } = await dynamicProviders.groups.create({ parentUid: parent, name: "dropped" });
    const all = await client().collect("groups", { "uidp.children_of": parent });
    expect(all.map((g) => g.uid)).toEqual([id]);
    expect(posts(path("groups", parent))).toBe(1);
  });

  it("re-creates after a reset that never reached the handler: exactly one exists", async () => {
    const parent = await freshGroup(ctx);
    ctx.server.faults.add({ method: "POST", path: path("groups", parent), action: "reset" });
    const { id } = await dynamicProviders.groups.create({ parentUid: parent, name: uniqueName("reset") });
    expect((await client().collect("groups", { "uidp.children_of": parent })).map((g) => g.uid)).toEqual([id]);
  });

  it("recovers dropped creates of child kinds the same way", async () => {
    const group = await freshGroup(ctx);
    const viewer = (await client().collect("roles", { name: "viewer" })).find((r) => !r.uid.includes("/"))!.uid;
    ctx.server.faults.add({ method: "POST", path: path("identities", group), action: "drop-after" });
    const identity = await dynamicProviders.identities.create({ groupUid: group, name: "ci-0", servicePrincipal: "SERVICE_PRINCIPAL_INGESTER" });
    ctx.server.faults.add({ method: "POST", path: path("roleBindings", group), action: "drop-after" });
    const binding = await dynamicProviders.roleBindings.create({ groupUid: group, identityUid: identity.id, roleUid: viewer });
    ctx.server.faults.add({ method: "POST", path: path("accountAssociations", group), action: "drop-after" });
    await dynamicProviders.accountAssociations.create({ groupUid: group, name: "a-0" });
    expect((await client().collect("identities", { "uidp.children_of": group })).map((i) => i.uid)).toEqual([identity.id]);
    expect((await client().collect("roleBindings", { group })).map((b) => b.uid)).toEqual([binding.id]);

    // An invite's code comes only with its create: the orphan is deleted and a fresh one made.
    ctx.server.faults.add({ method: "POST", path: path("groupInvites", group), action: "drop-after" });
    const invite = await dynamicProviders.groupInvites.create({ groupUid: group, roleUid: viewer, ttl: "3600s" });
    expect(invite.outs!.code).toBeTruthy();
    const invites = await client().collect("groupInvites", { "uidp.children_of": group });
    expect(invites.map((i) => i.uid)).toEqual([invite.id]);
  });

  it("waits out a slow response, and gives up at the deadline", async () => {
    const org = ctx.server.organization;
    ctx.server.faults.add({ path: path("groups", org), action: "delay", delayMs: 300 });
    expect((await client().get("groups", org)).uid).toBe(org);
    ctx.server.faults.add({ path: path("groups", org), action: "delay", delayMs: 2_000 });
    await expect(client().get("groups", org, { deadline: Date.now() + 200 })).rejects.toBeInstanceOf(DeadlineExceededError);
  });

  it("honours customTimeouts: a create past its budget fails and says so", async () => {
    const parent = await freshGroup(ctx);
    ctx.server.faults.add({ method: "POST", path: path("groups", parent), action: "delay", delayMs: 1_500 });
    await expect(dynamicProviders.groups.create({ parentUid: parent, name: "slow", __timeouts: { create: "300ms" } })).rejects.toThrow(
      /gave up after 0.3s, the time budget for this operation \(raise it with the resource's customTimeouts\)/,
    );
  });
});
