import { describe, expect, it } from "vitest";
import type { Rec } from "../../provider/resources/spec";
import { dynamicProviders } from "../../provider";
import { UNKNOWN } from "../../provider/resources";
import { created, freshGroup, uniqueName, useProviderServer } from "../support/provider";
import { runLifecycle } from "../support/provider-lifecycle";
import { JWKS } from "../support/every-kind";

const ctx = useProviderServer();
const identities = dynamicProviders.identities;
const claimMatch = { issuer: "https://token.actions.githubusercontent.com", subject: "repo:acme/infra:ref:refs/heads/main" };

describe("iam.Identity provider", () => {
  it("runs the whole lifecycle", async () => {
    await runLifecycle(ctx, {
      kind: "identities",
      inputs: async () => ({ groupUid: await freshGroup(ctx), name: uniqueName("ci"), claimMatch }),
      update: {
        change: (i) => ({ ...i, description: "deploys", claimMatch: { ...claimMatch, subject: "repo:acme/infra:ref:refs/heads/prod" } }),
        mask: ["description", "claim_match"],
      },
      replace: {
        change: (i) => ({ ...i, claimMatch: undefined, awsIdentity: { awsAccount: "123456789012", arn: "arn:aws:iam::123456789012:role/ci" } }),
        replaces: ["awsIdentity", "claimMatch"],
      },
      drift: {
        body: { description: "edited in the console" },
        mask: "description",
        expect: (props, inputs) => {
          // The Terraform provider misses identity description drift; this one does not.
          expect(props.description).toBe("edited in the console");
          expect(inputs.description).toBe("edited in the console");
          expect((inputs.claimMatch as Rec).subject).toBe("repo:acme/infra:ref:refs/heads/prod");
        },
      },
      created: (outs) => expect(outs.claimMatch).toEqual(claimMatch),
    });
  });

  it("switches subject to subjectPattern in place, masking the whole claimMatch block", async () => {
    const group = await freshGroup(ctx);
    const { id, outs } = await identities.create({ groupUid: group, name: uniqueName("p"), claimMatch });
    const news = { groupUid: group, name: outs!.name, claimMatch: { issuer: claimMatch.issuer, subjectPattern: "repo:acme/.*", claims: { ref: "main" } } };
    const { outs: after } = await identities.update(id, outs!, news);
    const patch = ctx.server.requests.filter((r) => r.method === "PATCH").at(-1)!;
    expect(patch.query.updateMask).toBe("claim_match");
    expect(after!.claimMatch).toEqual(news.claimMatch);
    expect((await identities.diff(id, after!, news)).changes).toBe(false);
  });

  it("replaces on a group change", async () => {
    const d = await identities.diff("x", { groupUid: "a", name: "n-0", claimMatch } as any, { groupUid: "b", name: "n-0", claimMatch } as any);
    expect(d).toEqual({ changes: true, replaces: ["groupUid"], deleteBeforeReplace: false });
  });

  it("fails check naming each bad field", async () => {
    const g = ctx.server.organization;
    const cases: [object, string[]][] = [
      [{ claimMatch: { issuer: "http://evil.example.com", subject: "s" } }, ["claimMatch.issuer"]],
      [{ claimMatch: { issuer: "https://i.example.com", subjectPattern: "repo:(" } }, ["claimMatch.subjectPattern"]],
      [{ awsIdentity: { awsAccount: "1234", arn: "arn" } }, ["awsIdentity.awsAccount"]],
      [{}, ["claimMatch"]],
      [{ claimMatch, servicePrincipal: "SERVICE_PRINCIPAL_INGESTER" }, ["servicePrincipal"]],
      [{ servicePrincipal: "NOBODY" }, ["servicePrincipal"]],
    ];
    for (const [kind, props] of cases) {
      const r = await identities.check({} as any, { groupUid: g, name: "x-0", ...kind } as any);
      expect(
        r.failures?.map((f) => f.reason.split(":")[0]),
        JSON.stringify(kind),
      ).toEqual(props);
    }
    const loopback = await identities.check({} as any, { groupUid: g, name: "x-0", claimMatch: { issuer: "http://127.0.0.1:9999", subject: "s" } } as any);
    expect(loopback.failures).toEqual([]);
    const unknown = await identities.check({} as any, { groupUid: g, name: "x-0", claimMatch: { issuer: UNKNOWN, subject: UNKNOWN } } as any);
    expect(unknown.failures).toEqual([]);
    const wholeUnknown = await identities.check({} as any, { groupUid: UNKNOWN, name: "x-0", claimMatch: UNKNOWN } as any);
    expect(wholeUnknown.failures).toEqual([]);
  });

  it("names an unknown key inside a block by its full path", async () => {
    const g = ctx.server.organization;
    const r = await identities.check({} as any, { groupUid: g, name: "x-0", claimMatch: { ...claimMatch, issuerr: "https://x.example.com" } } as any);
    expect(r.failures).toEqual([{ property: "claimMatch", reason: "claimMatch.issuerr: is not a known field" }]);
    const idp = await dynamicProviders.identityProviders.check(
      {} as any,
      {
        groupUid: g,
        name: "x-0",
        oidc: { issuer: "https://i.example.com", clientId: "c", clientSecret: "s", scopes: ["email"] },
        defaultRoleUid: g,
      } as any,
    );
    // oidc holds the client secret: no property, so the engine prints no value of it.
    expect(idp.failures).toEqual([{ property: "", reason: "oidc.scopes: is not a known field" }]);
    const aa = await dynamicProviders.accountAssociations.check(
      {} as any,
      { groupUid: g, name: "x-0", github: { appInstallations: { "7": { installations: [{ installationId: "1", nme: "x" }] } } } } as any,
    );
    expect(aa.failures).toEqual([{ property: "github", reason: "github.appInstallations.7.installations.0.nme: is not a known field" }]);
  });

  it("checks an expired staticKeys expiration whenever the API will check it again", async () => {
    const g = ctx.server.organization;
    const past = new Date(Date.now() - 3600_000).toISOString();
    const staticKeys = { issuer: "https://i.example.com", subject: "s", issuerKeys: JWKS, expirationTime: past };
    const olds = { groupUid: g, name: "x-0", staticKeys };
    // Unchanged, or an unrelated change: an expiration that has since passed breaks nothing.
    expect((await identities.check(olds as any, olds as any)).failures).toEqual([]);
    expect((await identities.check(olds as any, { ...olds, description: "d" } as any)).failures).toEqual([]);
    // Moved to another group (a replacement creates it again) or the block changed: the API checks it.
    const failure = [{ property: "staticKeys", reason: "staticKeys.expirationTime: must be in the future" }];
    expect((await identities.check(olds as any, { ...olds, groupUid: `${g}/0123456789abcdef` } as any)).failures).toEqual(failure);
    expect((await identities.check(olds as any, { ...olds, staticKeys: { ...staticKeys, audiences: ["api"] } } as any)).failures).toEqual(failure);
  });

  it("shows no diff for the expiration the API gives static keys, and takes keys that are no JWKS", async () => {
    const group = await freshGroup(ctx);
    // The platform stores any issuerKeys (its own tests use "keys"): preview does not refuse it.
    const inputs = { groupUid: group, name: uniqueName("sk"), staticKeys: { issuer: "https://i.example.com", subject: "s", issuerKeys: "keys" } };
    expect((await identities.check({} as any, inputs as any)).failures).toEqual([]);
    const { id, outs } = await identities.create(inputs as any);
    const sk = outs!.staticKeys as Rec;
    expect(Date.parse(sk.expirationTime as string)).toBe(Date.parse(outs!.createTime as string) + 365 * 86_400_000);
    // The program says nothing of the expiration: no change, preview after preview.
    expect((await identities.diff(id, outs!, inputs as any)).changes).toBe(false);
    // One it states is a change, sent with the whole block.
    const later = new Date(Date.now() + 30 * 86_400_000).toISOString();
    const news = { ...inputs, staticKeys: { ...inputs.staticKeys, expirationTime: later } };
    expect(await identities.diff(id, outs!, news as any)).toMatchObject({ changes: true, replaces: [] });
    const { outs: after } = await identities.update(id, outs!, news as any);
    expect(Date.parse((after!.staticKeys as Rec).expirationTime as string)).toBe(Date.parse(later));
    expect((await identities.diff(id, after!, news as any)).changes).toBe(false);
    // Preview refuses what is more than 365 days ahead, in the API's words.
    const far = { ...inputs, staticKeys: { ...inputs.staticKeys, expirationTime: new Date(Date.now() + 400 * 86_400_000).toISOString() } };
    expect((await identities.check({} as any, far as any)).failures).toEqual([
      { property: "staticKeys", reason: "staticKeys.expirationTime: must be at most 365 days after the identity's creation" },
    ]);
  });

  it("takes a service principal as Terraform writes it (INGESTER), and names the field and the values of a wrong one", async () => {
    const group = await freshGroup(ctx);
    const inputs = { groupUid: group, name: uniqueName("sp"), servicePrincipal: "INGESTER" };
    expect((await identities.check({} as any, inputs as any)).failures).toEqual([]);
    const { id, outs } = await identities.create(inputs as any);
    expect(outs!.servicePrincipal).toBe("SERVICE_PRINCIPAL_INGESTER");
    expect(ctx.server.requests.filter((r) => r.method === "POST").at(-1)!.body).toMatchObject({ servicePrincipal: "SERVICE_PRINCIPAL_INGESTER" });
    // Either spelling is the same value: no change.
    expect((await identities.diff(id, outs!, inputs as any)).changes).toBe(false);
    expect((await identities.diff(id, outs!, { ...inputs, servicePrincipal: "SERVICE_PRINCIPAL_INGESTER" } as any)).changes).toBe(false);
    expect((await identities.diff(id, outs!, { ...inputs, servicePrincipal: "COSIGNED" } as any)).changes).toBe(true);
    const wrong = await identities.check({} as any, { ...inputs, servicePrincipal: "Ingestor" } as any);
    expect(wrong.failures).toHaveLength(1);
    expect(wrong.failures![0].property).toBe("servicePrincipal");
    expect(wrong.failures![0].reason).toMatch(
      /^servicePrincipal: is not a service principal: one of COSIGNED, INGESTER, .*SKILLS, with or without the SERVICE_PRINCIPAL_ prefix \(did you mean "INGESTER"\?\)$/,
    );
  });

  it("refuses to adopt an identity of another kind", async () => {
    const group = await freshGroup(ctx);
    const aws = await created(ctx.api, "identities", group, {
      name: "aws",
      awsIdentity: { awsAccount: "123456789012", arn: "arn:aws:iam::123456789012:role/x" },
    });
    await expect(identities.create({ groupUid: group, name: "aws", claimMatch, adoptUid: aws.uid })).rejects.toThrow(
      /existing identity is a awsIdentity identity, but the inputs declare claimMatch/,
    );
    const adopted = await identities.create({
      groupUid: group,
      name: "aws2",
      awsIdentity: { awsAccount: "123456789012", arn: "arn:aws:iam::123456789012:role/x" },
      adoptUid: aws.uid,
    });
    expect(adopted.outs).toMatchObject({ uid: aws.uid, name: "aws2" });
  });
});
