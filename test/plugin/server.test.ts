import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { unknownValue } from "@pulumi/pulumi/runtime/rpc";
import { beforeAll, describe, expect, it } from "vitest";
import { isSecret, secret, struct, urn, usePlugin } from "../support/plugin";
import { path as apiPath, listAll, useServer } from "../support/server";
import { builtinRoleUid } from "../../server";

/** An identity provider's default role: the built-in viewer (its uid is the same on every server). */
const defaultRoleUid = builtinRoleUid("viewer");

// The plugin's gRPC server, called as the engine calls it: Configure from its args, check naming
// the field, secrets unwrapped and wrapped again, a detailed diff, previews without the API, and
// an import's read that carries no properties.

describe("the plugin's provider server", () => {
  const ctx = useServer();
  const plugin = usePlugin();
  const call = plugin.call;

  beforeAll(async () => {
    const resp = await plugin.configure({ apiUrl: ctx.server.url, token: secret(ctx.server.token) });
    expect(resp.getSupportspreview()).toBe(true);
    expect(resp.getAcceptsecrets()).toBe(true);
  });

  const check = (type: string, news: object, olds: object = {}) =>
    call<provproto.CheckResponse>("check", new provproto.CheckRequest().setUrn(urn(type, "r")).setOlds(struct(olds)).setNews(struct(news)));

  it("refuses bad input in check, naming the field", async () => {
    const r = await check("irv:iam:Group", { parentUid: ctx.server.organization, name: "Not Valid!" });
    expect(r.getFailuresList().map((f) => f.getProperty())).toContain("name");
  });

  it("unwraps secret inputs for check and keeps the kind's secret member secret in what it returns, the rest of its block readable", async () => {
    // As YAML sends it: a plain block whose clientSecret is secret.
    const r = await check("irv:iam:IdentityProvider", {
      groupUid: ctx.server.organization,
      name: "sso",
      defaultRoleUid,
      oidc: { issuer: "https://login.acme.example", clientId: "irv", clientSecret: secret("cs-1") },
    });
    expect(r.getFailuresList()).toEqual([]);
    const inputs = r.getInputs()!.toJavaScript() as any;
    expect(isSecret(inputs.oidc)).toBe(false);
    expect(inputs.oidc).toEqual({ issuer: "https://login.acme.example", clientId: "irv", clientSecret: secret("cs-1") });
  });

  it("keeps the client secret secret in check whatever the program marked: nothing, or the whole block", async () => {
    const oidc = { issuer: "https://login.acme.example", clientId: "irv", clientSecret: "cs-2", additionalScopes: ["email"] };
    const news = (o: unknown) => ({ groupUid: ctx.server.organization, name: "sso", defaultRoleUid, oidc: o });
    // A generated SDK sends nested secret members unmarked: the provider marks the member.
    const plainIn = (await check("irv:iam:IdentityProvider", news(oidc))).getInputs()!.toJavaScript() as any;
    expect(plainIn.oidc).toEqual({ ...oidc, clientSecret: secret("cs-2") });
    // A program that made the whole block secret keeps it secret as a whole (and not wrapped twice).
    const wholeIn = (await check("irv:iam:IdentityProvider", news(secret(oidc)))).getInputs()!.toJavaScript() as any;
    expect(wholeIn.oidc).toEqual(secret(oidc));
    // A bad member of a block with a secret is named, and the failure shows no value.
    const bad = await check("irv:iam:IdentityProvider", news({ ...oidc, issuer: "http://login.acme.example" }));
    expect(bad.getFailuresList().map((f) => [f.getProperty(), f.getReason()])).toEqual([["", expect.stringMatching(/^oidc\.issuer: must be an https URL/)]]);
  });

  it("creates, refreshes, imports and updates an identity provider with only oidc.clientSecret secret in outputs and inputs", async () => {
    const org = ctx.server.organization;
    const urnOf = urn("irv:iam:IdentityProvider", "sso");
    const inputs = {
      groupUid: org,
      name: "sso-depth",
      defaultRoleUid,
      oidc: { issuer: "https://login.acme.example", clientId: "irv", clientSecret: secret("cs-3") },
    };
    const made = await call<provproto.CreateResponse>("create", new provproto.CreateRequest().setUrn(urnOf).setProperties(struct(inputs)));
    const outs = made.getProperties()!.toJavaScript() as any;
    expect(outs.oidc).toEqual({ issuer: "https://login.acme.example", clientId: "irv", additionalScopes: [], clientSecret: secret("cs-3") });
    expect(outs.uid).toBe(made.getId());

    // A refresh: the write-only secret comes from the prior outputs, and stays secret in both.
    const read = await call<provproto.ReadResponse>(
      "read",
      new provproto.ReadRequest().setUrn(urnOf).setId(made.getId()).setProperties(struct(outs)).setInputs(struct(inputs)),
    );
    for (const v of [read.getProperties(), read.getInputs()]) {
      const o = v!.toJavaScript() as any;
      expect(o.oidc.issuer).toBe("https://login.acme.example");
      expect(o.oidc.clientSecret).toEqual(secret("cs-3"));
    }
    // An import knows no secret: there is none to wrap, and the rest is plain.
    const imported = await call<provproto.ReadResponse>("read", new provproto.ReadRequest().setUrn(urnOf).setId(made.getId()));
    expect((imported.getInputs()!.toJavaScript() as any).oidc).toMatchObject({ issuer: "https://login.acme.example", clientId: "irv" });
    expect((imported.getInputs()!.toJavaScript() as any).oidc.clientSecret).toBeUndefined();

    // An update sent with nothing marked (as a generated SDK does) still stores the secret wrapped.
    const news = { ...inputs, oidc: { issuer: "https://login.acme.example", clientId: "irv-2", clientSecret: "cs-4" } };
    const updated = await call<provproto.UpdateResponse>(
      "update",
      new provproto.UpdateRequest().setUrn(urnOf).setId(made.getId()).setOlds(struct(outs)).setNews(struct(news)),
    );
    expect((updated.getProperties()!.toJavaScript() as any).oidc).toEqual({
      issuer: "https://login.acme.example",
      clientId: "irv-2",
      additionalScopes: [],
      clientSecret: secret("cs-4"),
    });
    expect((await ctx.api.get(apiPath("identityProviders", made.getId()))).body.oidc.clientId).toBe("irv-2");
    const preview = await call<provproto.UpdateResponse>(
      "update",
      new provproto.UpdateRequest().setUrn(urnOf).setId(made.getId()).setOlds(struct(outs)).setNews(struct(news)).setPreview(true),
    );
    expect((preview.getProperties()!.toJavaScript() as any).oidc.clientSecret).toEqual(secret("cs-4"));
  });

  it("answers a refresh that finds no drift with what the engine sent; drift, or a kind's secret stored plain, gets new values with secrets in place", async () => {
    const u = urn("irv:iam:IdentityProvider", "sso-same");
    const oidc = { issuer: "https://login.acme.example", clientId: "irv", clientSecret: secret("cs-5") };
    const inputs = { groupUid: ctx.server.organization, name: "sso-same", defaultRoleUid, description: secret("kept secret"), oidc };
    const made = await call<provproto.CreateResponse>("create", new provproto.CreateRequest().setUrn(u).setProperties(struct(inputs)));
    const read = async (props: object, ins: object) => {
      const r = await call<provproto.ReadResponse>(
        "read",
        new provproto.ReadRequest().setUrn(u).setId(made.getId()).setProperties(struct(props)).setInputs(struct(ins)),
      );
      return { props: r.getProperties()!.toJavaScript() as any, inputs: r.getInputs()!.toJavaScript() as any };
    };
    const first = await read(made.getProperties()!.toJavaScript(), inputs);
    expect(first.props.description).toEqual(secret("kept secret"));
    expect(first.inputs.oidc.clientSecret).toEqual(secret("cs-5"));
    // No drift: back exactly as sent, every secret where it was.
    expect(await read(first.props, first.inputs)).toEqual(first);

    // Drift made by hand: the new value, still secret because it arrived secret.
    expect((await ctx.api.patch(apiPath("identityProviders", made.getId()), { description: "by hand" }, { update_mask: "description" })).status).toBe(200);
    const drifted = await read(first.props, first.inputs);
    expect(drifted.props.description).toEqual(secret("by hand"));
    expect(drifted.inputs.description).toEqual(secret("by hand"));
    expect(drifted.props.oidc.clientSecret).toEqual(secret("cs-5"));

    // State written with the client secret plain (by hand, or an older version): wrapped on the way out.
    const plainSecret = (v: any) => ({ ...v, oidc: { ...v.oidc, clientSecret: "cs-5" } });
    const rewrapped = await read(plainSecret(drifted.props), plainSecret(drifted.inputs));
    expect(rewrapped.props.oidc.clientSecret).toEqual(secret("cs-5"));
    expect(rewrapped.inputs.oidc.clientSecret).toEqual(secret("cs-5"));
  });

  it("keeps whatever arrived secret secret at its depth in check and create outputs; a secret in a list keeps the list secret", async () => {
    const org = ctx.server.organization;
    const identity = { groupUid: org, name: "depth", claimMatch: { issuer: "https://token.example", subject: secret("repo:acme/app") } };
    const checked = (await check("irv:iam:Identity", identity)).getInputs()!.toJavaScript() as any;
    expect(checked.claimMatch).toEqual({ issuer: "https://token.example", subject: secret("repo:acme/app") });
    const made = await call<provproto.CreateResponse>(
      "create",
      new provproto.CreateRequest().setUrn(urn("irv:iam:Identity", "i")).setProperties(struct(identity)),
    );
    expect((made.getProperties()!.toJavaScript() as any).claimMatch).toEqual({ issuer: "https://token.example", subject: secret("repo:acme/app") });
    const preview = await call<provproto.CreateResponse>(
      "create",
      new provproto.CreateRequest().setUrn(urn("irv:iam:Identity", "i")).setProperties(struct(identity)).setPreview(true),
    );
    expect((preview.getProperties()!.toJavaScript() as any).claimMatch.subject).toEqual(secret("repo:acme/app"));

    const role = { groupUid: org, name: "depth", capabilities: ["groups.list", secret("roles.list")] };
    expect(((await check("irv:iam:Role", role)).getInputs()!.toJavaScript() as any).capabilities).toEqual(secret(["groups.list", "roles.list"]));
    const madeRole = await call<provproto.CreateResponse>("create", new provproto.CreateRequest().setUrn(urn("irv:iam:Role", "r")).setProperties(struct(role)));
    expect(isSecret((madeRole.getProperties()!.toJavaScript() as any).capabilities)).toBe(true);
  });

  it("creates with the configured credentials, previews without the API, and wraps an invite's code", async () => {
    const news = { parentUid: ctx.server.organization, name: "plugin-made" };
    const preview = await call<provproto.CreateResponse>(
      "create",
      new provproto.CreateRequest().setUrn(urn("irv:iam:Group", "g")).setProperties(struct(news)).setPreview(true),
    );
    expect((preview.getProperties()!.toJavaScript() as any).uid).toBe(unknownValue);

    const made = await call<provproto.CreateResponse>(
      "create",
      new provproto.CreateRequest().setUrn(urn("irv:iam:Group", "g")).setProperties(struct(news)).setTimeout(60),
    );
    const uid = made.getId();
    expect((await ctx.api.get(apiPath("groups", uid))).body.name).toBe("plugin-made");
    expect(made.getProperties()!.toJavaScript()).not.toHaveProperty("__timeouts");

    const viewer = (await listAll(ctx.api, "roles")).find((r) => r.name === "viewer").uid;
    const invite = await call<provproto.CreateResponse>(
      "create",
      new provproto.CreateRequest().setUrn(urn("irv:iam:GroupInvite", "i")).setProperties(struct({ groupUid: uid, roleUid: viewer, ttl: "3600s" })),
    );
    expect(isSecret((invite.getProperties()!.toJavaScript() as any).code)).toBe(true);
  });

  it("answers an import's read, which has no properties, with outputs and only the declared inputs", async () => {
    const made = await ctx.api.post(apiPath("groups", ctx.server.organization), { name: "imported", description: "by hand" });
    const r = await call<provproto.ReadResponse>("read", new provproto.ReadRequest().setUrn(urn("irv:iam:Group", "g")).setId(made.body.uid));
    expect(r.getId()).toBe(made.body.uid);
    expect(r.getProperties()!.toJavaScript()).toMatchObject({ uid: made.body.uid, name: "imported" });
    expect(r.getInputs()!.toJavaScript()).toEqual({ parentUid: ctx.server.organization, name: "imported", description: "by hand" });

    await ctx.api.del(apiPath("groups", made.body.uid));
    const gone = await call<provproto.ReadResponse>("read", new provproto.ReadRequest().setUrn(urn("irv:iam:Group", "g")).setId(made.body.uid));
    expect(gone.getId()).toBe("");
  });

  it("diffs exactly: none when nothing changed, a detailed replacement naming only the field that forces it", async () => {
    const olds = { uid: "o/g", parentUid: "o", name: "a-0", description: "", createTime: "t" };
    const diff = (news: object) =>
      call<provproto.DiffResponse>(
        "diff",
        new provproto.DiffRequest().setUrn(urn("irv:iam:Group", "g")).setId("o/g").setOlds(struct(olds)).setNews(struct(news)),
      );
    expect((await diff({ parentUid: "o", name: "a-0" })).getChanges()).toBe(provproto.DiffResponse.DiffChanges.DIFF_NONE);

    const update = await diff({ parentUid: "o", name: "b-0" });
    expect(update.getChanges()).toBe(provproto.DiffResponse.DiffChanges.DIFF_SOME);
    expect(update.getReplacesList()).toEqual([]);
    expect(update.getDetaileddiffMap().get("name")!.getKind()).toBe(provproto.PropertyDiff.Kind.UPDATE);

    const replace = await diff({ parentUid: "o2", name: "a-0" });
    expect(replace.getReplacesList()).toEqual(["parentUid"]);
    expect(replace.getHasdetaileddiff()).toBe(true);
    expect([...replace.getDetaileddiffMap().keys()]).toEqual(["parentUid"]);
    expect(replace.getDetaileddiffMap().get("parentUid")!.getKind()).toBe(provproto.PropertyDiff.Kind.UPDATE_REPLACE);
  });

  it("answers GetSchema with the derived schema", async () => {
    const r = await call<provproto.GetSchemaResponse>("getSchema", new provproto.GetSchemaRequest());
    expect(JSON.parse(r.getSchema()).resources["irv:iam:RoleBinding"]).toBeDefined();
  });
  it("takes its settings from Configure's variables, then from the IRV_* environment, and names a missing one", async () => {
    // A group of the org's (the root group itself cannot be imported, so a read with no properties refuses it).
    const org = (await ctx.api.post(apiPath("groups", ctx.server.organization), { name: "settings-probe" })).body.uid as string;
    const read = () => call<provproto.ReadResponse>("read", new provproto.ReadRequest().setUrn(urn("irv:iam:Group", "g")).setId(org));
    const configure = (f: (r: provproto.ConfigureRequest) => void = () => {}) => {
      const req = new provproto.ConfigureRequest();
      f(req);
      return call("configure", req);
    };
    await configure((r) => r.getVariablesMap().set("irv:config:apiUrl", ctx.server.url).set("irv:config:token", ctx.server.token));
    expect((await read()).getId()).toBe(org);

    const saved = { url: process.env.IRV_API_URL, token: process.env.IRV_TOKEN };
    try {
      delete process.env.IRV_API_URL;
      delete process.env.IRV_TOKEN;
      await configure();
      await expect(read()).rejects.toThrow(/irv:apiUrl \(IRV_API_URL\)/);
      // The plugin's environment is the one the engine started it with: read at Configure.
      process.env.IRV_API_URL = ctx.server.url;
      process.env.IRV_TOKEN = ctx.server.token;
      await configure();
      expect((await read()).getId()).toBe(org);
    } finally {
      for (const [k, v] of [
        ["IRV_API_URL", saved.url],
        ["IRV_TOKEN", saved.token],
      ] as const)
        v === undefined ? delete process.env[k] : (process.env[k] = v);
    }
  });
});

// Each call's context carries its plugin's client (plugin/server.ts): nothing comes from the
// process, so two plugins in one process (as in these tests, or a host embedding the server) keep
// their own settings whichever was configured last.
describe("two plugin servers in one process", () => {
  const ctx = useServer();
  const first = usePlugin();
  const second = usePlugin();

  it("keep their own settings: each reads with the credentials of its own Configure", async () => {
    const group = (await ctx.api.post(apiPath("groups", ctx.server.organization), { name: "two-plugins" })).body.uid as string;
    const read = (p: typeof first) => p.call<provproto.ReadResponse>("read", new provproto.ReadRequest().setUrn(urn("irv:iam:Group", "g")).setId(group));
    await first.configure({ apiUrl: ctx.server.url, token: secret(ctx.server.token) });
    await second.configure({ apiUrl: ctx.server.url, token: secret("not-a-token-the-server-issued") });
    expect((await read(first)).getId()).toBe(group);
    await expect(read(second)).rejects.toThrow(/^16 UNAUTHENTICATED: .*the API refused the token in irv:token/);
    expect((await read(first)).getId()).toBe(group);
  });
});
