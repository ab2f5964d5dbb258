/** Request recording (redacted) and test-only fault injection. */
import { describe, expect, it } from "vitest";
import { path, useServer } from "../support/server";
import { expectError, mkGroup, ok, role } from "../support/server-helpers";

const ctx = useServer({ fixtures: {} });

describe("recording", () => {
  it("records method, path, query, redacted body, status and caller", async () => {
    const from = ctx.server.requests.length;
    await ctx.api.get(path("groups"), { page_size: 3 });
    await ctx.api.post(path("identityProviders", ctx.server.organization), {
      name: "sso",
      defaultRole: role.viewer,
      oidc: { issuer: "https://i.example", clientId: "c", clientSecret: "hunter2-secret" },
    });
    await ctx.api.as(null).get(path("groups"));
    const [list, create, anon] = ctx.server.requests.slice(from);
    expect(list).toMatchObject({
      method: "GET",
      path: "/iam/v2beta1/groups",
      query: { page_size: "3" },
      status: 200,
      caller: `${ctx.server.organization}/0000000000000001`,
    });
    expect(create).toMatchObject({ status: 200, body: { name: "sso", oidc: { clientSecret: "[REDACTED]" } } });
    expect(JSON.stringify(ctx.server.requests)).not.toContain("hunter2-secret");
    expect(anon).toMatchObject({ status: 401 });
    expect(anon.caller).toBeUndefined();
  });

  it("redacts secrets sent in a query string too", async () => {
    const from = ctx.server.requests.length;
    await ctx.api.get(path("groups"), { access_token: "query-secret-1" });
    await ctx.api.as(null).request("GET", `${new URL(ctx.server.authUrl).pathname}/sts/exchange`, {
      query: { aud: ctx.server.url, identity: ctx.server.organization, token: "query-secret-2" },
    });
    const recorded = ctx.server.requests.slice(from);
    expect(recorded.map((r) => r.query)).toEqual([
      { access_token: "[REDACTED]" },
      { aud: ctx.server.url, identity: ctx.server.organization, token: "[REDACTED]" },
    ]);
    expect(JSON.stringify(ctx.server.requests)).not.toMatch(/query-secret/);
  });
});

describe("faults", () => {
  it("unavailable and exhausted answer in the error model with Retry-After, then clear", async () => {
    ctx.server.faults.add({ path: "/iam/v2beta1/groups", action: "unavailable", times: 2 });
    expectError(await ctx.api.get(path("groups")), "UNAVAILABLE");
    expectError(await ctx.api.get(path("groups")), "UNAVAILABLE");
    ok(await ctx.api.get(path("groups")));
    ctx.server.faults.add({ method: "POST", path: /groups/, action: "exhausted", retryAfterSeconds: 7 });
    const r = await ctx.api.post(path("groups", ctx.server.organization), { name: "x" });
    expectError(r, "RESOURCE_EXHAUSTED");
    expect(r.headers.get("retry-after")).toBe("7");
    ctx.server.faults.add({ action: "unavailable", times: 5 });
    ctx.server.faults.clear();
    ok(await ctx.api.get(path("groups")));
  });

  it("reset drops the connection before handling; drop-after handles, then drops", async () => {
    const parent = await mkGroup(ctx.api, ctx.server.organization, "faulty");
    ctx.server.faults.add({ method: "POST", path: path("groups", parent.uid), action: "reset" });
    await expect(ctx.api.post(path("groups", parent.uid), { name: "never" })).rejects.toThrow();
    ctx.server.faults.add({ method: "POST", path: path("groups", parent.uid), action: "drop-after" });
    await expect(ctx.api.post(path("groups", parent.uid), { name: "dropped" })).rejects.toThrow();
    const children = ok(await ctx.api.get(path("groups"), { "uidp.children_of": parent.uid })).groups;
    expect(children.map((g: { name: string }) => g.name)).toEqual(["dropped"]);
  });

  it("delay holds a request back while others are answered", async () => {
    ctx.server.faults.add({ path: path("groups", ctx.server.organization), action: "delay", delayMs: 300 });
    const order: string[] = [];
    const slow = ctx.api.get(path("groups", ctx.server.organization)).then((r) => (order.push("delayed"), r));
    const fast = ctx.api.get(path("roles")).then((r) => (order.push("other"), r));
    ok(await slow);
    ok(await fast);
    expect(order).toEqual(["other", "delayed"]);
  });
});
