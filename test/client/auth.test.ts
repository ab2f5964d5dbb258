import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigurationError, IrvClient, UnauthenticatedError, clientFor } from "../../client";
import { configure, dynamicProviders } from "../../provider";
import { ExchangeTokenSource, NO_CREDENTIALS, StaticTokenSource, tokenSourceFrom } from "../../client/auth";
import { readSettings } from "../../client/config";
import { startOidcIssuer, type OidcIssuer } from "../support/oidc-issuer";
import { defaultAudience } from "../support/sts";
import { created, builtinRole, useProviderServer } from "../support/provider";

const ctx = useProviderServer({ allowPrivateIssuers: true });
let issuer: OidcIssuer;
let identity: string;
const subject = "repo:acme/infra:ref:refs/heads/main";

beforeAll(async () => {
  issuer = await startOidcIssuer();
  const org = ctx.server.organization;
  identity = (await created(ctx.api, "identities", org, { name: "ci-0", claimMatch: { issuer: issuer.url, subject } })).uid;
  await created(ctx.api, "roleBindings", org, { identityUid: identity, roleUid: await builtinRole(ctx, "viewer") });
});
afterAll(() => issuer?.close());

const external = (expiresIn = 300) => issuer.sign({ sub: subject, aud: defaultAudience(ctx.server) }, { expiresIn });

describe("token sources", () => {
  it("uses a static token as is", async () => {
    const c = new IrvClient(ctx.server.url, new StaticTokenSource(ctx.server.token));
    expect((await c.get("groups", ctx.server.organization)).uid).toBe(ctx.server.organization);
  });

  it("names irv:token (IRV_TOKEN) when the API refuses a static token, never the token (issue 39)", async () => {
    const wrong = "not-a-token-of-this-api";
    const err = await new IrvClient(ctx.server.url, new StaticTokenSource(wrong)).get("groups", ctx.server.organization).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnauthenticatedError);
    expect((err as UnauthenticatedError).message).toMatch(
      /^GET \/iam\/v2beta1\/groups\/[0-9a-f]{40}: .*; the API refused the token in irv:token \(IRV_TOKEN\): check that it is a token of this API \(irv:apiUrl\) that has not expired$/,
    );
    expect((err as UnauthenticatedError).message).not.toContain(wrong);
  });

  it("exchanges an external OIDC token for an API token of the identity", async () => {
    const source = new ExchangeTokenSource({ authUrl: ctx.server.authUrl, audience: ctx.server.url, identity, identityToken: await external() });
    const c = new IrvClient(ctx.server.url, source);
    expect((await c.get("groups", ctx.server.organization)).uid).toBe(ctx.server.organization);
    expect(ctx.server.requests.at(-1)!.caller).toBe(identity);
    // Cached: more calls, concurrent or not, exchange once.
    await Promise.all([c.get("groups", ctx.server.organization), source.token(), source.token()]);
    expect(source.exchanges).toBe(1);
  });

  it("exchanges again when less than a minute is left, re-reading the token file", async () => {
    const dir = await mkdtemp(join(tmpdir(), "irv-auth-"));
    const file = join(dir, "token");
    await writeFile(file, await external());
    let now = Date.now();
    const source = new ExchangeTokenSource({ authUrl: ctx.server.authUrl, audience: ctx.server.url, identity, identityToken: file, now: () => now });
    const first = await source.token();
    expect(await source.token()).toBe(first);
    expect(source.exchanges).toBe(1);

    // 59 minutes on, the hour-long token has under a minute left: the next call exchanges again,
    // reading the file anew (CI rotates it). A file now holding garbage proves it was re-read (and
    // garbage, not shaped like a JWT, is never sent).
    now += 59 * 60_000 + 1_000;
    await writeFile(file, "garbage");
    await expect(source.token()).rejects.toThrow(/does not hold a JWT/);
    await writeFile(file, await external());
    const second = await source.token();
    expect(source.exchanges).toBe(2);
    expect(second).not.toBe(first);
  });

  it("exchanges once when several requests are refused with the same old token", async () => {
    const source = new ExchangeTokenSource({ authUrl: ctx.server.authUrl, audience: ctx.server.url, identity, identityToken: await external() });
    const old = await source.token();
    // The first refused request drops the old token and gets a fresh one ...
    source.invalidate(old);
    const fresh = await source.token();
    expect(fresh).not.toBe(old);
    expect(source.exchanges).toBe(2);
    // ... and the others, refused with the same old token, keep the fresh one.
    source.invalidate(old);
    source.invalidate(old);
    expect(await source.token()).toBe(fresh);
    expect(source.exchanges).toBe(2);
    // Refusing the fresh one exchanges again.
    source.invalidate(fresh);
    await source.token();
    expect(source.exchanges).toBe(3);
  });

  it("reports a refused exchange as UNAUTHENTICATED without the token", async () => {
    const forged = await issuer.signForeign({ sub: subject, aud: defaultAudience(ctx.server) });
    const source = new ExchangeTokenSource({ authUrl: ctx.server.authUrl, audience: ctx.server.url, identity, identityToken: forged });
    const err = await source.token().catch((e) => e);
    expect(err).toBeInstanceOf(UnauthenticatedError);
    expect(err.message).toContain(`token exchange for identity ${identity}`);
    expect(err.message).not.toContain(forged);
  });
});

describe("settings", () => {
  it("reads config first, then the environment; authUrl defaults to apiUrl/auth", () => {
    const s = readSettings((k) => (k === "irv:apiUrl" ? "https://api.example.com" : undefined), { IRV_API_URL: "https://ignored", IRV_TOKEN: "t" });
    expect(s).toEqual({ apiUrl: "https://api.example.com", token: "t" });
    const source = tokenSourceFrom({ apiUrl: "https://api.example.com", identity: "i", identityToken: "/tmp/x" });
    expect(source).toBeInstanceOf(ExchangeTokenSource);
  });

  it("names the missing setting when there are no credentials", async () => {
    expect(() => clientFor({ apiUrl: ctx.server.url })).toThrow(ConfigurationError);
    expect(() => clientFor({ apiUrl: ctx.server.url })).toThrow(NO_CREDENTIALS);
    expect(() => clientFor({ apiUrl: ctx.server.url, identity })).toThrow(/irv:identity is set but irv:identityToken is not/);
    expect(() => clientFor({ token: "t" })).toThrow("no API URL: set irv:apiUrl (IRV_API_URL)");
  });

  it("lets a credential-less preview check and diff, failing only where the API is called", async () => {
    const saved = { ...process.env };
    for (const k of Object.keys(process.env)) if (k.startsWith("IRV_")) delete process.env[k];
    configure(() => undefined);
    try {
      const inputs = { parentUid: ctx.server.organization, name: "eng" };
      expect((await dynamicProviders.groups.check({} as any, inputs)).failures).toEqual([]);
      expect((await dynamicProviders.groups.diff("x", { ...inputs, description: "" } as any, inputs)).changes).toBe(false);
      await expect(dynamicProviders.groups.create(inputs)).rejects.toThrow("no API URL: set irv:apiUrl (IRV_API_URL)");
      configure((k) => (k === "irv:apiUrl" ? ctx.server.url : undefined));
      await expect(dynamicProviders.groups.create(inputs)).rejects.toThrow(NO_CREDENTIALS);
    } finally {
      process.env = saved;
      configure((k) => ({ "irv:apiUrl": ctx.server.url, "irv:token": ctx.server.token })[k]);
    }
  });

  it("runs the provider with an exchanged identity (config keys irv:identity and irv:identityToken)", async () => {
    const token = await external();
    configure((k) => ({ "irv:apiUrl": ctx.server.url, "irv:identity": identity, "irv:identityToken": token })[k]);
    try {
      const read = await dynamicProviders.groups.read(ctx.server.organization, {} as any);
      expect(read.id).toBe(ctx.server.organization);
      // A viewer may not create: the error comes back typed and without any token in it.
      const err = await dynamicProviders.groups.create({ parentUid: ctx.server.organization, name: "nope" }).catch((e) => e);
      expect(err.constructor.name).toBe("PermissionDeniedError");
      expect(err.message).not.toContain(token);
    } finally {
      configure((k) => ({ "irv:apiUrl": ctx.server.url, "irv:token": ctx.server.token })[k]);
    }
  });
});
