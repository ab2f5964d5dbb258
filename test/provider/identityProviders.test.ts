import { describe, expect, it } from "vitest";
import { providers } from "../../provider";
import { apiCreate, builtinRole, freshGroup, uniqueName, useProviderServer } from "../support/provider";
import { runLifecycle } from "../support/provider-lifecycle";

const ctx = useProviderServer();
const idps = providers.identityProviders;
const oidc = { issuer: "https://accounts.example.com", clientId: "client-1", clientSecret: "s3cret-value" };

describe("iam.IdentityProvider provider", () => {
  it("runs the whole lifecycle, keeping the write-only secret from state", async () => {
    const viewer = await builtinRole(ctx, "viewer");
    await runLifecycle(ctx, {
      kind: "identityProviders",
      inputs: async () => ({ groupUid: await freshGroup(ctx), name: uniqueName("sso"), oidc }),
      update: {
        change: (i) => ({ ...i, defaultRoleUid: viewer, oidc: { ...oidc, clientSecret: "rotated-secret" } }),
        mask: ["defaultRole", "oidc.clientSecret"],
      },
      replace: { change: async (i) => ({ ...i, groupUid: await freshGroup(ctx) }), replaces: ["groupUid"] },
      drift: {
        body: { oidc: { clientId: "client-2" } },
        mask: "oidc.clientId",
        expect: (props, inputs) => {
          expect(props.oidc).toMatchObject({ clientId: "client-2", clientSecret: "rotated-secret" });
          expect(inputs.oidc.clientId).toBe("client-2");
          expect(inputs.defaultRoleUid).toBe(viewer);
        },
      },
      created: (outs) => {
        expect(outs.oidc).toEqual({ ...oidc, additionalScopes: [] });
        expect(outs.defaultRoleUid).toBe("");
      },
    });
  });

  it("sends the secret only when it changed", async () => {
    const group = await freshGroup(ctx);
    const { id, outs } = await idps.create({ groupUid: group, name: "a", oidc });
    await idps.update(id, outs as any, { groupUid: group, name: "b", oidc });
    const patch = ctx.server.requests.filter((r) => r.method === "PATCH").at(-1)!;
    expect(patch.query.updateMask).toBe("name");
    expect(JSON.stringify(patch.body)).not.toContain("clientSecret");
  });

  it("fails check on a plain-http issuer and a missing secret, without echoing secrets", async () => {
    const r = await idps.check({} as any, { groupUid: ctx.server.organization, name: "x", oidc: { issuer: "http://sso.example.com", clientId: "c", clientSecret: "" } } as any);
    expect(r.failures?.map((f) => f.reason.split(":")[0]).sort()).toEqual(["oidc.clientSecret", "oidc.issuer"]);
    const leaky = await idps.check({} as any, { groupUid: ctx.server.organization, name: "x", oidc: { issuer: "https://i.example.com", clientId: "c", clientSecret: 42 } } as any);
    expect(JSON.stringify(leaky.failures)).not.toContain("42");
  });

  it("adopts an IdP and always sets the declared secret", async () => {
    const group = await freshGroup(ctx);
    const existing = await apiCreate(ctx, "identityProviders", group, { name: "sso", oidc: { ...oidc, clientSecret: "unknown-old" } });
    const { id, outs } = await idps.create({ groupUid: group, name: "sso", oidc, adoptUid: existing.uid });
    expect(id).toBe(existing.uid);
    expect(outs!.oidc.clientSecret).toBe(oidc.clientSecret);
    const patch = ctx.server.requests.filter((r) => r.method === "PATCH").at(-1)!;
    expect(patch.query.updateMask).toBe("oidc.clientSecret");
  });
});
