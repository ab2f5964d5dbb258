/**
 * The token exchange against a hostile, unauthenticated caller: no stall from crafted issuers,
 * no lax token checks, claims compared by type, and answers that do not depend on which
 * identity uids exist.
 */
import { SignJWT, exportJWK, generateKeyPair, type JWTPayload } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOidcIssuer, type OidcIssuer } from "../support/oidc-issuer";
import { defaultAudience, exchange, soon, unsigned } from "../support/sts";
import { path, useServer } from "../support/server";
import { expectError, expectFieldViolation, mkGroup, ok } from "../support/server-helpers";

const ctx = useServer({ fixtures: {}, allowPrivateIssuers: true });
let issuer: OidcIssuer;
let group: string;

beforeAll(async () => {
  issuer = await startOidcIssuer();
  group = (await mkGroup(ctx.api, ctx.server.organization, "wl-grp")).uid;
});
afterAll(() => issuer.close());

const identity = async (claimMatch: object, name = "wl-id") => ok(await ctx.api.post(path("identities", group), { name, claimMatch })).uid as string;

describe("issuer patterns cannot stall the server", () => {
  it("matches a crafted issuer against a backtracking-prone pattern in linear time", async () => {
    const uid = await identity({ issuerPattern: "https://([a-z0-9-]+\\.?)+\\.example\\.com", subject: "s" }, "redos");
    // 300 bytes: a backtracking engine takes about 2^70 steps on this (the reported 230 took 4.8 s).
    const iss = `https://${"a".repeat(300)}!`;
    expectError(await exchange(ctx, unsigned({ iss, sub: "s", aud: ctx.server.url, exp: soon() }), uid), "PERMISSION_DENIED");
    // An issuer longer than any URL needs is refused before any matching.
    const long = await exchange(ctx, unsigned({ iss: `https://${"a".repeat(2048)}.example.com`, sub: "s", aud: ctx.server.url, exp: soon() }), uid);
    expect(expectError(long, "UNAUTHENTICATED").message).toContain("iss");
    // The server still answers: the exchange did not hold the event loop.
    ok(await ctx.api.get(path("groups", group)));
    ok(await ctx.api.del(path("identities", uid)));
  });

  it("refuses patterns RE2 cannot match in linear time (backreferences, lookaround)", async () => {
    for (const subjectPattern of ["(a)\\1", "(?=a)a", "(?<!b)a"]) {
      const res = await ctx.api.post(path("identities", group), {
        name: "bad",
        claimMatch: { issuer: issuer.url, subjectPattern },
      });
      expect(expectFieldViolation(res, "claimMatch.subjectPattern").find((v) => v.field === "claimMatch.subjectPattern")!.description).toContain("RE2");
    }
    expectFieldViolation(
      await ctx.api.post(path("identities", group), { name: "bad", claimMatch: { issuer: issuer.url, subjectPattern: "a".repeat(1025) } }),
      "claimMatch.subjectPattern",
    );
  });
});

describe("external token checks", () => {
  it("refuses tokens with no exp, exp far ahead, iat or nbf in the future, or claims of the wrong type", async () => {
    const uid = await identity({ issuer: issuer.url, subject: "good" }, "strict");
    const now = Math.floor(Date.now() / 1000);
    const aud = defaultAudience(ctx.server);
    ok(await exchange(ctx, await issuer.sign({ sub: "good", aud }), uid));
    const cases: [string, JWTPayload][] = [
      ["no exp", { sub: "good", aud, exp: undefined }],
      ["a century ahead", { sub: "good", aud, exp: now + 100 * 365 * 86_400 }],
      ["two days ahead", { sub: "good", aud, exp: now + 2 * 86_400 }],
      ["iat ten years ahead", { sub: "good", aud, iat: now + 10 * 365 * 86_400 }],
      ["nbf in an hour", { sub: "good", aud, nbf: now + 3600 }],
      // Claims of the wrong type, as a hostile issuer signs them: the types say they cannot be.
      ["sub as an array", { sub: ["good"] as unknown as string, aud }],
      ["sub as a number", { sub: 7 as unknown as string, aud }],
      ["aud as a number", { sub: "good", aud: 5 as unknown as string }],
      ["exp as a string", { sub: "good", aud, exp: `${now + 60}` as unknown as number }],
    ];
    for (const [what, claims] of cases) {
      const res = await exchange(ctx, await issuer.sign(claims), uid);
      expect({ what, status: res.status }).toEqual({ what, status: 401 });
      expectError(res, "UNAUTHENTICATED");
    }
  });

  it("compares claims by type: arrays, joined strings and missing claims never match", async () => {
    const aud = defaultAudience(ctx.server);
    const admins = await identity({ issuer: issuer.url, subject: "u", claims: { team: "admins" } }, "admins");
    ok(await exchange(ctx, await issuer.sign({ sub: "u", aud, team: "admins" }), admins));
    expectError(await exchange(ctx, await issuer.sign({ sub: "u", aud, team: ["admins"] }), admins), "PERMISSION_DENIED");
    expectError(await exchange(ctx, await issuer.sign({ sub: "u", aud, team: { admins: true } }), admins), "PERMISSION_DENIED");

    const joined = await identity({ issuer: issuer.url, subject: "u", claims: { team: "a,b" } }, "joined");
    expectError(await exchange(ctx, await issuer.sign({ sub: "u", aud, team: ["a", "b"] }), joined), "PERMISSION_DENIED");

    const empty = await identity({ issuer: issuer.url, subject: "u", claims: { team: "" } }, "empty");
    expectError(await exchange(ctx, await issuer.sign({ sub: "u", aud }), empty), "PERMISSION_DENIED");
    ok(await exchange(ctx, await issuer.sign({ sub: "u", aud, team: "" }), empty));

    const pattern = await identity({ issuer: issuer.url, subject: "u", claimPatterns: { team: ".*" } }, "pattern");
    expectError(await exchange(ctx, await issuer.sign({ sub: "u", aud }), pattern), "PERMISSION_DENIED");
    expectError(await exchange(ctx, await issuer.sign({ sub: "u", aud, team: 1 }), pattern), "PERMISSION_DENIED");
    expectError(await exchange(ctx, await issuer.sign({ sub: "u", aud, team: ["x"] }), pattern), "PERMISSION_DENIED");
    ok(await exchange(ctx, await issuer.sign({ sub: "u", aud, team: "x" }), pattern));
    // A subject pattern never matches one element of an array subject.
    const subjects = await identity({ issuer: issuer.url, subjectPattern: "repo:acme/.*" }, "subjects");
    // A claim of the wrong type, as a hostile issuer signs it.
    expectError(await exchange(ctx, await issuer.sign({ sub: ["repo:acme/x"] as unknown as string, aud }), subjects), "UNAUTHENTICATED");
  });

  it("refuses a __proto__ claim rule instead of dropping it", async () => {
    const res = await ctx.api.request("POST", path("identities", group), {
      rawBody: `{"name":"proto","claimMatch":{"issuer":"${issuer.url}","subject":"u","claims":{"__proto__":"admins"}}}`,
      headers: { "content-type": "application/json" },
    });
    expectFieldViolation(res, "claimMatch.claims.__proto__");
  });
});

describe("the exchange does not tell which identities exist", () => {
  it("answers an unknown uid exactly as an identity the token does not satisfy", async () => {
    const real = await identity({ issuer: issuer.url, subject: "only-this" }, "oracle");
    const missing = `${group}/0123456789abcdef`;
    const aud = defaultAudience(ctx.server);
    const other = await startOidcIssuer();
    try {
      const tokens = [
        unsigned({ iss: "https://token.actions.githubusercontent.com", sub: "x", aud, exp: soon() }),
        unsigned({ iss: issuer.url, sub: "only-this", aud, exp: soon() }),
        await issuer.signForeign({ sub: "only-this", aud }),
        await issuer.sign({ sub: "someone-else", aud }),
        await other.sign({ sub: "only-this", aud }),
        await issuer.sign({ sub: "only-this", aud }, { expiresIn: -60 }),
      ];
      for (const t of tokens) {
        const a = await exchange(ctx, t, real);
        const b = await exchange(ctx, t, missing);
        expect(a.status).not.toBe(200);
        expect({ status: b.status, text: b.text.replaceAll(missing, "UID") }).toEqual({ status: a.status, text: a.text.replaceAll(real, "UID") });
      }
      expect(other.hits.discovery).toBe(0);
    } finally {
      await other.close();
    }
  });

  it("never lets one identity's static keys vouch for another identity that trusts the same issuer", async () => {
    const { publicKey, privateKey } = await generateKeyPair("ES256");
    const jwk = { ...(await exportJWK(publicKey)), kid: "mine", alg: "ES256" };
    // Someone who may create identities publishes keys for the issuer another identity trusts.
    ok(
      await ctx.api.post(path("identities", group), {
        name: "static",
        staticKeys: {
          issuer: issuer.url,
          subject: "victim",
          issuerKeys: JSON.stringify({ keys: [jwk] }),
          expirationTime: new Date(Date.now() + 86_400_000).toISOString(),
        },
      }),
    );
    const victim = await identity({ issuer: issuer.url, subject: "victim" }, "victim");
    const minted = await new SignJWT({ sub: "victim", aud: ctx.server.url })
      .setProtectedHeader({ alg: "ES256", kid: "mine" })
      .setIssuer(issuer.url)
      .setExpirationTime("5m")
      .sign(privateKey);
    expectError(await exchange(ctx, minted, victim), "PERMISSION_DENIED");
    ok(await exchange(ctx, await issuer.sign({ sub: "victim", aud: defaultAudience(ctx.server) }), victim));
  });
});
