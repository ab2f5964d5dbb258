import { describe, expect, it } from "vitest";
import type { Rec } from "../../provider/resources/spec";
import { dynamicProviders } from "../../provider";
import { created, builtinRole, freshGroup, uniqueName, useProviderServer } from "../support/provider";
import { runLifecycle } from "../support/provider-lifecycle";

const ctx = useProviderServer();
const idps = dynamicProviders.identityProviders;
const oidc = { issuer: "https://accounts.example.com", clientId: "client-1", clientSecret: "s3cret-value" };

describe("iam.IdentityProvider provider", () => {
  it("runs the whole lifecycle, keeping the write-only secret from state", async () => {
    const viewer = await builtinRole(ctx, "viewer");
    const editor = await builtinRole(ctx, "editor");
    await runLifecycle(ctx, {
      kind: "identityProviders",
      inputs: async () => ({ groupUid: await freshGroup(ctx), name: uniqueName("sso"), defaultRoleUid: editor, oidc }),
      update: {
        change: (i) => ({ ...i, defaultRoleUid: viewer, oidc: { ...oidc, clientSecret: "rotated-secret" } }),
        mask: ["default_role", "oidc.client_secret"],
      },
      replace: { change: async (i) => ({ ...i, groupUid: await freshGroup(ctx) }), replaces: ["groupUid"] },
      drift: {
        body: { oidc: { clientId: "client-2" } },
        mask: "oidc.client_id",
        expect: (props, inputs) => {
          expect(props.oidc).toMatchObject({ clientId: "client-2", clientSecret: "rotated-secret" });
          expect((inputs.oidc as Rec).clientId).toBe("client-2");
          expect(inputs.defaultRoleUid).toBe(viewer);
        },
      },
      created: (outs) => {
        expect(outs.oidc).toEqual({ ...oidc, additionalScopes: [] });
        expect(outs.defaultRoleUid).toBe(editor);
      },
    });
  });

  it("sends the secret only when it changed", async () => {
    const group = await freshGroup(ctx);
    const viewer = await builtinRole(ctx, "viewer");
    const { id, outs } = await idps.create({ groupUid: group, name: "a-0", defaultRoleUid: viewer, oidc });
    await idps.update(id, outs as any, { groupUid: group, name: "b-0", defaultRoleUid: viewer, oidc });
    const patch = ctx.server.requests.filter((r) => r.method === "PATCH").at(-1)!;
    expect(patch.query.updateMask).toBe("name");
    expect(JSON.stringify(patch.body)).not.toContain("clientSecret");
  });

  it("fails check on a plain-http issuer, a missing secret and a missing default role, without echoing secrets", async () => {
    const r = await idps.check(
      {} as any,
      { groupUid: ctx.server.organization, name: "x-0", oidc: { issuer: "http://sso.example.com", clientId: "c", clientSecret: "" } } as any,
    );
    expect(r.failures?.map((f) => f.reason.split(":")[0]).sort()).toEqual(["defaultRoleUid", "oidc.clientSecret", "oidc.issuer"]);
    const noSecret = await idps.check(
      {} as any,
      {
        groupUid: ctx.server.organization,
        name: "x-0",
        defaultRoleUid: ctx.server.organization,
        oidc: { issuer: "https://i.example.com", clientId: "c" },
      } as any,
    );
    expect(noSecret.failures).toEqual([{ property: "", reason: "oidc.clientSecret: is required unless pkceEnabled is true (a public client)" }]);
    const leaky = await idps.check(
      {} as any,
      { groupUid: ctx.server.organization, name: "x-0", oidc: { issuer: "https://i.example.com", clientId: "c", clientSecret: 42 } } as any,
    );
    expect(JSON.stringify(leaky.failures)).not.toContain("42");
  });

  it("creates a public client (PKCE) with no secret, and keeps the new OIDC members as set", async () => {
    const group = await freshGroup(ctx);
    const viewer = await builtinRole(ctx, "viewer");
    const pkce = {
      issuer: "https://login.example.com",
      clientId: "public-app",
      pkceEnabled: true,
      groupsClaim: "groups",
      correlationRule: "CORRELATION_RULE_OID_EQUALS_EXTERNAL_ID" as const,
    };
    const { id, outs } = await idps.create({ groupUid: group, name: "entra", defaultRoleUid: viewer, oidc: pkce });
    expect(outs!.oidc).toMatchObject(pkce);
    const live = (await ctx.api.get(`/iam/v2beta1/identityProviders/${id}`)).body;
    expect(live.oidc).toMatchObject(pkce);
    expect(live.scim).toMatchObject({ enabled: false });
    expect((await idps.diff(id, outs!, { groupUid: group, name: "entra", defaultRoleUid: viewer, oidc: pkce })).changes).toBe(false);
  });

  it("replaces an identity provider whose correlation rule changes (fixed once created); unset is the default rule", async () => {
    const olds = { groupUid: "g", name: "sso", defaultRoleUid: "r", oidc: { ...oidc, correlationRule: "CORRELATION_RULE_UNSPECIFIED" } };
    const same = await idps.diff("x", olds as any, { ...olds, oidc: { ...oidc, correlationRule: "CORRELATION_RULE_SUB_EQUALS_EXTERNAL_ID" } } as any);
    expect(same.replaces ?? []).toEqual([]);
    const other = await idps.diff("x", olds as any, { ...olds, oidc: { ...oidc, correlationRule: "CORRELATION_RULE_OID_EQUALS_EXTERNAL_ID" } } as any);
    expect(other.replaces).toContain("oidc");
  });

  it("adopts an IdP and always sets the declared secret", async () => {
    const group = await freshGroup(ctx);
    const viewer = await builtinRole(ctx, "viewer");
    const existing = await created(ctx.api, "identityProviders", group, { name: "sso", defaultRole: viewer, oidc: { ...oidc, clientSecret: "unknown-old" } });
    const { id, outs } = await idps.create({ groupUid: group, name: "sso", defaultRoleUid: viewer, oidc, adoptUid: existing.uid });
    expect(id).toBe(existing.uid);
    expect(outs!.oidc.clientSecret).toBe(oidc.clientSecret);
    const patch = ctx.server.requests.filter((r) => r.method === "PATCH").at(-1)!;
    expect(patch.query.updateMask).toBe("oidc.client_secret");
  });
});
