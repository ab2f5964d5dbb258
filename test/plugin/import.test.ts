import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { specialSecretSig, specialSigKey } from "@pulumi/pulumi/runtime/rpc";
import { beforeAll, describe, expect, it } from "vitest";
import { secret, struct, urn, usePlugin } from "../support/plugin";
import { KINDS, definitionOf, tokenOf, type Kind } from "../../api/kinds";
import { makeEveryKind, type EveryKind, type MadeByHand } from "../support/every-kind";
import { useServer } from "../support/server";
import { deploymentPath, seedDeployer } from "../support/deployments";

// Import through the plugin's gRPC server, one resource of every kind made by hand, called as the
// engine calls it: Read with no properties, then Check of what it read (old and new alike, as
// `pulumi import` does), then Diff of the outputs against those inputs, which must be no change.
const unwrap = (v: any): any =>
  v?.[specialSigKey] === specialSecretSig
    ? unwrap(v.value)
    : Array.isArray(v)
      ? v.map(unwrap)
      : v && typeof v === "object"
        ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, unwrap(x)]))
        : v;
const NONE = provproto.DiffResponse.DiffChanges.DIFF_NONE;

/** The resources of `makeEveryKind`, with their kind. */
const EVERY: [keyof EveryKind, Kind][] = [
  ["team", "groups"],
  ["subteam", "groups"],
  ["ci", "identities"],
  ["keys", "identities"],
  ["aws", "identities"],
  ["syncer", "identities"],
  ["deployer", "roles"],
  ["binding", "roleBindings"],
  ["sso", "identityProviders"],
  ["accounts", "accountAssociations"],
  ["invite", "groupInvites"],
  ["subscription", "subscriptions"],
  ["repo", "repos"],
  ["tag", "tags"],
  // The repo's deployment (made below: makeEveryKind's admin holds no registry.deployments.create), its id the repo's.
  ["repo", "repoDeployments"],
];
/** The URN of a resource `r` of `kind`, by its plugin type token. */
const urnOf = (kind: Kind) => urn(tokenOf(definitionOf(kind)), "r");

describe("import of every kind through the plugin's provider server", () => {
  const ctx = useServer({ seed: seedDeployer() });
  let made: MadeByHand;
  const plugin = usePlugin();
  const call = plugin.call;
  const read = (type: Kind, id: string) => call<provproto.ReadResponse>("read", new provproto.ReadRequest().setUrn(urnOf(type)).setId(id));
  const check = (type: Kind, olds: object, news: object) =>
    call<provproto.CheckResponse>("check", new provproto.CheckRequest().setUrn(urnOf(type)).setOlds(struct(olds)).setNews(struct(news)));
  const diff = (type: Kind, id: string, olds: object, news: object) =>
    call<provproto.DiffResponse>("diff", new provproto.DiffRequest().setUrn(urnOf(type)).setId(id).setOlds(struct(olds)).setNews(struct(news)));
  /** What an import reads: the outputs and the inputs, as plain JavaScript (secrets still wrapped). */
  const imported = async (type: Kind, id: string) => {
    const r = await read(type, id);
    expect(r.getId()).toBe(id);
    return { outs: r.getProperties()!.toJavaScript() as Record<string, any>, ins: r.getInputs()!.toJavaScript() as Record<string, any> };
  };

  beforeAll(async () => {
    await plugin.configure({ apiUrl: ctx.server.url, token: secret(ctx.server.token) });
    made = await makeEveryKind(ctx.api, ctx.server.organization);
    const charts = [{ repo: "oci://ghcr.io/stefanprodan/charts/podinfo", source: "https://github.com/stefanprodan/podinfo" }];
    expect((await ctx.api.post(deploymentPath(made.repo), { charts })).status).toBe(200);
  });

  it("reads inputs that check accepts and that diff as no change, for every kind (each identity type too)", async () => {
    expect(new Set(EVERY.map(([, kind]) => kind))).toEqual(new Set(KINDS.map((d) => d.kind)));
    for (const [key, type] of EVERY) {
      const { outs, ins } = await imported(type, made[key]);
      const checked = await check(type, ins, ins);
      expect({ key, failures: checked.getFailuresList().map((f) => f.getReason()) }).toEqual({ key, failures: [] });
      const d = await diff(type, made[key], outs, checked.getInputs()!.toJavaScript());
      expect({ key, changes: d.getChanges(), diffs: d.getDiffsList() }).toEqual({ key, changes: NONE, diffs: [] });
      // Only declared inputs: nothing the API computes.
      for (const output of ["uid", "createTime", "updateTime", "keyId", "code", "lastSeenTime"]) expect(ins).not.toHaveProperty(output);
    }
  });

  it("reads the fields that tell each identity type apart", async () => {
    const types = await Promise.all(
      (["ci", "keys", "aws", "syncer"] as const).map(async (k) => Object.keys((await imported("identities", made[k])).ins).sort()),
    );
    expect(types).toEqual([
      ["claimMatch", "description", "groupUid", "name"],
      ["groupUid", "name", "staticKeys"],
      ["awsIdentity", "groupUid", "name"],
      ["groupUid", "name", "servicePrincipal"],
    ]);
  });

  it("imports an identity provider without its client secret; stating one later is an update of oidc, never a replacement", async () => {
    const { outs, ins } = await imported("identityProviders", made.sso);
    expect(unwrap(ins).oidc).not.toHaveProperty("clientSecret");
    expect(unwrap(ins).oidc).toMatchObject({ issuer: "https://login.acme.example", clientId: "irv" });

    const stated = { ...unwrap(ins), oidc: { ...unwrap(ins).oidc, clientSecret: secret("new-secret") } };
    expect((await check("identityProviders", ins, stated)).getFailuresList()).toEqual([]);
    const d = await diff("identityProviders", made.sso, outs, stated);
    expect(d.getChanges()).toBe(provproto.DiffResponse.DiffChanges.DIFF_SOME);
    expect(d.getReplacesList()).toEqual([]);
    expect(d.getDetaileddiffMap().get("oidc")!.getKind()).toBe(provproto.PropertyDiff.Kind.UPDATE);
  });

  it("still requires the client secret to create one, also as a replacement, and once stated it cannot be dropped", async () => {
    const { ins } = await imported("identityProviders", made.sso);
    const plainIns = unwrap(ins);
    const reasons = async (olds: object, news: object) => (await check("identityProviders", olds, news)).getFailuresList().map((f) => f.getReason());
    expect(await reasons({}, plainIns)).toEqual([expect.stringMatching(/^oidc\.clientSecret: /)]);
    expect(await reasons(plainIns, { ...plainIns, groupUid: made.subteam })).toEqual([expect.stringMatching(/^oidc\.clientSecret: /)]);
    const withSecret = { ...plainIns, oidc: { ...plainIns.oidc, clientSecret: "s" } };
    expect(await reasons(withSecret, plainIns)).toEqual([expect.stringMatching(/^oidc\.clientSecret: /)]);
  });

  it("imports an invite with the ttl it was made with and no code; a program's ttl matches when the invite lives exactly that long", async () => {
    const { outs, ins } = await imported("groupInvites", made.invite);
    expect(ins).toMatchObject({ groupUid: made.team, roleUid: made.viewer, email: "new-hire@acme.example", ttl: "86400s" });
    expect(Date.parse(outs.expirationTime) - Date.parse(outs.createTime)).toBe(86400_000);
    expect(ins).not.toHaveProperty("expirationTime");
    expect(outs.code).toBeNull(); // only a create returns the code

    const same = await diff("groupInvites", made.invite, outs, { ...ins, ttl: "86400s" });
    expect(same.getChanges()).toBe(NONE);
    const other = await diff("groupInvites", made.invite, outs, { ...ins, ttl: "3600s" });
    expect(other.getReplacesList()).toEqual(["ttl"]);
  });

  it("refuses to import the organization's root group and a built-in role, saying why", async () => {
    await expect(read("groups", ctx.server.organization)).rejects.toThrow(/lies in no group \(it is the organization's root group\).*cannot be imported/);
    await expect(read("roles", made.viewer)).rejects.toThrow(/lies in no group \(it is a built-in role\).*cannot be imported/);
  });

  it("fails the import of a uid that does not exist, or is of another kind, as not found", async () => {
    expect((await read("identities", made.team)).getId()).toBe("");
    expect((await read("groups", `${made.team}/0123456789abcdef`)).getId()).toBe("");
  });
});
