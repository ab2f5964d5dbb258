/** API tokens (missing, forged, expired, wrong audience, deleted identity) and token exchange. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SignJWT, exportJWK, generateKeyPair } from "jose";
import { apiFor, path, startTestServer, useServer, type Api } from "../support/server";
import { startOidcIssuer, type OidcIssuer } from "../support/oidc-issuer";
import { defaultAudience, exchange } from "../support/sts";
import { expectError, expectFieldViolation, mkGroup, mkIdentity, ok } from "../support/server-helpers";

let now = Date.now();
const ctx = useServer({ fixtures: {}, clock: () => now, allowPrivateIssuers: true });
let issuer: OidcIssuer;
beforeAll(async () => {
  issuer = await startOidcIssuer();
});
afterAll(async () => {
  await issuer.close();
});

describe("API tokens", () => {
  it("requires a bearer token this server signed, for this audience, not expired", async () => {
    const anon = ctx.api.as(null);
    const res = await anon.get(path("groups"));
    expectError(res, "UNAUTHENTICATED");
    expect(res.body.message).toMatch(/bearer/i);
    expectError(await ctx.api.as("not-a-jwt").get(path("groups")), "UNAUTHENTICATED");
    expectError(await ctx.api.request("GET", path("groups"), { headers: { authorization: `Basic ${ctx.server.token}` }, token: null }), "UNAUTHENTICATED");

    // Forged: same claims, signed by a key the server does not know.
    const { privateKey } = await generateKeyPair("ES256");
    const forged = await new SignJWT({})
      .setProtectedHeader({ alg: "ES256" })
      .setIssuer(ctx.server.authUrl)
      .setAudience(ctx.server.url)
      .setSubject(`${ctx.server.organization}/0000000000000001`)
      .setExpirationTime("1h")
      .sign(privateKey);
    const f = await ctx.api.as(forged).get(path("groups"));
    expectError(f, "UNAUTHENTICATED");
    expect(f.text).not.toContain(forged);

    // Expired: issue for 60 s, move the clock past it.
    const short = await ctx.server.issueToken(`${ctx.server.organization}/0000000000000001`, 60);
    ok(await ctx.api.as(short).get(path("groups")));
    now += 120_000;
    const e = await ctx.api.as(short).get(path("groups"));
    expect(expectError(e, "UNAUTHENTICATED").message).toContain("expired");

    // Another server's token: wrong issuer and audience.
    const other = await startTestServer({ fixtures: {} });
    try {
      expectError(await ctx.api.as(other.server.token).get(path("groups")), "UNAUTHENTICATED");
    } finally {
      await other.close();
    }
  });

  it("refuses tokens of identities that were deleted", async () => {
    const id = await mkIdentity(ctx.api, ctx.server.organization, "short-lived");
    const tok = await ctx.server.issueToken(id.uid);
    expectError(await ctx.api.as(tok).get(path("groups", ctx.server.organization)), "PERMISSION_DENIED");
    expect(ok(await ctx.api.as(tok).get(path("groups"))).groups).toEqual([]);
    ok(await ctx.api.del(path("identities", id.uid)));
    expectError(await ctx.api.as(tok).get(path("groups")), "UNAUTHENTICATED");
  });

  it("serves its OIDC discovery document and JWKS", async () => {
    const auth = apiFor(ctx.server.authUrl, null);
    const doc = ok(await auth.get("/.well-known/openid-configuration"));
    expect(doc.issuer).toBe(ctx.server.authUrl);
    const jwks = (await (await fetch(doc.jwks_uri)).json()) as { keys: Record<string, unknown>[] };
    expect(jwks.keys[0]).toMatchObject({ kty: "EC", crv: "P-256", alg: "ES256" });
    expect(jwks.keys[0].d).toBeUndefined();
  });
});

describe("token exchange", () => {
  let api: Api;
  let groupUid: string;
  beforeAll(async () => {
    now = Date.now();
    api = ctx.api;
    groupUid = (await mkGroup(api, ctx.server.organization, "workloads")).uid;
  });

  const identity = async (claimMatch: object) => ok(await api.post(path("identities", groupUid), { name: "wl-id", claimMatch })).uid as string;

  it("exchanges a matching token for a 1-hour API token for the identity (GET and POST)", async () => {
    const uid = await identity({ issuer: issuer.url, subject: "repo:acme/infra:ref:refs/heads/main" });
    const ext = await issuer.sign({ sub: "repo:acme/infra:ref:refs/heads/main", aud: defaultAudience(ctx.server) });
    const res = await exchange(ctx, ext, uid);
    const { token } = ok(res);
    const claims = JSON.parse(Buffer.from(token.split(".")[1], "base64url").toString());
    expect(claims).toMatchObject({ sub: uid, iss: ctx.server.authUrl, aud: ctx.server.url });
    expect(claims.exp - claims.iat).toBe(3600);
    // The exchanged token authenticates (and has no grants yet).
    expectError(await api.as(token).get(path("groups", groupUid)), "PERMISSION_DENIED");
    expect(ok(await api.as(token).get(path("roles"))).roles.length).toBe(5);
    ok(await exchange(ctx, ext, uid, ctx.server.url, "POST"));
    expect(JSON.stringify(ctx.server.requests)).not.toContain(ext);
    // Discovery and keys were fetched once, then cached.
    ok(await exchange(ctx, ext, uid));
    expect(issuer.hits.discovery).toBe(1);
  });

  it("matches patterns, audiences and claims", async () => {
    const uid = await identity({
      issuerPattern: "http://127\\.0\\.0\\.1:\\d+",
      subjectPattern: "repo:acme/.*",
      audience: "irv-test",
      claims: { ref: "refs/heads/main" },
      claimPatterns: { workflow: "deploy-.+" },
    });
    const good = { sub: "repo:acme/x", aud: "irv-test", ref: "refs/heads/main", workflow: "deploy-prod" };
    ok(await exchange(ctx, await issuer.sign(good), uid));
    for (const bad of [
      { ...good, sub: "repo:evil/x" },
      { ...good, sub: "xrepo:acme/x" },
      { ...good, aud: "other" },
      { ...good, ref: "refs/heads/dev" },
      { ...good, workflow: "build" },
      { ...good, workflow: undefined },
    ])
      expectError(await exchange(ctx, await issuer.sign(bad), uid), "PERMISSION_DENIED");
    // This identity trusts every loopback issuer; later tests need issuers nobody trusts.
    ok(await api.del(path("identities", uid)));
  });

  it("refuses wrong subject, wrong issuer, expired, bad signature, non-loopback http issuers", async () => {
    const uid = await identity({ issuer: issuer.url, subject: "good" });
    const wrongSubject = await exchange(ctx, await issuer.sign({ sub: "bad", aud: defaultAudience(ctx.server) }), uid);
    expect(expectError(wrongSubject, "PERMISSION_DENIED").message).toContain("subject");

    const other = await startOidcIssuer();
    try {
      const wrongIssuer = await exchange(ctx, await other.sign({ sub: "good", aud: defaultAudience(ctx.server) }), uid);
      expect(expectError(wrongIssuer, "PERMISSION_DENIED").message).toContain("issuer");
      expect(other.hits.discovery).toBe(0);
    } finally {
      await other.close();
    }
    const expired = await exchange(ctx, await issuer.sign({ sub: "good", aud: defaultAudience(ctx.server) }, { expiresIn: -60 }), uid);
    expect(expectError(expired, "UNAUTHENTICATED").message).toContain("expired");
    const forged = await issuer.signForeign({ sub: "good", aud: defaultAudience(ctx.server) });
    const bad = await exchange(ctx, forged, uid);
    expect(expectError(bad, "UNAUTHENTICATED").message).toContain("signature");
    expect(bad.text).not.toContain(forged);
    // A token for another audience than the default one (no audience rule on the identity): the
    // API's URL is not it, as on the platform, where the default is the issuer's host name.
    expectError(await exchange(ctx, await issuer.sign({ sub: "good", aud: ctx.server.url }), uid), "PERMISSION_DENIED");
    expectError(await exchange(ctx, await issuer.sign({ sub: "good", aud: "https://elsewhere" }), uid), "PERMISSION_DENIED");

    const anyIssuer = await identity({ issuerPattern: "http://.*", subject: "good" });
    const { privateKey } = await generateKeyPair("ES256");
    const remote = await new SignJWT({ sub: "good", aud: defaultAudience(ctx.server) })
      .setProtectedHeader({ alg: "ES256" })
      .setIssuer("http://issuer.example.com")
      .setExpirationTime("5m")
      .sign(privateKey);
    const insecure = await exchange(ctx, remote, anyIssuer);
    expect(expectError(insecure, "UNAUTHENTICATED").message).toContain("https");
  });

  it("refuses bad requests: no token, wrong aud, unknown identity, undecodable token", async () => {
    const uid = await identity({ issuer: issuer.url, subject: "s" });
    const ext = await issuer.sign({ sub: "s", aud: defaultAudience(ctx.server) });
    expectError(await exchange(ctx, null, uid), "UNAUTHENTICATED");
    expectFieldViolation(await exchange(ctx, ext, uid, "https://other.example"), "aud");
    expectFieldViolation(await exchange(ctx, ext, "nope"), "identity");
    expectError(await exchange(ctx, ext, `${groupUid}/0123456789abcdef`), "PERMISSION_DENIED");
    expectError(await exchange(ctx, "x.y.z", uid), "UNAUTHENTICATED");
    const sp = ok(await api.post(path("identities", groupUid), { name: "sp-id", servicePrincipal: "SERVICE_PRINCIPAL_INGESTER" })).uid;
    expectError(await exchange(ctx, ext, sp), "PERMISSION_DENIED");
  });

  it("verifies static-keys identities against their own JWKS", async () => {
    const { publicKey, privateKey } = await generateKeyPair("ES256");
    const jwk = { ...(await exportJWK(publicKey)), kid: "k1", alg: "ES256" };
    const uid = ok(
      await api.post(path("identities", groupUid), {
        name: "static",
        staticKeys: {
          issuer: "https://static.example",
          subject: "robot",
          issuerKeys: JSON.stringify({ keys: [jwk] }),
          expirationTime: new Date(Date.now() + 86_400_000).toISOString(),
        },
      }),
    ).uid;
    const sign = (sub: string, iss = "https://static.example") =>
      new SignJWT({ sub, aud: ctx.server.url }).setProtectedHeader({ alg: "ES256", kid: "k1" }).setIssuer(iss).setExpirationTime("5m").sign(privateKey);
    ok(await exchange(ctx, await sign("robot"), uid));
    expectError(await exchange(ctx, await sign("human"), uid), "PERMISSION_DENIED");
    expectError(await exchange(ctx, await sign("robot", "https://evil.example"), uid), "PERMISSION_DENIED");
    expectError(
      await exchange(ctx, await issuer.signForeign({ sub: "robot", iss: "https://static.example", aud: ctx.server.url }, { kid: "k1" }), uid),
      "UNAUTHENTICATED",
    );
  });
});
