/**
 * What irv-server accepts is bounded and nothing the caller asked for is silently dropped:
 * name lengths, `__proto__` keys in maps, PATCHes that change nothing, requests Node's parser
 * refuses, and page tokens that reveal nothing.
 */
import { connect } from "node:net";
import { describe, expect, it } from "vitest";
import { path, useServer } from "../support/server";
import { expectError, expectFieldViolation, mkGroup, ok, role, wireCaps } from "../support/server-helpers";

const ctx = useServer({ fixtures: {} });
const org = () => ctx.server.organization;

/** Sends raw bytes and resolves with the whole answer once the server closes the connection. */
function raw(url: string, request: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(request));
    let out = "";
    socket.on("data", (d) => (out += d.toString()));
    socket.on("close", () => resolve(out));
    socket.on("error", reject);
  });
}

describe("input limits", () => {
  it("bounds group names to 63 characters (as identities' and identity providers'), every other name to 256", async () => {
    expectFieldViolation(await ctx.api.post(path("groups", org()), { name: "a".repeat(64) }), "name");
    expectFieldViolation(await ctx.api.post(path("groups", org()), { name: "a".repeat(1024 * 1024 - 100) }), "name");
    ok(await ctx.api.post(path("groups", org()), { name: "a".repeat(63) }));
    const g = await mkGroup(ctx.api, org(), "short");
    expectFieldViolation(await ctx.api.patch(path("groups", g.uid), { name: "b".repeat(64) }), "name");
    const sp = { servicePrincipal: "SERVICE_PRINCIPAL_INGESTER" };
    expectFieldViolation(await ctx.api.post(path("identities", g.uid), { name: "i".repeat(64), ...sp }), "name");
    ok(await ctx.api.post(path("identities", g.uid), { name: "i".repeat(63), ...sp }));
    const caps = wireCaps(["groups.list"]);
    expectFieldViolation(await ctx.api.post(path("roles", g.uid), { name: "r".repeat(257), capabilities: caps }), "name");
    ok(await ctx.api.post(path("roles", g.uid), { name: "r".repeat(256), capabilities: caps }));
  });

  it("refuses __proto__ keys in every map instead of dropping them", async () => {
    const g = (await mkGroup(ctx.api, org(), "maps")).uid;
    const post = (collection: "identities" | "accountAssociations", rawBody: string) =>
      ctx.api.request("POST", path(collection, g), { rawBody, headers: { "content-type": "application/json" } });
    const cm = (inner: string) => `{"name":"x-id","claimMatch":{"issuer":"https://i.example","subject":"s",${inner}}}`;
    expectFieldViolation(await post("identities", cm(`"claims":{"__proto__":"admins"}`)), "claimMatch.claims.__proto__");
    expectFieldViolation(await post("identities", cm(`"claimPatterns":{"__proto__":".*"}`)), "claimMatch.claimPatterns.__proto__");
    expectFieldViolation(
      await post("accountAssociations", `{"name":"a","chainguard":{"serviceBindings":{"__proto__":"${org()}"}}}`),
      "chainguard.serviceBindings.__proto__",
    );
    // Other unusual keys are kept as given.
    const made = ok(await post("identities", cm(`"claims":{"constructor":"c","toString":"t"}`)));
    expect(made.claimMatch.claims).toEqual({ constructor: "c", toString: "t" });
    // Maps are bounded too.
    const many = Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`c${i}`, "v"]));
    expectFieldViolation(await post("identities", cm(`"claims":${JSON.stringify(many)}`)), "claimMatch.claims");
  });

  it("keeps updateTime when a PATCH changes nothing (empty, null, or the same values)", async () => {
    const g = await mkGroup(ctx.api, org(), "still", "same");
    const id = ok(await ctx.api.post(path("identities", g.uid), { name: "i-id", servicePrincipal: "SERVICE_PRINCIPAL_INGESTER" }));
    const r = ok(await ctx.api.post(path("roles", g.uid), { name: "r", capabilities: wireCaps(["groups.list"]) }));
    const cases: [string, any, object][] = [
      [path("groups", g.uid), g, { name: "still", description: "same" }],
      [path("identities", id.uid), id, { name: "i-id" }],
      [path("roles", r.uid), r, { capabilities: wireCaps(["groups.list"]) }],
    ];
    for (const [p, was, same] of cases) {
      for (const body of [{}, same]) expect(ok(await ctx.api.patch(p, body)).updateTime).toBe(was.updateTime);
      const empty = await ctx.api.request("PATCH", p, { rawBody: "", headers: { "content-type": "application/json" } });
      expect(ok(empty).updateTime).toBe(was.updateTime);
      const nul = await ctx.api.request("PATCH", p, { rawBody: "null", headers: { "content-type": "application/json" } });
      expect(ok(nul).updateTime).toBe(was.updateTime);
      expect(ok(await ctx.api.get(p)).updateTime).toBe(was.updateTime);
    }
  });
});

describe("requests refused by the HTTP parser", () => {
  it("answer an over-long URL or header block with 431 in the error model", async () => {
    const res = await fetch(`${ctx.server.url}/iam/v2beta1/groups?x=${"a".repeat(20_000)}`, {
      headers: { authorization: `Bearer ${ctx.server.token}` },
    });
    expect(res.status).toBe(431);
    const body: any = await res.json();
    expect(body).toMatchObject({ code: 3, message: expect.stringMatching(/^Invalid argument: /) });
    expect(body.details[1].fieldViolations[0].field).toBe("headers");

    const headers: Record<string, string> = { authorization: `Bearer ${ctx.server.token}` };
    for (let i = 0; i < 400; i++) headers[`x-h${i}`] = "v".repeat(40);
    const many = await fetch(`${ctx.server.url}/iam/v2beta1/groups`, { headers });
    expect(many.status).toBe(431);
    expect(((await many.json()) as { code: number }).code).toBe(3);
  });

  it("answer a malformed request with 400 in the error model", async () => {
    const answer = await raw(ctx.server.url, "GET /iam/v2beta1/groups HTTP/1.1\r\nHost: x\r\nContent-Length: nope\r\n\r\n");
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    const body = JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4));
    expect(body).toMatchObject({ code: 3, details: [{ reason: "INVALID_ARGUMENT" }, { fieldViolations: [{ field: "request" }] }] });
    // The server is still up.
    ok(await ctx.api.get(path("groups", org())));
  });
});

describe("page tokens", () => {
  it("reveal nothing of what they point at (an invitee's email)", async () => {
    const g = (await mkGroup(ctx.api, org(), "invites")).uid;
    for (const email of ["alice.secret@example.com", "bob.secret@example.com"])
      ok(await ctx.api.post(path("groupInvites", g), { roleUid: role.viewer, ttl: "86400s", email }));
    const page = ok(await ctx.api.get(path("groupInvites"), { "uidp.descendants_of": g, order_by: "email", page_size: 1 }));
    const token: string = page.nextPageToken;
    expect(token).toBeTruthy();
    for (const decoded of [
      token,
      Buffer.from(token, "base64url").toString("latin1"),
      ...token.split(".").map((p) => Buffer.from(p, "base64url").toString("latin1")),
    ])
      expect(decoded).not.toContain("secret");
    const next = ok(await ctx.api.get(path("groupInvites"), { "uidp.descendants_of": g, order_by: "email", page_size: 1, page_token: token }));
    expect(next.groupInvites[0].email).toBe("bob.secret@example.com");
    expectFieldViolation(await ctx.api.get(path("groupInvites"), { "uidp.descendants_of": g, order_by: "email", page_token: `${token}x` }), "page_token");
  });
});

describe("error model under the limits", () => {
  it("a body over 1 MiB is INVALID_ARGUMENT, not a crash", async () => {
    const res = await ctx.api.post(path("groups", org()), { name: "x", description: "d".repeat(1024 * 1024 + 10) });
    expectError(res, "INVALID_ARGUMENT");
  });
});
