/**
 * People (user identities), as the platform has them: from the fixtures file and from a sign-in
 * through an organization's identity provider, found by the platform's two lookups
 * (`LookupIdentity`, v1 `Identities.Lookup`) over REST and gRPC with their authorization, and
 * bound to roles like any identity, before and after their first sign-in.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeJwt } from "jose";
import { STS_EXCHANGE_PATH } from "../../api";
import { grpcFor, type GrpcApi } from "../support/grpc";
import { startOidcIssuer, type OidcIssuer } from "../support/oidc-issuer";
import { apiFor, listAll, path, useServer } from "../support/server";
import { bind, expectError, expectFieldViolation, mkGroup, mkIdentity, ok, role } from "../support/server-helpers";

const PLATFORM = "https://auth.chainguard.dev/";
const lastSeen = "2026-01-02T03:04:05.000Z";
const ctx = useServer({
  allowPrivateIssuers: true,
  fixtures: {
    people: [
      // The platform's issuer, as Terraform's GitHub-team example looks people up.
      { issuer: PLATFORM, subject: "github|1001", name: "Ada", email: "ada@example.com", company: "Acme", lastSeenTime: lastSeen },
      // No issuer: this server's own (authUrl), whatever port it listens on.
      { subject: "github|1002", email: "grace@example.com", emailVerified: false },
    ],
  },
});

const V2 = "/iam/v2beta1/identities:lookupIdentity";
const V1 = "/iam/v1/identities/lookup";
const IDS = "chainguard.platform.iam.v2beta1.IdentitiesService";
const IDS_V1 = "chainguard.platform.iam.Identities";

let issuer: OidcIssuer;
let g: GrpcApi;
beforeAll(async () => {
  issuer = await startOidcIssuer();
  g = grpcFor(ctx.server.url, ctx.server.token);
});
afterAll(async () => {
  g?.close();
  await issuer?.close();
});

const lookup = (issuerUrl: string, subject: string, token = ctx.server.token) => apiFor(ctx.server.url, token).get(V2, { issuer: issuerUrl, subject });
const lookupV1 = (issuerUrl: string, subject: string, token = ctx.server.token) => apiFor(ctx.server.url, token).get(V1, { issuer: issuerUrl, subject });

/** A fresh identity with no bindings, and a token of it. */
async function stranger(): Promise<{ uid: string; token: string }> {
  const uid = (await mkIdentity(ctx.api, ctx.server.organization, `nobody-${Math.random().toString(36).slice(2, 8)}`)).uid;
  return { uid, token: await ctx.server.issueToken(uid) };
}

describe("LookupIdentity and v1 Lookup", () => {
  it("find a person of the fixtures at the platform's issuer and at this server's own", async () => {
    const ada = ok(await lookup(PLATFORM, "github|1001")).uid;
    expect(ada).toMatch(/^[0-9a-f]{40}$/);
    expect(ok(await lookupV1(PLATFORM, "github|1001"))).toEqual({
      id: ada,
      name: "Ada",
      description: "",
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      lastSeen,
    });
    // A person has no relationship type: no claimMatch, staticKeys, awsIdentity, servicePrincipal.
    const grace = ok(await lookupV1(ctx.server.authUrl, "github|1002"));
    expect(grace).toMatchObject({ name: "grace@example.com" });
    for (const k of ["claimMatch", "static", "awsIdentity", "servicePrincipal"]) expect(grace).not.toHaveProperty(k);
    // The own issuer with or without a trailing slash; the same uid either way.
    expect(ok(await lookup(`${ctx.server.authUrl}/`, "github|1002")).uid).toBe(grace.id);
    // People belong to no group: no List shows them.
    const listed = await listAll(ctx.api, "identities", { "uidp.descendants_of": ctx.server.organization });
    expect(listed.map((i) => i.uid)).not.toContain(ada);
  });

  it("answer a person who never signed in: v2beta1 with the uid they will have, v1 NOT_FOUND", async () => {
    const future = ok(await lookup(PLATFORM, "github|999")).uid;
    expect(future).toMatch(/^[0-9a-f]{40}$/);
    expect(ok(await lookup(PLATFORM, "github|999")).uid).toBe(future);
    expect(ok(await lookup(PLATFORM, "github|998")).uid).not.toBe(future);
    expect(expectError(await lookupV1(PLATFORM, "github|999"), "NOT_FOUND").message).toContain("github|999");
  });

  it("find a workload identity by its claimMatch's exact issuer and subject, only for a caller that may list it", async () => {
    const group = (await mkGroup(ctx.api, ctx.server.organization, "lookups")).uid;
    const ci = await mkIdentity(ctx.api, group, "lookup-ci", {
      claimMatch: { issuer: "https://token.actions.githubusercontent.com", subject: "repo:acme/lookup" },
    });
    expect(ok(await lookup("https://token.actions.githubusercontent.com", "repo:acme/lookup")).uid).toBe(ci.uid);
    expect(ok(await lookupV1("https://token.actions.githubusercontent.com", "repo:acme/lookup"))).toMatchObject({
      id: ci.uid,
      name: "lookup-ci",
      claimMatch: { issuer: "https://token.actions.githubusercontent.com", subject: "repo:acme/lookup" },
    });
    // Any authenticated caller may ask (the rpcs are unscoped), and finds people ...
    const s = await stranger();
    expect(ok(await lookup(PLATFORM, "github|1001", s.token)).uid).toBe(ok(await lookup(PLATFORM, "github|1001")).uid);
    // ... but an identity it may not list is answered as if it did not exist.
    expectError(await lookupV1("https://token.actions.githubusercontent.com", "repo:acme/lookup", s.token), "NOT_FOUND");
    expect(ok(await lookup("https://token.actions.githubusercontent.com", "repo:acme/lookup", s.token)).uid).not.toBe(ci.uid);
    await bind(ctx.api, group, s.uid, role.viewer);
    expect(ok(await lookupV1("https://token.actions.githubusercontent.com", "repo:acme/lookup", s.token)).id).toBe(ci.uid);
    // Two identities with the same exact issuer and subject: the lookup cannot choose.
    const twin = await mkIdentity(ctx.api, group, "lookup-ci-2", {
      claimMatch: { issuer: "https://token.actions.githubusercontent.com", subject: "repo:acme/lookup" },
    });
    expect(expectError(await lookupV1("https://token.actions.githubusercontent.com", "repo:acme/lookup"), "FAILED_PRECONDITION").message).toContain(twin.uid);
  });

  it("need a token, and name a missing, repeated or oversized field", async () => {
    expectError(await lookup(PLATFORM, "github|1001", null as unknown as string), "UNAUTHENTICATED");
    expectError(await apiFor(ctx.server.url, null).get(V1, { issuer: PLATFORM, subject: "github|1001" }), "UNAUTHENTICATED");
    for (const p of [V2, V1]) {
      expectFieldViolation(await ctx.api.get(p, { subject: "github|1001" }), "issuer");
      expectFieldViolation(await ctx.api.get(p, { issuer: PLATFORM }), "subject");
      expectFieldViolation(await ctx.api.get(p, { issuer: PLATFORM, subject: "" }), "subject");
      expectFieldViolation(await ctx.api.get(p, { issuer: [PLATFORM, PLATFORM], subject: "x" }), "issuer");
      expectFieldViolation(await ctx.api.get(p, { issuer: PLATFORM, subject: "s".repeat(1025) }), "subject");
    }
  });

  it("answer the same over gRPC", async () => {
    const ada = ok(await lookup(PLATFORM, "github|1001")).uid;
    const v2 = await g.call(IDS, "LookupIdentity", { issuer: PLATFORM, subject: "github|1001" });
    expect(v2).toEqual({ ok: { uid: ada } });
    const future = ok(await lookup(PLATFORM, "github|4242")).uid;
    expect(await g.call(IDS, "LookupIdentity", { issuer: PLATFORM, subject: "github|4242" })).toEqual({ ok: { uid: future } });
    const v1 = await g.call(IDS_V1, "Lookup", { issuer: PLATFORM, subject: "github|1001" });
    expect(v1).toEqual({ ok: expect.objectContaining({ id: ada, name: "Ada" }) });
    expect("ok" in v1 && Date.parse(v1.ok.lastSeen)).toBe(Date.parse(lastSeen));
    const missing = await g.call(IDS_V1, "Lookup", { issuer: PLATFORM, subject: "github|4242" });
    expect("error" in missing && missing.error.code).toBe(5);
    const anonymous = await g.call(IDS, "LookupIdentity", { issuer: PLATFORM, subject: "github|1001" }, { token: null });
    expect("error" in anonymous && anonymous.error.code).toBe(16);
    const bad = await g.call(IDS, "LookupIdentity", { subject: "github|1001" });
    expect("error" in bad && bad.status.details.find((d: { "@type": string }) => d["@type"].endsWith("BadRequest")).fieldViolations[0].field).toBe("issuer");
  });
});

describe("people in role bindings", () => {
  it("bind a person who signed in and one who has not yet, and the person's token acts by its bindings", async () => {
    const group = (await mkGroup(ctx.api, ctx.server.organization, "people-team")).uid;
    const ada = ok(await lookup(PLATFORM, "github|1001")).uid;
    const later = ok(await lookup(PLATFORM, "github|7777")).uid;
    const b = await bind(ctx.api, group, ada, role.viewer);
    expect(b.identity).toMatchObject({ uid: ada, name: "Ada", email: "ada@example.com", issuer: PLATFORM, subject: "github|1001" });
    const pending = await bind(ctx.api, group, later, role.viewer);
    expect(pending.identity).toMatchObject({ uid: later, name: "" });
    // A root uid that is a group is no person.
    expectFieldViolation(await ctx.api.post(path("roleBindings", group), { identityUid: ctx.server.organization, roleUid: role.viewer }), "identityUid");
    const asAda = ctx.api.as(await ctx.server.issueToken(ada));
    ok(await asAda.get(path("groups", group)));
    expectError(await asAda.get(path("groups", ctx.server.organization)), "PERMISSION_DENIED");
    // The unverified email is an output of the identity, beside the verified one.
    const grace = ok(await lookup(ctx.server.authUrl, "github|1002")).uid;
    expect((await bind(ctx.api, group, grace, role.viewer)).identity).toMatchObject({ email: "", issuer: ctx.server.authUrl, subject: "github|1002" });
  });
});

describe("signing in through an organization's identity provider", () => {
  it("registers the person at the first sign-in with the provider's default role, then moves lastSeenTime", async () => {
    const group = (await mkGroup(ctx.api, ctx.server.organization, "sso-team")).uid;
    const idp = ok(
      await ctx.api.post(path("identityProviders", group), {
        name: "test-sso",
        defaultRole: role.viewer,
        oidc: { issuer: issuer.url, clientId: "irv-console", clientSecret: "s3cret" },
      }),
    ).uid;
    const profile = { sub: "u-123", aud: "irv-console", email: "lin@example.com", email_verified: true, name: "Lin" };
    const before = ok(await lookup(issuer.url, "u-123")).uid;
    expectError(await lookupV1(issuer.url, "u-123"), "NOT_FOUND");

    const signIn = async (claims: Record<string, unknown>, query: Record<string, string> = { aud: ctx.server.url, identity_provider: idp }) =>
      apiFor(ctx.server.authUrl, null).request("POST", STS_EXCHANGE_PATH, {
        token: await issuer.sign(claims),
        rawBody: new URLSearchParams(query).toString(),
        headers: { "content-type": "application/x-www-form-urlencoded" },
      });
    const first = ok(await signIn(profile)).token as string;
    expect(decodeJwt(first)).toMatchObject({ sub: before, aud: ctx.server.url, scp: [group] });
    const found = ok(await lookupV1(issuer.url, "u-123"));
    expect(found).toMatchObject({ id: before, name: "Lin" });
    const bindings = await listAll(ctx.api, "roleBindings", { "uidp.descendants_of": group });
    expect(bindings.filter((b) => b.identity.uid === before)).toEqual([
      expect.objectContaining({ role: expect.objectContaining({ uid: role.viewer }), identity: expect.objectContaining({ email: "lin@example.com" }) }),
    ]);
    // The person acts by that binding, within the provider's group.
    ok(await ctx.api.as(first).get(path("groups", group)));

    await new Promise((r) => setTimeout(r, 5));
    ok(await signIn(profile));
    const again = ok(await lookupV1(issuer.url, "u-123"));
    expect(Date.parse(again.lastSeen)).toBeGreaterThan(Date.parse(found.lastSeen));
    expect((await listAll(ctx.api, "roleBindings", { "uidp.descendants_of": group })).filter((b) => b.identity.uid === before)).toHaveLength(1);

    // The token must be the provider's issuer's, for its client id, from a provider that exists.
    expectError(await signIn({ ...profile, aud: "someone-else" }), "PERMISSION_DENIED");
    expectError(await signIn(profile, { aud: ctx.server.url, identity_provider: `${group}/0123456789abcdef` }), "PERMISSION_DENIED");
    const other = await startOidcIssuer();
    try {
      const res = await apiFor(ctx.server.authUrl, null).request("GET", STS_EXCHANGE_PATH, {
        token: await other.sign(profile),
        query: { aud: ctx.server.url, identity_provider: idp },
      });
      expectError(res, "PERMISSION_DENIED");
      expect(other.hits.discovery).toBe(0);
    } finally {
      await other.close();
    }
  });

  it("signs in again, without a provider, a person who signed in before with the token's issuer", async () => {
    const ownIssuer = await startOidcIssuer();
    const srv = await import("../support/server").then((m) =>
      m.startTestServer({ allowPrivateIssuers: true, fixtures: { people: [{ issuer: ownIssuer.url, subject: "ops|1" }] } }),
    );
    try {
      const aud = new URL(srv.server.authUrl).host;
      const ask = async (sub: string, a = aud) =>
        apiFor(srv.server.authUrl, null).request("GET", STS_EXCHANGE_PATH, { token: await ownIssuer.sign({ sub, aud: a }), query: { aud: srv.server.url } });
      const token = ok(await ask("ops|1")).token as string;
      const uid = ok(await srv.api.get(V2, { issuer: ownIssuer.url, subject: "ops|1" })).uid;
      expect(decodeJwt(token).sub).toBe(uid);
      expect(decodeJwt(token)).not.toHaveProperty("scp");
      // Nobody else of that issuer, and only for this server's default audience.
      expect(expectError(await ask("ops|2"), "PERMISSION_DENIED").message).toContain("identity_provider");
      expectError(await ask("ops|1", srv.server.url), "PERMISSION_DENIED");
    } finally {
      await srv.close();
      await ownIssuer.close();
    }
  });
});
