import * as grpc from "@grpc/grpc-js";
import * as structproto from "google-protobuf/google/protobuf/struct_pb";
import * as provrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { specialSecretSig, specialSigKey, unknownValue } from "@pulumi/pulumi/runtime/rpc";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serve } from "../../plugin/server";
import { path as apiPath, listAll, useServer } from "../support/server";

// The plugin's gRPC server, called as the engine calls it: Configure from its args, check naming
// the field, secrets unwrapped and wrapped again, a detailed diff, previews without the API, and
// an import's read that carries no properties.
const secret = (value: unknown) => ({ [specialSigKey]: specialSecretSig, value });
const isSecret = (v: any) => v?.[specialSigKey] === specialSecretSig;
const urn = (type: string, name: string) => `urn:pulumi:dev::p::${type}::${name}`;
const struct = (v: object) => structproto.Struct.fromJavaScript(v as any);

describe("the plugin's provider server", () => {
  const ctx = useServer();
  let stop: () => void;
  let client: any;
  const call = <T>(method: string, req: unknown): Promise<T> =>
    new Promise((resolve, reject) => client[method](req, (e: Error | null, r: T) => (e ? reject(e) : resolve(r))));

  beforeAll(async () => {
    const { port, server } = await serve();
    stop = () => server.forceShutdown();
    client = new (provrpc as any).ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
    const req = new provproto.ConfigureRequest().setArgs(struct({ apiUrl: ctx.server.url, token: secret(ctx.server.token) })).setAcceptsecrets(true);
    const resp = await call<provproto.ConfigureResponse>("configure", req);
    expect(resp.getSupportspreview()).toBe(true);
    expect(resp.getAcceptsecrets()).toBe(true);
  });
  afterAll(() => {
    client?.close();
    stop?.();
  });

  const check = (type: string, news: object, olds: object = {}) =>
    call<provproto.CheckResponse>("check", new provproto.CheckRequest().setUrn(urn(type, "r")).setOlds(struct(olds)).setNews(struct(news)));

  it("refuses bad input in check, naming the field", async () => {
    const r = await check("irv:iam:Group", { parentUid: ctx.server.organization, name: "Not Valid!" });
    expect(r.getFailuresList().map((f) => f.getProperty())).toContain("name");
  });

  it("unwraps secret inputs for check and keeps the kind's secret fields secret in what it returns", async () => {
    const r = await check("irv:iam:IdentityProvider", {
      groupUid: ctx.server.organization,
      name: "sso",
      oidc: { issuer: "https://login.acme.example", clientId: "irv", clientSecret: secret("cs-1") },
    });
    expect(r.getFailuresList()).toEqual([]);
    const inputs = r.getInputs()!.toJavaScript() as any;
    expect(isSecret(inputs.oidc)).toBe(true);
    expect(inputs.oidc.value.clientSecret).toBe("cs-1");
  });

  it("creates with the configured credentials, previews without the API, and wraps an invite's code", async () => {
    const news = { parentUid: ctx.server.organization, name: "plugin-made" };
    const preview = await call<provproto.CreateResponse>(
      "create",
      new provproto.CreateRequest().setUrn(urn("irv:iam:Group", "g")).setProperties(struct(news)).setPreview(true),
    );
    expect((preview.getProperties()!.toJavaScript() as any).uid).toBe(unknownValue);

    const made = await call<provproto.CreateResponse>("create", new provproto.CreateRequest().setUrn(urn("irv:iam:Group", "g")).setProperties(struct(news)).setTimeout(60));
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
    const olds = { uid: "o/g", parentUid: "o", name: "a", description: "", createTime: "t" };
    const diff = (news: object) =>
      call<provproto.DiffResponse>("diff", new provproto.DiffRequest().setUrn(urn("irv:iam:Group", "g")).setId("o/g").setOlds(struct(olds)).setNews(struct(news)));
    expect((await diff({ parentUid: "o", name: "a" })).getChanges()).toBe(provproto.DiffResponse.DiffChanges.DIFF_NONE);

    const update = await diff({ parentUid: "o", name: "b" });
    expect(update.getChanges()).toBe(provproto.DiffResponse.DiffChanges.DIFF_SOME);
    expect(update.getReplacesList()).toEqual([]);
    expect(update.getDetaileddiffMap().get("name")!.getKind()).toBe(provproto.PropertyDiff.Kind.UPDATE);

    const replace = await diff({ parentUid: "o2", name: "a" });
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
      process.env.IRV_API_URL = ctx.server.url;
      process.env.IRV_TOKEN = ctx.server.token;
      expect((await read()).getId()).toBe(org);
    } finally {
      for (const [k, v] of [["IRV_API_URL", saved.url], ["IRV_TOKEN", saved.token]] as const) v === undefined ? delete process.env[k] : (process.env[k] = v);
    }
  });
});
