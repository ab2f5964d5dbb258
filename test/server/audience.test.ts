/**
 * Registry-audience tokens (spec, Authentication 6): the exchange issues a token for the API's
 * audience or for the registry host; the API refuses registry tokens and the registry host
 * (`/v2/`) refuses API tokens.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeJwt } from "jose";
import { STS_EXCHANGE_PATH } from "../../api";
import { startServer } from "../../server";
import { startOidcIssuer, type OidcIssuer } from "../support/oidc-issuer";
import { defaultAudience, exchange } from "../support/sts";
import { apiFor, path, startTestServer, useServer } from "../support/server";
import { expectError, expectFieldViolation, mkIdentity, ok } from "../support/server-helpers";

const ctx = useServer({ fixtures: {}, allowPrivateIssuers: true });
let issuer: OidcIssuer;
let identity: string;
const subject = "repo:acme/infra:ref:refs/heads/main";

beforeAll(async () => {
  issuer = await startOidcIssuer();
  identity = (await mkIdentity(ctx.api, ctx.server.organization, "ci-bot", { claimMatch: { issuer: issuer.url, subject } })).uid;
});
afterAll(() => issuer?.close());

/** Exchanges a token of the issuer's for the identity, asking for audience `aud`. */
const exchangeFor = async (aud: string) => exchange(ctx, await issuer.sign({ sub: subject, aud: defaultAudience(ctx.server) }), identity, aud);
const registry = (token: string | null, authorization?: string) =>
  apiFor(ctx.server.url, token).request("GET", "/v2/", authorization === undefined ? {} : { token: null, headers: { authorization } });

describe("registry-audience tokens", () => {
  it("default the registry host to the server's own host:port", () => {
    expect(ctx.server.registryHost).toBe(new URL(ctx.server.url).host);
  });

  it("are issued by exchange for aud=<registry host>, and accepted by the registry host only", async () => {
    const reg = ok(await exchangeFor(ctx.server.registryHost)).token as string;
    expect(decodeJwt(reg)).toMatchObject({ aud: ctx.server.registryHost, sub: identity, iss: ctx.server.authUrl });
    // The scheme and a trailing slash are tolerated in the request; the token carries the bare host.
    expect(decodeJwt(ok(await exchangeFor(`https://${ctx.server.registryHost}/`)).token).aud).toBe(ctx.server.registryHost);

    expect(ok(await registry(reg))).toEqual({});
    const refused = await ctx.api.as(reg).get(path("groups"));
    expect(expectError(refused, "UNAUTHENTICATED").message).toContain(`accepts only tokens exchanged with aud=${ctx.server.url}`);
    expectError(await ctx.api.as(reg).get(path("repos")), "UNAUTHENTICATED");
  });

  it("the other way round: the registry host refuses API tokens, bad tokens and no token", async () => {
    const api = ok(await exchangeFor(ctx.server.url)).token as string;
    expect(decodeJwt(api).aud).toBe(ctx.server.url);
    ok(await ctx.api.as(api).get(path("groups")));
    const refused = await registry(api);
    expect(expectError(refused, "UNAUTHENTICATED").message).toContain(`aud=${ctx.server.registryHost}`);
    expectError(await registry(ctx.server.token), "UNAUTHENTICATED");
    expectError(await registry(null, "Bearer junk"), "UNAUTHENTICATED");
    const none = await registry(null);
    expectError(none, "UNAUTHENTICATED");
    expect(none.headers.get("www-authenticate")).toBe(`Bearer realm="${ctx.server.authUrl}${STS_EXCHANGE_PATH}",service="${ctx.server.registryHost}"`);
  });

  it("refuse any other audience, naming aud and both accepted values", async () => {
    for (const aud of ["https://elsewhere.example", "", `${ctx.server.registryHost}/path`, "http://127.0.0.1:1"]) {
      const v = expectFieldViolation(await exchangeFor(aud), "aud");
      expect(v[0].description).toContain(ctx.server.registryHost);
      expect(v[0].description).toContain(ctx.server.url);
    }
  });

  it("use the configured registry host", async () => {
    const s = await startTestServer({ fixtures: {}, registryHost: "Registry.Example.dev:5000" });
    try {
      expect(s.server.registryHost).toBe("registry.example.dev:5000");
      const tok = await s.server.issueToken(`${s.server.organization}/0000000000000001`, 60, s.server.registryHost);
      expectError(await s.api.as(tok).get(path("groups")), "UNAUTHENTICATED");
    } finally {
      await s.close();
    }
    for (const bad of ["", "a b", "host/with/path", "user@host"])
      await expect(startServer({ fixtures: {}, registryHost: bad })).rejects.toThrow(/registryHost .* must be a host name/);
  });
});
