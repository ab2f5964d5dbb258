/** The client's token sources for either audience: the API's or the registry host's. */
import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigurationError, IrvClient, UnauthenticatedError } from "../../client";
import { AnonymousTokenSource, tokenSourceFrom } from "../../client/auth";
import { startOidcIssuer, type OidcIssuer } from "../support/oidc-issuer";
import { defaultAudience } from "../support/sts";
import { apiFor, path, useServer } from "../support/server";

const ctx = useServer({ fixtures: { repos: [{ name: "open", visibility: "public" }, { name: "closed" }] }, allowPrivateIssuers: true });
let issuer: OidcIssuer;
let identity: string;
const subject = "repo:acme/infra:ref:refs/heads/main";

beforeAll(async () => {
  issuer = await startOidcIssuer();
  identity = (await ctx.api.post(path("identities", ctx.server.organization), { name: "ci-0", claimMatch: { issuer: issuer.url, subject } })).body.uid;
});
afterAll(() => issuer?.close());

const settings = async () => ({ apiUrl: ctx.server.url, identity, identityToken: await issuer.sign({ sub: subject, aud: defaultAudience(ctx.server) }) });

describe("token sources by audience", () => {
  it("exchange for the registry host when asked, and for the API by default", async () => {
    const registry = await tokenSourceFrom(await settings(), { audience: ctx.server.registryHost }).token();
    expect(decodeJwt(registry).aud).toBe(ctx.server.registryHost);
    expect((await apiFor(ctx.server.url, registry).get("/v2/")).status).toBe(200);
    const api = await tokenSourceFrom(await settings()).token();
    expect(decodeJwt(api).aud).toBe(ctx.server.url);
    // A client given the registry token is refused by the API, naming the audience.
    const c = new IrvClient(ctx.server.url, { describe: "test", token: async () => registry });
    await expect(c.get("groups", ctx.server.organization)).rejects.toThrow(UnauthenticatedError);
  });

  it("refuse a static API token for the registry audience, naming what to set", () => {
    expect(() => tokenSourceFrom({ apiUrl: ctx.server.url, token: ctx.server.token }, { audience: ctx.server.registryHost })).toThrow(
      new ConfigurationError(
        `irv:token (IRV_TOKEN) is an API token; a token for ${ctx.server.registryHost} needs irv:identity and irv:identityToken, or irv auth login`,
      ),
    );
  });

  it("go without a token only when asked to, and then say what is missing on a refusal", async () => {
    const empty = { IRV_CONFIG_DIR: "/nonexistent-irv-config" };
    expect(() => tokenSourceFrom({ apiUrl: ctx.server.url }, { env: empty })).toThrow(/no credentials/);
    const anon = tokenSourceFrom({ apiUrl: ctx.server.url }, { anonymous: true, env: empty });
    expect(anon).toBeInstanceOf(AnonymousTokenSource);
    const c = new IrvClient(ctx.server.url, anon);
    expect(c.anonymous).toBe(true);
    expect((await c.collect("repos")).map((r) => r.name)).toEqual(["open"]);
    expect(ctx.server.requests.at(-1)!.caller).toBeUndefined();
    await expect(c.collect("groups")).rejects.toThrow(/missing bearer token.*needs credentials: no credentials: set irv:token/);
  });
});
