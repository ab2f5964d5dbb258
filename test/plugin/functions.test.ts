import { capabilityNamed } from "../../api/capabilities";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { unknownValue } from "@pulumi/pulumi/runtime/rpc";
import { beforeAll, describe, expect, it } from "vitest";
import { isSecret, secret, struct, usePlugin } from "../support/plugin";
import { FUNCTIONS } from "../../api/functions";
import { wrapResult } from "../../plugin/functions";
import { packageSchema } from "../../plugin/schema";
import { path as apiPath, listAll, useServer } from "../support/server";

// The plugin's Invoke, called as the engine calls it, against a live irv-server with its sample
// registry and advisories: every function answers with what the API holds (and what the schema
// declares, nested types too), through the client
// Configure set up; bad arguments come back as failures naming the argument, and lookups that
// find none or several as errors naming the arguments given.

describe("the plugin's Invoke", () => {
  const ctx = useServer();
  const plugin = usePlugin();
  const call = plugin.call;
  const invokeRaw = (tok: string, args: object) => call<provproto.InvokeResponse>("invoke", new provproto.InvokeRequest().setTok(tok).setArgs(struct(args)));
  const schema = packageSchema() as any;
  /** Checks `v` against an object spec of the schema: no undeclared field, every required one, nested types too. */
  const conforms = (spec: { properties: Record<string, any>; required?: string[] }, v: any, where: string): void => {
    expect(
      Object.keys(v).filter((k) => !(k in spec.properties)),
      where,
    ).toEqual([]);
    for (const r of spec.required ?? []) expect(v, `${where}.${r}`).toHaveProperty(r);
    for (const [k, p] of Object.entries(spec.properties)) {
      const ref: string | undefined = p.$ref ?? p.items?.$ref;
      if (v[k] === undefined || !ref?.startsWith("#/types/")) continue;
      const t = schema.types[ref.slice("#/types/".length)];
      for (const e of p.items ? v[k] : [v[k]])
        if (t.enum)
          expect(
            t.enum.map((x: { value: unknown }) => x.value),
            `${where}.${k}`,
          ).toContain(e);
        else conforms(t, e, `${where}.${k}`);
    }
  };
  /** The result of a successful invoke, failing the test on refused arguments or a result the schema does not declare. */
  const invoke = async (tok: string, args: object = {}): Promise<any> => {
    const r = await invokeRaw(tok, args);
    expect(r.getFailuresList().map((f) => `${f.getProperty()}: ${f.getReason()}`)).toEqual([]);
    const result = r.getReturn()!.toJavaScript();
    conforms(schema.functions[tok].outputs, result, tok);
    return result;
  };
  const failures = async (tok: string, args: object) =>
    (await invokeRaw(tok, args)).getFailuresList().map((f) => ({ property: f.getProperty(), reason: f.getReason() }));
  const outputsOf = (tok: string) => schema.functions[tok].outputs;

  beforeAll(async () => {
    await plugin.configure({ apiUrl: ctx.server.url, token: secret(ctx.server.token) });
  });

  it("finds groups, roles and identities as the API holds them, with every field the schema declares", async () => {
    const org = ctx.server.organization;
    const team = (await ctx.api.post(apiPath("groups", org), { name: "fn-team", description: "for invokes" })).body;
    const claimMatch = { issuer: "https://token.actions.example.com", subject: "repo:acme/fn:ref:refs/heads/main" };
    const ci = (await ctx.api.post(apiPath("identities", team.uid), { name: "fn-ci", claimMatch })).body;
    const custom = (await ctx.api.post(apiPath("roles", team.uid), { name: "fn-releaser", capabilities: ["CAP_REPO_LIST"] })).body;

    const group = await invoke("irv:iam:getGroup", { name: "fn-team", parentUid: org });
    expect(group).toMatchObject({ uid: team.uid, parentUid: org, name: "fn-team", description: "for invokes", createTime: team.createTime });
    expect(Object.keys(group).sort()).toEqual(Object.keys(outputsOf("irv:iam:getGroup").properties).sort());
    expect((await invoke("irv:iam:getGroup", { uid: org })).parentUid).toBeUndefined();

    const viewer = (await listAll(ctx.api, "roles")).find((r) => r.name === "viewer");
    expect(await invoke("irv:iam:getRole", { name: "viewer" })).toMatchObject({
      uid: viewer.uid,
      builtin: true,
      capabilities: viewer.capabilities.map(capabilityNamed),
    });
    expect(await invoke("irv:iam:getRole", { name: "fn-releaser", groupUid: team.uid })).toMatchObject({ uid: custom.uid, groupUid: team.uid, builtin: false });
    const { roles } = await invoke("irv:iam:getRoles", { builtin: true, orderBy: "name" });
    expect(roles.map((r: any) => r.name)).toEqual(["editor", "owner", "registry.pull", "registry.push", "viewer"]);
    expect((await invoke("irv:iam:getRoles", { groupUid: team.uid })).roles.map((r: any) => r.uid)).toEqual([custom.uid]);

    const found = await invoke("irv:iam:getIdentity", claimMatch);
    expect(found).toMatchObject({ uid: ci.uid, groupUid: team.uid, name: "fn-ci", claimMatch });
  });

  it("reads the registry and the advisories, lists paged through and filtered as the API does", async () => {
    const org = ctx.server.organization;
    const { repos } = await invoke("irv:registry:getRepos", { descendantsOf: org, orderBy: "name desc" });
    expect(repos).toHaveLength(36);
    expect(repos.map((r: any) => r.name)).toEqual(
      repos
        .map((r: any) => r.name)
        .sort()
        .reverse(),
    );
    const nginx = await invoke("irv:registry:getRepo", { name: "nginx" });
    // getRepo also reads the README (GetRepoReadme); getRepos leaves it out.
    expect(nginx).toEqual({ ...repos.find((r: any) => r.name === "nginx"), readme: "" });
    expect((await ctx.api.get(apiPath("repos", nginx.uid))).body).toMatchObject({ name: "nginx", catalogTier: nginx.catalogTier });

    const { tags } = await invoke("irv:registry:getTags", { repoUid: nginx.uid });
    const apiTags = await listAll(ctx.api, "tags", { "uidp.children_of": nginx.uid });
    expect(tags.map((t: any) => t.uid).sort()).toEqual(apiTags.map((t) => t.uid).sort());
    expect((await invoke("irv:registry:getTags", { repoUid: nginx.uid, name: "latest" })).tags.map((t: any) => t.name)).toEqual(["latest"]);

    const { advisories } = await invoke("irv:vulnerabilities:getAdvisories", {});
    expect(advisories).toHaveLength(300);
    const sample = advisories[7];
    expect(sample.severities[0]).toEqual({ type: "TYPE_CVSS_V3", score: expect.stringMatching(/^CVSS:3\.1\//) });
    expect(sample.events[0].detection.scanv1.scanner).toBe("grype");
    const referrers = await invoke("irv:registry:getTags", { repoUid: nginx.uid, includeReferrers: true });
    expect(referrers.tags.length).toBe(tags.length + 1);
    expect(tags[0]).toHaveProperty("updateTime");
    const openssl = await invoke("irv:vulnerabilities:getAdvisories", { componentNames: ["openssl"], filters: {} });
    expect(openssl.advisories.length).toBeGreaterThan(0);
    expect(openssl.advisories.every((a: any) => a.componentName === "openssl")).toBe(true);
    expect(await invoke("irv:vulnerabilities:getAdvisory", { advisoryId: sample.advisoryId })).toEqual(sample);
    expect((await invoke("irv:vulnerabilities:getAdvisory", { uid: sample.uid })).advisoryId).toBe(sample.advisoryId);
  });

  it("reads a package's versions (registry v1), nested streams as the schema declares them; a missing package is a failure naming it", async () => {
    const nodejs = await invoke("irv:registry:getVersions", { package: "nodejs" });
    const api = (await ctx.api.get("/registry/v1/versions/nodejs")).body;
    expect(nodejs).toEqual({ package: "nodejs", versions: api });
    expect(nodejs.versions.eolVersions.map((v: any) => v.version)).toEqual(["18", "16"]);
    const before = ctx.server.requests.length;
    expect(await failures("irv:registry:getVersions", {})).toEqual([{ property: "package", reason: expect.stringMatching(/expected string/) }]);
    expect(await failures("irv:registry:getVersions", { package: "" })).toEqual([{ property: "package", reason: expect.stringMatching(/>=1 characters/) }]);
    expect(ctx.server.requests.length).toBe(before);
  });

  it("takes secret arguments unwrapped", async () => {
    expect((await invoke("irv:iam:getRole", { name: secret("viewer") })).builtin).toBe(true);
  });

  it("refuses bad arguments as failures naming each, without calling the API", async () => {
    const before = ctx.server.requests.length;
    expect(await failures("irv:iam:getGroup", { uid: 5 })).toEqual([{ property: "uid", reason: expect.stringMatching(/expected string/) }]);
    expect(await failures("irv:vulnerabilities:getAdvisories", { aliases: "CVE-1" })).toEqual([
      { property: "aliases", reason: expect.stringMatching(/expected array/) },
    ]);
    const both = await failures("irv:iam:getRoles", { builtin: "yes", ids: ["a", 2] });
    expect(both).toHaveLength(2);
    expect(both).toEqual(
      expect.arrayContaining([
        { property: "ids[1]", reason: expect.stringMatching(/expected string/) },
        { property: "builtin", reason: expect.stringMatching(/expected boolean/) },
      ]),
    );
    const [unknownArg] = await failures("irv:registry:getRepo", { repo: "nginx" });
    expect(unknownArg.property).toBe("repo");
    expect(unknownArg.reason).toMatch(/not an argument of irv:registry:getRepo \(its arguments: uid, name, groupUid\)/);
    expect(await failures("irv:iam:getGroup", { uid: unknownValue })).toEqual([{ property: "uid", reason: expect.stringMatching(/not known yet/) }]);
    expect(ctx.server.requests.length).toBe(before);
  });

  it("fails lookups that find none or several with a message naming the function and the arguments", async () => {
    const org = ctx.server.organization;
    await expect(invokeRaw("irv:iam:getGroup", {})).rejects.toThrow(/irv:iam:getGroup\(\): getGroup: give uid, or name \(and parentUid\)/);
    await expect(invokeRaw("irv:iam:getGroup", { name: "nobody", parentUid: org })).rejects.toThrow(
      `irv:iam:getGroup(name: "nobody", parentUid: "${org}"): no group named "nobody" under ${org}`,
    );
    await expect(invokeRaw("irv:iam:getGroup", { uid: `${org}/0000000000000000` })).rejects.toThrow(/irv:iam:getGroup\(uid: "[^"]+"\): .*not found/i);
    const a = (await ctx.api.post(apiPath("groups", org), { name: "twin-a" })).body.uid;
    const b = (await ctx.api.post(apiPath("groups", org), { name: "twin-b" })).body.uid;
    await ctx.api.post(apiPath("groups", a), { name: "twin" });
    await ctx.api.post(apiPath("groups", b), { name: "twin" });
    await expect(invokeRaw("irv:iam:getGroup", { name: "twin" })).rejects.toThrow(
      /irv:iam:getGroup\(name: "twin"\): 2 groups named "twin": .*; narrow the query/,
    );
    await expect(invokeRaw("irv:iam:getNothing", {})).rejects.toThrow(/unknown function irv:iam:getNothing/);
  });

  it("answers every function the schema declares, and wraps result fields marked secret", async () => {
    expect(Object.keys(schema.functions).sort()).toEqual(FUNCTIONS.map((f) => f.token).sort());
    // No function's result is secret today; the wrapping is the same for any field marked so.
    const def = {
      name: "T",
      module: "iam" as const,
      description: "",
      fields: { code: { type: "string", description: "", secret: true }, plain: { type: "string", description: "" } },
    };
    const out = wrapResult(def, [{ code: "c-1", plain: "p" }]) as any[];
    expect(isSecret(out[0].code)).toBe(true);
    expect(out[0].code.value).toBe("c-1");
    expect(out[0].plain).toBe("p");
  });

  it("configured with no credentials, reads public repos without a token and says which settings the others need", async () => {
    const saved = Object.fromEntries(["IRV_TOKEN", "IRV_IDENTITY", "IRV_IDENTITY_TOKEN", "IRV_API_URL", "IRV_CONFIG_DIR"].map((k) => [k, process.env[k]]));
    try {
      for (const k of Object.keys(saved)) delete process.env[k];
      process.env.IRV_CONFIG_DIR = mkdtempSync(join(tmpdir(), "irv-fn-anon-")); // no irv auth login either
      await call("configure", new provproto.ConfigureRequest().setArgs(struct({ apiUrl: ctx.server.url })));
      const before = ctx.server.requests.length;
      const { repos } = await invoke("irv:registry:getRepos", {});
      expect(repos.length).toBeGreaterThan(0);
      expect(repos.every((r: any) => r.visibility === "public")).toBe(true);
      expect(ctx.server.requests.slice(before).every((r) => r.caller === undefined)).toBe(true);
      await expect(invokeRaw("irv:iam:getRoles", {})).rejects.toThrow(/irv:iam:getRoles\(\): .*no credentials: set irv:token \(IRV_TOKEN\)/);
    } finally {
      for (const [k, v] of Object.entries(saved)) v === undefined ? delete process.env[k] : (process.env[k] = v);
      await call("configure", new provproto.ConfigureRequest().setArgs(struct({ apiUrl: ctx.server.url, token: secret(ctx.server.token) })));
    }
  });
});
