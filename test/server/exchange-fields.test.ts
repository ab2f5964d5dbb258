/**
 * The token exchange's fields as the platform reads them: query parameters or a form body (as the
 * SDK's exchanger sends them over HTTP/1), never a JSON body; `cap` and `scope`/`scopes` narrow
 * the token to what was asked and is held; the audiences an identity accepts when it names none;
 * and a successful exchange is the identity's federation (its `lastSeenTime`).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeJwt, exportJWK, generateKeyPair, SignJWT } from "jose";
import { STS_EXCHANGE_PATH } from "../../api";
import { grpcFor } from "../support/grpc";
import { startOidcIssuer, type OidcIssuer } from "../support/oidc-issuer";
import { apiFor, path, useServer } from "../support/server";
import { bind, expectError, expectFieldViolation, mkGroup, ok, role } from "../support/server-helpers";
import { defaultAudience, exchange } from "../support/sts";

const ctx = useServer({ fixtures: {}, allowPrivateIssuers: true });
let issuer: OidcIssuer;
let group: string;
let sub: string;
let other: string;
let uid: string;
const subject = "repo:acme/narrow:ref:refs/heads/main";

beforeAll(async () => {
  issuer = await startOidcIssuer();
  const org = ctx.server.organization;
  group = (await mkGroup(ctx.api, org, "narrow-a")).uid;
  sub = (await mkGroup(ctx.api, group, "narrow-a-sub")).uid;
  other = (await mkGroup(ctx.api, org, "narrow-b")).uid;
  uid = ok(await ctx.api.post(path("identities", org), { name: "narrowed", claimMatch: { issuer: issuer.url, subject } })).uid;
  // Viewer everywhere, owner on group b and on a's subgroup.
  await bind(ctx.api, org, uid, role.viewer);
  await bind(ctx.api, other, uid, role.owner);
  await bind(ctx.api, sub, uid, role.owner);
});
afterAll(() => issuer?.close());

const external = () => issuer.sign({ sub: subject, aud: defaultAudience(ctx.server) });
const ask = async (query: Record<string, string | string[]>, method = "GET") =>
  apiFor(ctx.server.authUrl, null).request(method, STS_EXCHANGE_PATH, { token: await external(), query: { aud: ctx.server.url, identity: uid, ...query } });

describe("where the exchange reads its fields", () => {
  it("reads a form body, repeated fields included, as the SDK's exchanger sends it", async () => {
    const form = new URLSearchParams([
      ["aud", ctx.server.url],
      ["identity", uid],
      ["cap", "groups.list"],
      ["cap", "CAP_IAM_GROUPS_CREATE"],
    ]);
    const res = await apiFor(ctx.server.authUrl, null).request("POST", STS_EXCHANGE_PATH, {
      token: await external(),
      rawBody: form.toString(),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(decodeJwt(ok(res).token)).toMatchObject({ sub: uid, cap: ["groups.list", "groups.create"] });
  });

  it("does not read a JSON body: its identity is not there, so the exchange signs no one in", async () => {
    const res = await apiFor(ctx.server.authUrl, null).request("POST", STS_EXCHANGE_PATH, {
      token: await external(),
      query: { aud: ctx.server.url },
      body: { identity: uid },
    });
    expect(expectError(res, "PERMISSION_DENIED").message).toContain("(identity)");
  });

  it("names a field given twice with two values, or malformed", async () => {
    expectFieldViolation(await ask({ aud: [ctx.server.url, ctx.server.registryHost] }), "aud");
    expectFieldViolation(await ask({ identity: [uid, `${ctx.server.organization}/0123456789abcdef`] }), "identity");
    expectFieldViolation(await ask({ identity_provider: "nope" }), "identity_provider");
    expectFieldViolation(await ask({ scopes: "nope" }), "scopes");
    expectFieldViolation(
      await ask({ scopes: Array.from({ length: 65 }, (_, i) => `${ctx.server.organization}/${i.toString(16).padStart(16, "0")}`) }),
      "scopes",
    );
    const v = expectFieldViolation(await ask({ cap: "group.list" }), "cap");
    expect(v[0].description).toContain('did you mean "groups.list"');
  });
});

describe("cap and scopes narrow the token", () => {
  it("cap: only the capabilities asked, and only where held", async () => {
    const token = ok(await ask({ cap: ["groups.list", "groups.create"] })).token as string;
    const api = ctx.api.as(token);
    ok(await api.get(path("groups", group)));
    // groups.create is held on b (owner), not on a (viewer only).
    ok(await api.post(path("groups", other), { name: "made-narrow" }));
    expect(expectError(await api.post(path("groups", group), { name: "not-here" }), "PERMISSION_DENIED").message).toContain("narrowed");
    // Held (owner on b) but not asked for.
    expectError(await api.post(path("identities", other), { name: "not-asked", servicePrincipal: "SERVICE_PRINCIPAL_COSIGNED" }), "PERMISSION_DENIED");
    // The same identity's plain token still has everything it holds.
    ok(await ctx.api.as(ok(await ask({})).token).post(path("identities", other), { name: "plain-token", servicePrincipal: "SERVICE_PRINCIPAL_COSIGNED" }));
  });

  it("scopes: the bindings at or above each scope, acting there and below; none from below it", async () => {
    const api = ctx.api.as(ok(await ask({ scopes: group })).token);
    // The viewer binding at the root applies at a, and below.
    ok(await api.get(path("groups", group)));
    ok(await api.get(path("groups", sub)));
    // Not above the scope, nor beside it.
    expectError(await api.get(path("groups", ctx.server.organization)), "PERMISSION_DENIED");
    expectError(await api.get(path("groups", other)), "PERMISSION_DENIED");
    // The owner binding on a's subgroup lies below the scope: not part of it (the protos' example).
    expectError(await api.post(path("groups", sub), { name: "below-scope" }), "PERMISSION_DENIED");
    // `scope` (the older single field) and `scopes` add up.
    const both = ctx.api.as(ok(await ask({ scope: group, scopes: other })).token);
    ok(await both.post(path("groups", other), { name: "in-scope-b" }));
    ok(await both.get(path("groups", group)));
  });

  it("over gRPC too, through the same REST operation", async () => {
    const g = grpcFor(ctx.server.url, null);
    try {
      const r = await g.call(
        "chainguard.platform.oidc.SecurityTokenService",
        "Exchange",
        { aud: [ctx.server.url], identity: uid, cap: ["groups.list"], scopes: [group] },
        { token: await external() },
      );
      expect("ok" in r && decodeJwt(r.ok.token)).toMatchObject({ cap: ["groups.list"], scp: [group] });
    } finally {
      g.close();
    }
  });
});

describe("what an identity accepts when it names no audience", () => {
  it("claimMatch: the host of this server's issuer, as the platform's is its issuer's host name", async () => {
    expect(defaultAudience(ctx.server)).toBe(new URL(ctx.server.url).host);
    ok(await exchange(ctx, await issuer.sign({ sub: subject, aud: defaultAudience(ctx.server) }), uid));
    ok(await exchange(ctx, await issuer.sign({ sub: subject, aud: ["elsewhere", defaultAudience(ctx.server)] }), uid));
    expectError(await exchange(ctx, await issuer.sign({ sub: subject, aud: ctx.server.url }), uid), "PERMISSION_DENIED");
  });

  it("staticKeys: the allowed audiences (that host, and the API's URL), or exactly the one it names", async () => {
    const { publicKey, privateKey } = await generateKeyPair("ES256");
    const issuerKeys = JSON.stringify({ keys: [{ ...(await exportJWK(publicKey)), kid: "k", alg: "ES256" }] });
    const make = async (name: string, audiences?: string[]) =>
      ok(
        await ctx.api.post(path("identities", ctx.server.organization), {
          name,
          staticKeys: { issuer: "https://static.example", subject: "robot", issuerKeys, ...(audiences ? { audiences } : {}) },
        }),
      ).uid;
    const sign = (aud: string) =>
      new SignJWT({ sub: "robot", aud })
        .setProtectedHeader({ alg: "ES256", kid: "k" })
        .setIssuer("https://static.example")
        .setExpirationTime("5m")
        .sign(privateKey);
    const plain = await make("static-plain");
    ok(await exchange(ctx, await sign(defaultAudience(ctx.server)), plain));
    ok(await exchange(ctx, await sign(ctx.server.url), plain));
    expectError(await exchange(ctx, await sign("custom"), plain), "PERMISSION_DENIED");
    const own = await make("static-own", ["custom"]);
    ok(await exchange(ctx, await sign("custom"), own));
    expectError(await exchange(ctx, await sign(ctx.server.url), own), "PERMISSION_DENIED");
    const v = expectFieldViolation(
      await ctx.api.post(path("identities", ctx.server.organization), {
        name: "static-two",
        staticKeys: { issuer: "https://static.example", subject: "robot", issuerKeys, audiences: ["a", "b"] },
      }),
      "staticKeys.audiences",
    );
    expect(v[0].description).toContain("exactly one");
  });
});

describe("lastSeenTime", () => {
  it("is the creation time until the identity federates, then the time of its last exchange; updateTime does not move", async () => {
    let now = Date.now();
    const { startTestServer } = await import("../support/server");
    const srv = await startTestServer({ fixtures: {}, allowPrivateIssuers: true, clock: () => now });
    try {
      const id = ok(await srv.api.post(path("identities", srv.server.organization), { name: "fed", claimMatch: { issuer: issuer.url, subject } }));
      expect(id.lastSeenTime).toBe(id.createTime);
      now += 60_000;
      ok(await exchange(srv, await issuer.sign({ sub: subject, aud: defaultAudience(srv.server) }), id.uid));
      const seen = ok(await srv.api.get(path("identities", id.uid)));
      expect(seen.lastSeenTime).toBe(new Date(now).toISOString());
      expect(seen.updateTime).toBe(id.updateTime);
      // A refused exchange is no federation.
      now += 60_000;
      expectError(await exchange(srv, await issuer.sign({ sub: "someone-else", aud: defaultAudience(srv.server) }), id.uid), "PERMISSION_DENIED");
      expect(ok(await srv.api.get(path("identities", id.uid))).lastSeenTime).toBe(seen.lastSeenTime);
    } finally {
      await srv.close();
    }
  });
});
