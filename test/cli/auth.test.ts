/**
 * `irv auth login / token / logout` through the compiled command against a live irv-server and a
 * throwaway OIDC issuer; then the login as the lowest-precedence credential of `irv export` and
 * of the provider's client.
 */
import { mkdtempSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientFor } from "../../client";
import { loginFile, readLogin, writeLogin } from "../../client/auth";
import { startChaosProxy } from "../support/chaos-proxy";
import { startOidcIssuer, type OidcIssuer } from "../support/oidc-issuer";
import { defaultAudience } from "../support/sts";
import { apiFor, path, useServer } from "../support/server";
import { runIrv } from "../support/cli";

const ctx = useServer({ fixtures: {}, allowPrivateIssuers: true });
let issuer: OidcIssuer;
let identity: string;
let home: string;
let tokenFile: string;
const subject = "repo:acme/infra:ref:refs/heads/main";
const VIEWER = "viewer";

/** The environment of every run: no other credential, the login in a temp folder. */
let env: Record<string, string>;

beforeAll(async () => {
  issuer = await startOidcIssuer();
  const org = ctx.server.organization;
  const id = await ctx.api.post(path("identities", org), { name: "laptop", claimMatch: { issuer: issuer.url, subject } });
  identity = id.body.uid;
  const roles = await ctx.api.get(path("roles"), { name: VIEWER });
  await ctx.api.post(path("roleBindings", org), { identityUid: identity, roleUid: roles.body.roles[0].uid });
  home = mkdtempSync(join(tmpdir(), "irv-auth-"));
  tokenFile = join(home, "oidc-token");
  writeFileSync(tokenFile, await issuer.sign({ sub: subject, aud: defaultAudience(ctx.server) }, { expiresIn: 3600 }));
  env = {
    IRV_CONFIG_DIR: join(home, "config", "irv"),
    IRV_API_URL: ctx.server.url,
    IRV_AUTH_URL: "",
    IRV_TOKEN: "",
    IRV_IDENTITY: "",
    IRV_IDENTITY_TOKEN: "",
  };
});
afterAll(() => issuer?.close());

const irv = (...args: string[]) => runIrv(args, env);
const loginEnv = () => ({ IRV_CONFIG_DIR: env.IRV_CONFIG_DIR });
const noToken = (text: string, token: string) => expect(text.includes(token), "a token was printed where it must not be").toBe(false);

describe("irv auth", () => {
  it("logs in, keeps the login readable by the user only, and prints tokens for scripts", async () => {
    const login = await irv("auth", "login", "--identity", identity, "--identity-token", tokenFile);
    expect(login.code, login.stderr).toBe(0);
    expect(login.stdout).toContain(`as identity ${identity}`);
    const stored = readLogin(loginEnv())!;
    expect(stored).toMatchObject({ apiUrl: ctx.server.url, authUrl: `${ctx.server.url}/auth`, identity, identityTokenFile: tokenFile });
    const apiToken = stored.tokens[ctx.server.url];
    noToken(login.stdout + login.stderr, apiToken);
    expect(statSync(loginFile(loginEnv())).mode & 0o777).toBe(0o600);
    expect(statSync(env.IRV_CONFIG_DIR).mode & 0o777).toBe(0o700);

    const printed = await irv("auth", "token");
    expect(printed.code, printed.stderr).toBe(0);
    expect(printed.stdout.trim()).toBe(apiToken);
    expect(printed.stderr).toBe("");
    // What `curl -H "Authorization: Bearer $(irv auth token)"` does.
    const res = await apiFor(ctx.server.url, printed.stdout.trim()).get(path("groups", ctx.server.organization));
    expect(res.status).toBe(200);
    expect(ctx.server.requests.at(-1)!.caller).toBe(identity);
  });

  it("prints a registry token for --audience <registry host>, which the registry accepts and the API refuses", async () => {
    const r = await irv("auth", "token", "--audience", ctx.server.registryHost);
    expect(r.code, r.stderr).toBe(0);
    const token = r.stdout.trim();
    expect(decodeJwt(token)).toMatchObject({ aud: ctx.server.registryHost, sub: identity });
    expect((await apiFor(ctx.server.url, token).get("/v2/")).status).toBe(200);
    expect((await apiFor(ctx.server.url, token).get(path("groups"))).status).toBe(401);
    // Stored beside the API token; asking again reuses it.
    expect(readLogin(loginEnv())!.tokens[ctx.server.registryHost]).toBe(token);
    expect((await irv("auth", "token", "--audience", ctx.server.registryHost)).stdout.trim()).toBe(token);
    const bad = await irv("auth", "token", "--audience", "https://elsewhere.example");
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/aud: must be this API's audience/);
  });

  it("exchanges again when less than a minute is left, and says what to do when the token file is gone", async () => {
    const stored = readLogin(loginEnv())!;
    const short = await ctx.server.issueToken(identity, 50);
    writeLogin({ ...stored, tokens: { [ctx.server.url]: short } }, loginEnv());
    const fresh = await irv("auth", "token");
    expect(fresh.code, fresh.stderr).toBe(0);
    expect(fresh.stdout.trim()).not.toBe(short);
    expect(decodeJwt(fresh.stdout.trim()).exp! - Date.now() / 1000).toBeGreaterThan(3000);
    expect(readLogin(loginEnv())!.tokens[ctx.server.url]).toBe(fresh.stdout.trim());

    // The stored token is still good: printed even with the token file gone.
    renameSync(tokenFile, `${tokenFile}.moved`);
    try {
      expect((await irv("auth", "token")).stdout.trim()).toBe(fresh.stdout.trim());
      writeLogin({ ...readLogin(loginEnv())!, tokens: { [ctx.server.url]: short } }, loginEnv());
      const stale = await irv("auth", "token");
      expect(stale.code).toBe(1);
      expect(stale.stderr).toContain(`the identity token file ${tokenFile} can no longer be read (ENOENT)`);
      expect(stale.stderr).toContain(`irv auth login --identity ${identity} --identity-token`);
      noToken(stale.stderr, short);
    } finally {
      renameSync(`${tokenFile}.moved`, tokenFile);
    }
  });

  it("refuses bad input, naming the option, and never prints a token in errors", async () => {
    const jwt = readFileSync(tokenFile, "utf8");
    const cases: [string[], RegExp][] = [
      [["auth"], /a subcommand is required: login, token or logout/],
      [["auth", "whoami"], /unknown subcommand "whoami"/],
      [["auth", "login", "--identity-token", tokenFile], /--identity <uid> is required/],
      [["auth", "login", "--identity", identity], /--identity-token <file> is required/],
      [["auth", "login", "--identity", identity, "--identity-token", jwt], /takes the path of a file/],
      [["auth", "login", "--identity", identity, "--identity-token", join(home, "missing")], /--identity-token .*missing cannot be read \(ENOENT\)/],
      [["auth", "login", "--identity", identity, "--identity-token", tokenFile, "--api-url", "ftp://x"], /--api-url must be an http\(s\) URL/],
      [["auth", "login", "--identity", `${ctx.server.organization}/00000000000000aa`, "--identity-token", tokenFile], /PERMISSION_DENIED|Permission denied/i],
      [["auth", "token", "--identity", identity], /--identity is not an option of irv auth token/],
      [["auth", "logout", "--bogus"], /Unknown option '--bogus'/],
    ];
    for (const [args, message] of cases) {
      const r = await irv(...args);
      expect({ args, code: r.code }).toEqual({ args, code: 1 });
      expect(r.stderr).toMatch(message);
      noToken(r.stderr + r.stdout, jwt.trim());
    }
    const help = await irv("auth", "--help");
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("Usage: irv auth login --identity UID --identity-token FILE");
    expect((await irv("--help")).stdout).toContain("  auth ");
  });

  it("is used by irv export and the provider's client when no other credential is set, and last", async () => {
    // irv export with no API URL and no credential: both come from the login.
    const out = join(home, "export");
    const exp = await runIrv(["export", "--group", ctx.server.organization, "--out", out], { ...env, IRV_API_URL: "" });
    expect(exp.code, exp.stderr).toBe(0);
    expect(readFileSync(join(out, "program.ts"), "utf8")).toContain("laptop");

    const client = clientFor({}, { env: loginEnv() });
    expect(client.apiUrl).toBe(ctx.server.url);
    await client.get("groups", ctx.server.organization);
    expect(ctx.server.requests.at(-1)!.caller).toBe(identity);

    // A configured credential wins over the login.
    const admin = clientFor({ apiUrl: ctx.server.url, token: ctx.server.token }, { env: loginEnv() });
    await admin.get("groups", ctx.server.organization);
    expect(ctx.server.requests.at(-1)!.caller).not.toBe(identity);
    // A login for another API is not used, and the error says so.
    expect(() => clientFor({ apiUrl: "http://127.0.0.1:9" }, { env: loginEnv() })).toThrow(
      /the irv auth login is for http:\/\/127\.0\.0\.1:\d+, not http:\/\/127\.0\.0\.1:9/,
    );
  });

  it("logs out, after which nothing uses the login", async () => {
    const out = await irv("auth", "logout");
    expect(out.code).toBe(0);
    expect(out.stdout).toContain("Logged out");
    expect(readLogin(loginEnv())).toBeUndefined();
    expect((await irv("auth", "logout")).stdout).toContain("Not logged in");
    const token = await irv("auth", "token");
    expect(token.code).toBe(1);
    expect(token.stderr).toContain("not logged in: run irv auth login");
    expect(() => clientFor({ apiUrl: ctx.server.url }, { env: loginEnv() })).toThrow(/no credentials/);
  });

  it("exchanges at the issuer --auth-url names, over IRV_AUTH_URL, and there again when the token runs short", async () => {
    // The issuer reached through a proxy of its own: whatever the proxy sees came by --auth-url.
    const proxy = await startChaosProxy(ctx.server.authUrl);
    try {
      const login = await runIrv(["auth", "login", "--identity", identity, "--identity-token", tokenFile, "--auth-url", proxy.url], {
        ...env,
        IRV_AUTH_URL: ctx.server.authUrl,
      });
      expect(login.code, login.stderr).toBe(0);
      expect(proxy.seen).toBe(1);
      expect(readLogin(loginEnv())).toMatchObject({ apiUrl: ctx.server.url, authUrl: proxy.url, identity });
      // The login keeps that issuer: the exchange made when the stored token runs short goes there too.
      writeLogin({ ...readLogin(loginEnv())!, tokens: { [ctx.server.url]: await ctx.server.issueToken(identity, 50) } }, loginEnv());
      const fresh = await runIrv(["auth", "token"], { ...env, IRV_AUTH_URL: ctx.server.authUrl });
      expect(fresh.code, fresh.stderr).toBe(0);
      expect(proxy.seen).toBe(2);
      // Without --auth-url, IRV_AUTH_URL names the issuer.
      const byEnv = await runIrv(["auth", "login", "--identity", identity, "--identity-token", tokenFile], { ...env, IRV_AUTH_URL: proxy.url });
      expect(byEnv.code, byEnv.stderr).toBe(0);
      expect(proxy.seen).toBe(3);
      expect(readLogin(loginEnv())!.authUrl).toBe(proxy.url);
      const bad = await runIrv(["auth", "login", "--identity", identity, "--identity-token", tokenFile, "--auth-url", "http://issuer.example"], env);
      expect(bad.code).toBe(1);
      expect(bad.stderr).toContain("--auth-url must be an https URL (plain http only to a loopback host such as 127.0.0.1)");
    } finally {
      await irv("auth", "logout");
      await proxy.close();
    }
  });
});
