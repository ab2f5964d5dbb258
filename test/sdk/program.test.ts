/**
 * Program tests with pulumi.runtime.setMocks: the SDK's resource shapes, the inputs it sends and
 * the serialized `__provider` (no credential in it, well under 2 KB). No CLI; CRUD methods are
 * not called here (see test/provider for those, and test/e2e for the real engine).
 */
import * as pulumi from "@pulumi/pulumi";
import { beforeAll, describe, expect, it } from "vitest";

type Registered = pulumi.runtime.MockResourceArgs;
const registered: Registered[] = [];
const TOKEN = "eyJhbGciOiJIUzI1NiJ9.c2VjcmV0LXRva2Vu.secret-token-do-not-store";

pulumi.runtime.setAllConfig({ "irv:token": TOKEN, "irv:apiUrl": "https://api.example.com" }, ["irv:token"]);
// The mock monitor is in place at once; what the promise waits for is not needed here.
void pulumi.runtime.setMocks(
  {
    newResource(args) {
      registered.push(args);
      const uid = args.id || `${"a".repeat(40)}/${(registered.length).toString(16).padStart(16, "0")}`;
      return { id: uid, state: { ...args.inputs, uid, createTime: "2026-01-01T00:00:00.000Z", code: args.type.endsWith("GroupInvite") ? "the-code" : undefined } };
    },
    call: () => ({}),
  },
  "proj",
  "stack",
  false,
);

// Mocks ignore additionalSecretOutputs; record what each registration asked for.
const secretOutputs = new Map<string, string[]>();
const monitor = pulumi.runtime.getMonitor() as any;
const register = monitor.registerResource.bind(monitor);
monitor.registerResource = (req: any, cb: any) => {
  secretOutputs.set(req.getName(), req.getAdditionalsecretoutputsList());
  return register(req, cb);
};

// Imported after setMocks so resource registration uses the mock monitor.
let irv: typeof import("../../dynamic");
beforeAll(async () => {
  irv = await import("../../dynamic");
});

const org = "0".repeat(40);
const resolve = <T>(o: pulumi.Output<T>) => new Promise<T>((r) => o.apply((v) => r(v)));
const find = (name: string) => registered.find((r) => r.name === name)!;

describe("SDK resources", () => {
  it("registers each kind under pulumi-nodejs:dynamic/irv:<Class> with its outputs", async () => {
    const g = new irv.iam.Group("eng", { parentUid: org, name: "engineering" });
    const id = new irv.iam.Identity("ci", { groupUid: g.uid, name: "ci-0", claimMatch: { issuer: "https://i.example.com", subject: pulumi.output("s") } });
    const role = new irv.iam.Role("r", { groupUid: g.uid, name: "r-0", capabilities: ["groups.list"] });
    const binding = new irv.iam.RoleBinding("b", { groupUid: g.uid, identityUid: id.uid, roleUid: role.uid });
    const association = new irv.iam.AccountAssociation("a", { groupUid: g.uid, name: "a-0", amazon: { account: "123456789012" } });
    expect(await resolve(g.uid)).toMatch(/^a{40}\//);
    expect(await resolve(g.name)).toBe("engineering");
    expect(await resolve(g.createTime)).toBe("2026-01-01T00:00:00.000Z");
    expect(await resolve(id.claimMatch)).toEqual({ issuer: "https://i.example.com", subject: "s" });
    // A resource's URN resolves once its registration has gone to the monitor (no waiting a while).
    await Promise.all([g, id, role, binding, association].map((r) => resolve(r.urn)));
    expect(registered.map((r) => r.type)).toEqual(
      expect.arrayContaining(["Group", "Identity", "Role", "RoleBinding", "AccountAssociation"].map((c) => `pulumi-nodejs:dynamic/irv:${c}`)),
    );
  });

  it("serializes a tiny __provider with no credential in it", async () => {
    const g = new irv.iam.Group("sized", { parentUid: org, name: "sized" });
    await resolve(g.uid);
    const text = find("sized").inputs.__provider as string;
    expect(typeof text).toBe("string");
    console.log(`serialized __provider of iam.Group: ${text.length} bytes`);
    expect(text.length).toBeLessThan(2048);
    expect(text).toContain('require("pulumi-irv/provider")');
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain("undici");
    expect(text).not.toContain("api.example.com");
  });

  it("shares one shim per kind, so every resource of a kind stores the same text", async () => {
    const a = new irv.iam.Role("ra", { groupUid: org, name: "a-0", capabilities: ["groups.list"] });
    const b = new irv.iam.Role("rb", { groupUid: org, name: "b-0", capabilities: ["groups.list"] });
    await Promise.all([resolve(a.uid), resolve(b.uid)]);
    expect(find("ra").inputs.__provider).toBe(find("rb").inputs.__provider);
    expect(find("ra").inputs.__provider).not.toBe(find("sized").inputs.__provider);
  });

  it("copies customTimeouts into the hidden __timeouts input", async () => {
    const g = new irv.iam.Group("timed", { parentUid: org, name: "timed" }, { customTimeouts: { create: "2m", delete: "30s" } });
    await resolve(g.uid);
    expect(find("timed").inputs.__timeouts).toEqual({ create: "2m", delete: "30s" });
  });

  it("wraps the IdP client secret as a secret input and marks the invite code secret", async () => {
    const idp = new irv.iam.IdentityProvider("sso", {
      groupUid: org,
      name: "sso",
      defaultRoleUid: org,
      oidc: { issuer: "https://sso.example.com", clientId: "c", clientSecret: "hunter2" },
    });
    const invite = new irv.iam.GroupInvite("inv", { groupUid: org, roleUid: org, ttl: "3600s" });
    await Promise.all([resolve(idp.uid), resolve(invite.uid)]);
    expect(secretOutputs.get("inv")).toEqual(["code"]);
    expect(secretOutputs.get("sso")).toEqual(["oidc"]);
    expect(secretOutputs.get("eng")).toEqual([]);
    expect(await resolve(invite.code)).toBe("the-code");
    // The oidc input is sent as a secret (so inputs and outputs in state are encrypted).
    expect(await pulumi.isSecret(idp.oidc)).toBe(true);
  });

  it("reads an existing resource with X.get", async () => {
    const g = irv.iam.Group.get("existing", `${org}/0123456789abcdef`);
    expect(await resolve(g.uid)).toBe(`${org}/0123456789abcdef`);
    expect(find("existing").id).toBe(`${org}/0123456789abcdef`);
  });
});
