/**
 * `iam.getIdentity` as the platform's lookup: a person by the issuer and subject they sign in
 * with (the Terraform data source's `github|<id>` at the platform's issuer), a workload identity
 * by its claimMatch's; `allowMissing` answers `found: false` for nobody, and only for nobody: an
 * error of the network, of authentication or of a permission still fails.
 */
import { describe, expect, it } from "vitest";
import { IrvClient, NotFoundError, PermissionDeniedError, TransportError, UnauthenticatedError } from "../../client";
import { StaticTokenSource } from "../../client/auth";
import { iam } from "../../provider/functions";
import { startTestServer, useServer } from "../support/server";
import { mkGroup, mkIdentity } from "../support/server-helpers";

const PLATFORM = "https://auth.chainguard.dev/";
const ctx = useServer({ fixtures: { people: [{ issuer: PLATFORM, subject: "github|1", name: "Ada", email: "ada@example.com" }] } });
const clientsWith = (url: string, token: string) => () => new IrvClient(url, new StaticTokenSource(token));
const admin = () => clientsWith(ctx.server.url, ctx.server.token);

describe("iam.getIdentity", () => {
  it("finds a person by the issuer and subject they sign in with, as the platform's lookup does", async () => {
    const uid = (await ctx.api.get("/iam/v2beta1/identities:lookupIdentity", { issuer: PLATFORM, subject: "github|1" })).body.uid;
    const ada = await iam.getIdentity(admin(), { issuer: PLATFORM, subject: "github|1" });
    expect(ada).toMatchObject({ found: true, uid, name: "Ada", groupUid: undefined, lastSeenTime: expect.any(String) });
    // The same with allowMissing: found, with a uid.
    const again = await iam.getIdentity(admin(), { issuer: PLATFORM, subject: "github|1", allowMissing: true });
    expect(again.found && again.uid).toBe(uid);
  });

  it("finds a workload identity by its claimMatch's exact issuer and subject, whole", async () => {
    const group = (await mkGroup(ctx.api, ctx.server.organization, "gi-team")).uid;
    const ci = await mkIdentity(ctx.api, group, "gi-ci");
    const found = await iam.getIdentity(admin(), ci.claimMatch);
    expect(found).toMatchObject({ found: true, uid: ci.uid, groupUid: group, name: "gi-ci", claimMatch: ci.claimMatch, email: "" });
    // By name under a group, as before.
    expect((await iam.getIdentity(admin(), { name: "gi-ci", groupUid: group })).uid).toBe(ci.uid);
  });

  it("fails for nobody, naming what it looked for; with allowMissing answers found: false", async () => {
    await expect(iam.getIdentity(admin(), { issuer: PLATFORM, subject: "github|404" })).rejects.toThrow(
      "no identity for issuer https://auth.chainguard.dev/ and subject github|404: nobody signed in with them (with allowMissing: true, getIdentity answers found: false instead)",
    );
    expect(await iam.getIdentity(admin(), { issuer: PLATFORM, subject: "github|404", allowMissing: true })).toEqual({ found: false });
    const gone = `${ctx.server.organization}/0123456789abcdef`;
    await expect(iam.getIdentity(admin(), { uid: gone })).rejects.toThrow(`no identity ${gone}`);
    expect(await iam.getIdentity(admin(), { uid: gone, allowMissing: true })).toEqual({ found: false });
    expect(await iam.getIdentity(admin(), { name: "nobody-here", allowMissing: true })).toEqual({ found: false });
  });

  it("still fails on an error of authentication, of a permission or of the network, allowMissing or not", async () => {
    // A caller with no bindings may look people up, but not read a workload identity by uid.
    const stranger = (await mkIdentity(ctx.api, ctx.server.organization, "gi-stranger")).uid;
    const group = (await mkGroup(ctx.api, ctx.server.organization, "gi-private")).uid;
    const hidden = (await mkIdentity(ctx.api, group, "gi-hidden")).uid;
    const asStranger = clientsWith(ctx.server.url, await ctx.server.issueToken(stranger));
    expect((await iam.getIdentity(asStranger, { issuer: PLATFORM, subject: "github|1", allowMissing: true })).found).toBe(true);
    await expect(iam.getIdentity(asStranger, { uid: hidden, allowMissing: true })).rejects.toBeInstanceOf(PermissionDeniedError);
    await expect(
      iam.getIdentity(clientsWith(ctx.server.url, "not-a-token"), { issuer: PLATFORM, subject: "github|404", allowMissing: true }),
    ).rejects.toBeInstanceOf(UnauthenticatedError);
    // Nothing listens any more: a transport error, not "nobody" (within a short call budget).
    const srv = await startTestServer({ fixtures: {} });
    const url = srv.server.url;
    const token = srv.server.token;
    await srv.close();
    const budget = process.env.IRV_CALL_BUDGET_MS;
    process.env.IRV_CALL_BUDGET_MS = "1500";
    try {
      const e = await iam.getIdentity(clientsWith(url, token), { issuer: PLATFORM, subject: "github|404", allowMissing: true }).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(Error);
      expect(e).not.toBeInstanceOf(NotFoundError);
      expect(e instanceof TransportError || /deadline|budget|connect/i.test(String(e))).toBe(true);
    } finally {
      if (budget === undefined) delete process.env.IRV_CALL_BUDGET_MS;
      else process.env.IRV_CALL_BUDGET_MS = budget;
    }
  });

  it("binds a team's people who signed in, and skips who has not, with no try/catch", async () => {
    const group = (await mkGroup(ctx.api, ctx.server.organization, "gi-github-team")).uid;
    const team = ["1", "404"];
    const people = await Promise.all(team.map((id) => iam.getIdentity(admin(), { issuer: PLATFORM, subject: `github|${id}`, allowMissing: true })));
    const uids = people.flatMap((p) => (p.found ? [p.uid] : []));
    expect(uids).toHaveLength(1);
    const viewer = (await ctx.api.get("/iam/v2beta1/roles", { name: "viewer" })).body.roles[0].uid;
    for (const identityUid of uids) expect((await ctx.api.post(`/iam/v2beta1/roleBindings/${group}`, { identityUid, roleUid: viewer })).status).toBe(200);
  });
});
