/**
 * The v1 paths (spec, Versioning 2-3): same store as v2beta1, `items` lists, `id`/`createdAt`/
 * `updatedAt`, role bindings by id, PATCH that resets omitted fields, v2 names refused by name.
 */
import { describe, expect, it } from "vitest";
import { v1PathOf } from "../../server/routes/v1";
import { listAll, path, useServer, type Api } from "../support/server";
import { expectError, expectFieldViolation, mkGroup, mkIdentity, ok, role } from "../support/server-helpers";

const digest = `sha256:${"a".repeat(64)}`;
const ctx = useServer({
  fixtures: {
    repos: [
      { name: "pub", visibility: "public", tags: [{ name: "latest", digest }] },
      { name: "priv", tags: [{ name: "latest", digest }] },
    ],
  },
});
const v1 = (collection: Parameters<typeof path>[0], uid?: string) => `${v1PathOf(collection)}${uid ? `/${uid}` : ""}`;
const byId = async (api: Api, collection: Parameters<typeof path>[0], id: string) => {
  const { items } = ok(await api.get(v1(collection), { id }));
  expect(items.length).toBe(1);
  return items[0];
};

describe("v1 paths", () => {
  it("a group made through v1 is the same group through v2beta1, and back", async () => {
    const org = ctx.server.organization;
    const made = ok(await ctx.api.post(v1("groups", org), { name: "via-v1", description: "made in v1" }));
    expect(made).toMatchObject({ name: "via-v1", description: "made in v1", verified: false });
    expect(Object.keys(made)).toEqual(expect.arrayContaining(["id", "createdAt", "updatedAt"]));
    for (const v2 of ["uid", "createTime", "updateTime"]) expect(made).not.toHaveProperty(v2);

    const seen = ok(await ctx.api.get(path("groups", made.id)));
    expect(seen).toEqual({ ...rename(made) });

    const fromV2 = ok(await ctx.api.post(path("groups", org), { name: "via-v2" }));
    expect(await byId(ctx.api, "groups", fromV2.uid)).toEqual(toV1Names(fromV2));
    const listed = ok(await ctx.api.get(v1("groups"), { "uidp.children_of": org, name: "via-v2" }));
    expect(listed).toEqual({ items: [toV1Names(fromV2)] });
    expect(listed).not.toHaveProperty("groups");
    expect(listed).not.toHaveProperty("totalCount");

    ok(await ctx.api.del(v1("groups", made.id)));
    expectError(await ctx.api.get(path("groups", made.id)), "NOT_FOUND");
  });

  it("lists every match in one response, as v1 did, and ignores v2 paging and ordering parameters (v1's filters lack them)", async () => {
    const parent = await mkGroup(ctx.api, ctx.server.organization, "many");
    for (let i = 0; i < 205; i++) ok(await ctx.api.post(path("groups", parent.uid), { name: `grp-${i}` }));
    const { items } = ok(await ctx.api.get(v1("groups"), { "uidp.children_of": parent.uid }));
    expect(items.length).toBe(205);
    expect(new Set(items.map((g: { id: string }) => g.id)).size).toBe(205);
    for (const p of ["page_size", "page_token", "order_by", "skip", "pageSize", "bogus"])
      expect(ok(await ctx.api.get(v1("groups"), { "uidp.children_of": parent.uid, [p]: "1" })).items.length, p).toBe(205);
    // `id` and `uidp.ids` both select by id (repeatable), but not together.
    const two = items
      .slice(0, 2)
      .map((g: { id: string }) => g.id)
      .sort();
    expect(
      ok(await ctx.api.get(v1("groups"), { id: two }))
        .items.map((g: { id: string }) => g.id)
        .sort(),
    ).toEqual(two);
    expect(ok(await ctx.api.get(v1("groups"), { "uidp.ids": two })).items.length).toBe(2);
    expectFieldViolation(await ctx.api.get(v1("groups"), { id: two[0], "uidp.ids": two[1] }), "id");
  });

  it("PUT resets the fields a body omits (v1's rule), and v2beta1's PATCH still keeps them", async () => {
    const g = ok(await ctx.api.post(v1("groups", ctx.server.organization), { name: "reset-me", description: "keep?" }));
    const patched = ok(await ctx.api.put(v1("groups", g.id), { name: "renamed" }));
    expect(patched).toMatchObject({ id: g.id, name: "renamed", description: "" });
    // Echoing back the object read (id and times included) is accepted.
    const echoed = ok(await ctx.api.put(v1("groups", g.id), { ...patched, description: "again", verified: undefined, resourceLimits: undefined }));
    expect(echoed).toMatchObject({ name: "renamed", description: "again", createdAt: g.createdAt });
    // Omitting a required field resets it, which validation refuses, naming it.
    expectFieldViolation(await ctx.api.put(v1("groups", g.id), { description: "no name" }), "name");
    // v2beta1 keeps omitted fields.
    expect(ok(await ctx.api.patch(path("groups", g.id), { name: "v2-renamed" }))).toMatchObject({ description: "again" });
    expectFieldViolation(await ctx.api.request("PUT", v1("groups", g.id), { body: { name: "xyz" }, query: { updateMask: "name" } }), "updateMask");
    expectFieldViolation(await ctx.api.put(v1("groups", g.id), { id: `${ctx.server.organization}/0000000000000001`, name: "x" }), "id");
  });

  it("refuses a v1 body with v2beta1 field names, naming the field", async () => {
    const org = ctx.server.organization;
    const g = await mkGroup(ctx.api, org, "names");
    for (const field of ["uid", "createTime", "updateTime"]) {
      const v = expectFieldViolation(await ctx.api.post(v1("groups", org), { name: "x", [field]: "y" }), field);
      expect(v[0].description).toMatch(/v2beta1 name.*v1 calls it (id|createdAt|updatedAt)/);
      expectFieldViolation(await ctx.api.put(v1("groups", g.uid), { name: "x", [field]: "y" }), field);
    }
    expectFieldViolation(await ctx.api.post(v1("groups", org), { name: "x", id: "y" }), "id");
    const id = await mkIdentity(ctx.api, org, "v2names");
    const v = expectFieldViolation(await ctx.api.post(v1("roleBindings", g.uid), { identityUid: id.uid, roleUid: role.viewer }), "identityUid");
    expect(v[0].description).toContain("v1 calls it identity");
    expectFieldViolation(await ctx.api.post(v1("roleBindings", g.uid), { identity: id.uid, roleUid: role.viewer }), "roleUid");
  });

  it("role bindings: v1 takes and shows identity, group and role by id; v2beta1 hydrates the same binding", async () => {
    const org = ctx.server.organization;
    const g = await mkGroup(ctx.api, org, "bindings");
    const id = await mkIdentity(ctx.api, org, "bound");
    const b = ok(await ctx.api.post(v1("roleBindings", g.uid), { identity: id.uid, role: role.viewer }));
    expect(b).toEqual({ id: b.id, identity: id.uid, group: g.uid, role: role.viewer, createdAt: b.createdAt });
    const v2 = ok(await ctx.api.get(path("roleBindings", b.id)));
    expect(v2).toMatchObject({
      uid: b.id,
      identity: { uid: id.uid, name: "bound" },
      group: { uid: g.uid },
      role: { uid: role.viewer },
      createTime: b.createdAt,
    });
    // v1 PATCH replaces both references; the echoed group must be the binding's own.
    const moved = ok(await ctx.api.put(v1("roleBindings", b.id), { ...b, role: role.editor }));
    expect(moved.role).toBe(role.editor);
    expectFieldViolation(await ctx.api.put(v1("roleBindings", b.id), { identity: id.uid }), "roleUid");
    expectFieldViolation(await ctx.api.put(v1("roleBindings", b.id), { ...b, group: org }), "group");
    expect(ok(await ctx.api.get(path("roleBindings", b.id))).role.uid).toBe(role.editor);
  });

  it("an identity provider's write-only client secret survives a v1 PATCH that omits it", async () => {
    const org = ctx.server.organization;
    const idp = ok(
      await ctx.api.post(v1("identityProviders", org), {
        name: "sso",
        defaultRole: role.viewer,
        oidc: { issuer: "https://sso.example", clientId: "abc", clientSecret: "s3cret" },
      }),
    );
    expect(JSON.stringify(idp)).not.toContain("s3cret");
    const patched = ok(
      await ctx.api.put(v1("identityProviders", idp.id), { name: "sso2", defaultRole: role.viewer, oidc: { issuer: "https://sso.example", clientId: "xyz" } }),
    );
    expect(patched).toMatchObject({ name: "sso2", description: "", oidc: { clientId: "xyz", additionalScopes: [] } });
    expectFieldViolation(await ctx.api.put(v1("identityProviders", idp.id), { name: "sso3", defaultRole: role.viewer }), "oidc.issuer");
  });

  it("answers malformed v1 bodies and ids with a 4xx Status, never a 500", async () => {
    const org = ctx.server.organization;
    const g = await mkGroup(ctx.api, org, "malformed");
    for (const body of [null, [], "text", 7, { name: { nested: true } }, { identity: ["a"], role: {} }]) {
      for (const [method, p] of [
        ["POST", v1("groups", org)],
        ["PUT", v1("groups", g.uid)],
        ["POST", v1("roleBindings", g.uid)],
        ["PUT", v1("identityProviders", `${g.uid}/00000000000000aa`)],
      ] as const) {
        const res = await ctx.api.request(method, p, { body });
        expect(res.status, `${method} ${p} ${JSON.stringify(body).slice(0, 40)}: ${res.text.slice(0, 200)}`).toBeGreaterThanOrEqual(400);
        expect(res.status).toBeLessThan(500);
        expect(typeof res.body.code).toBe("number");
      }
    }
    for (const id of ["not-a-uid", "%2e%2e", `${org}/zz`]) {
      const res = await ctx.api.put(`/iam/v1/groups/${id}`, { name: "x" });
      expect(res.status, res.text.slice(0, 200)).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
    }
  });

  it("authorizes as v2beta1 does, and has no Get by id", async () => {
    const nobody = await mkIdentity(ctx.api, ctx.server.organization, "nobody");
    const api = ctx.api.as(await ctx.server.issueToken(nobody.uid));
    expect(ok(await api.get(v1("groups")))).toEqual({ items: [] });
    expectError(await api.post(v1("groups", ctx.server.organization), { name: "no" }), "PERMISSION_DENIED");
    expectError(await ctx.api.as(null).get(v1("groups")), "UNAUTHENTICATED");
    const res = await ctx.api.get(v1("groups", ctx.server.organization));
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 405, code: 12 });
    expect(res.body.message).toContain("?id=");
  });

  it("registry: items of repos and tags, public ones without a token; a repo created through v1 is the one v2beta1 reads", async () => {
    const repos = await listAll(ctx.api, "repos");
    const { items } = ok(await ctx.api.get(v1("repos")));
    expect(items.map((r: { id: string }) => r.id).sort()).toEqual(repos.map((r) => r.uid).sort());
    const anon = ok(await ctx.api.as(null).get(v1("repos")));
    expect(anon.items.map((r: { name: string }) => r.name)).toEqual(["pub"]);
    const pub = anon.items[0];
    expect(pub).toMatchObject({ id: pub.id, visibility: "public" });
    const tags = ok(await ctx.api.as(null).get(v1("tags")));
    expect(tags.items.map((t: { id: string }) => t.id.startsWith(`${pub.id}/`))).toEqual([true]);
    expectError(await ctx.api.as("junk").get(v1("repos")), "UNAUTHENTICATED");
    const post = await ctx.api.post(v1("repos", ctx.server.organization), { name: "x" });
    // Repos are a kind now, written through either door (v1 Registry.CreateRepo).
    const made = ok(post);
    expect(made).toMatchObject({ id: expect.stringMatching(new RegExp(`^${ctx.server.organization}/[0-9a-f]{16}$`)), name: "x", visibility: "private" });
    expect(ok(await ctx.api.get(path("repos", made.id))).name).toBe("x");
    expectError(await ctx.api.as(null).post(v1("repos", ctx.server.organization), { name: "x" }), "UNAUTHENTICATED");
  });
  it("has the v1 protos' paths, verbs and shapes: rolebindings, account_associations, group_invites; PUT only; static, lastSeen, readable capabilities", async () => {
    const org = ctx.server.organization;
    const g = await mkGroup(ctx.api, org, "v1-wire");
    // Paths: the v1 protos' google.api.http, not v2beta1's names.
    expect(v1("roleBindings")).toBe("/iam/v1/rolebindings");
    expectError(await ctx.api.get("/iam/v1/roleBindings"), "NOT_FOUND");
    const id = await mkIdentity(ctx.api, org, "v1-bound");
    const b = ok(await ctx.api.post(`/iam/v1/rolebindings/${g.uid}`, { identity: id.uid, role: role.viewer }));
    // v1 lists a binding as a RoleBindingList.Binding: its group and role as v1 messages.
    const [listed] = ok(await ctx.api.get("/iam/v1/rolebindings", { id: b.id })).items;
    expect(listed).toMatchObject({ id: b.id, identity: id.uid, group: { id: g.uid, name: "v1-wire" }, role: { id: role.viewer, name: "viewer" } });
    const assoc = ok(await ctx.api.post(`/iam/v1/account_associations/${g.uid}`, { name: "accounts", amazon: { account: "123456789012" } }));
    expect(assoc).toMatchObject({ group: g.uid, name: "accounts", amazon: { account: "123456789012" } });
    expect(assoc.id).toBeUndefined();
    expect(ok(await ctx.api.put(`/iam/v1/account_associations/${g.uid}`, { ...assoc, description: "put" }))).toMatchObject({
      group: g.uid,
      description: "put",
    });
    const invite = ok(await ctx.api.post(`/iam/v1/group_invites/${g.uid}`, { ttl: "3600s", role: role.viewer }));
    expect(invite).toMatchObject({
      id: expect.any(String),
      expiration: expect.any(String),
      code: expect.any(String),
      role: { id: role.viewer, name: "viewer" },
    });
    expect(invite.role.capabilities).toContain("groups.list");
    expect(invite.roleUid).toBeUndefined();
    ok(await ctx.api.del(`/iam/v1/group_invites/${invite.id}`));
    // Verbs: update is PUT; PATCH is the gateway's 405 UNIMPLEMENTED.
    const patch = await ctx.api.patch(`/iam/v1/groups/${g.uid}`, { name: "patched" });
    expect([patch.status, patch.body.code]).toEqual([405, 12]);
    // Shapes: an identity's static keys, service principal without its prefix; a role's readable capabilities.
    const keys = ok(
      await ctx.api.post(`/iam/v1/identities/${org}`, {
        name: "v1-static",
        static: { issuer: "https://issuer.example", subject: "s", issuerKeys: "keys", audiences: ["https://api.example"] },
      }),
    );
    expect(keys.static).toMatchObject({ issuer: "https://issuer.example", subject: "s", expiration: expect.any(String) });
    expect(keys.staticKeys).toBeUndefined();
    expect(ok(await ctx.api.get(path("identities", keys.id))).staticKeys.expirationTime).toBe(keys.static.expiration);
    const bot = ok(await ctx.api.post(`/iam/v1/identities/${org}`, { name: "v1-ingester", servicePrincipal: "INGESTER" }));
    expect(bot.servicePrincipal).toBe("INGESTER");
    expect(ok(await ctx.api.get(path("identities", bot.id))).servicePrincipal).toBe("SERVICE_PRINCIPAL_INGESTER");
    expectFieldViolation(await ctx.api.post(`/iam/v1/identities/${org}`, { name: "v2-name", staticKeys: {} }), "staticKeys");
    const r = ok(await ctx.api.post(`/iam/v1/roles/${g.uid}`, { name: "v1-role", capabilities: ["groups.list", "identity.list"] }));
    expect(r.capabilities).toEqual(["groups.list", "identity.list"]);
    expect(ok(await ctx.api.get(path("roles", r.id))).capabilities).toEqual(["CAP_IAM_GROUPS_LIST", "CAP_IAM_IDENTITY_LIST"]);
  });
});

function rename(v1: Record<string, unknown>) {
  const { id, createdAt, updatedAt, ...rest } = v1;
  return { uid: id, createTime: createdAt, updateTime: updatedAt, ...rest };
}
function toV1Names(v2: Record<string, unknown>) {
  const { uid, createTime, updateTime, ...rest } = v2;
  return { id: uid, createdAt: createTime, updatedAt: updateTime, ...rest };
}
