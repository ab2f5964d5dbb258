/** Identities, roles, role bindings, identity providers, account associations, group invites. */
import { describe, expect, it } from "vitest";
import { BUILTIN_ROLES, TYPE_PREFIX, resources } from "../../api";
import { builtinRoleUid } from "../../server";
import { listAll, path, startTestServer, useServer } from "../support/server";
import { bind, expectError, expectFieldViolation, mkGroup, mkIdentity, ok, role, wireCaps } from "../support/server-helpers";
import { JWKS } from "../support/every-kind";

const ctx = useServer({ fixtures: {} });
const org = () => ctx.server.organization;
const day = 86_400_000;

describe("identities", () => {
  it("creates all four kinds and validates each", async () => {
    const g = await mkGroup(ctx.api, org(), "ids");
    const cm = await mkIdentity(ctx.api, g.uid, "gh-bot");
    expect(resources.Identity.parse(cm).claimMatch?.subject).toBe("repo:acme/gh-bot");
    expect(cm.lastSeenTime).toBe(cm.createTime);
    expect(cm.email).toBe("");
    // The identity's other output email (a person's unverified one) and its company, as the protos have them.
    expect(cm.emailUnverified).toBe("");
    expect(cm.company).toBe("");
    const withCompany = await mkIdentity(ctx.api, g.uid, "gh-bot-2", { company: "Acme Corp" });
    expect(withCompany.company).toBe("Acme Corp");
    expect(ok(await ctx.api.patch(path("identities", withCompany.uid), { company: "Acme Inc" }, { updateMask: "company" })).company).toBe("Acme Inc");
    ok(await ctx.api.del(path("identities", withCompany.uid)));
    const jwks = JWKS;
    const sk = ok(
      await ctx.api.post(path("identities", g.uid), {
        name: "static",
        staticKeys: { issuer: "https://issuer.example", subject: "svc", issuerKeys: jwks, expirationTime: new Date(Date.now() + 30 * day).toISOString() },
      }),
    );
    expect(sk.staticKeys.subject).toBe("svc");
    const aws = ok(
      await ctx.api.post(path("identities", g.uid), {
        name: "aws",
        awsIdentity: { awsAccount: "123456789012", arnPattern: "arn:aws:iam::123456789012:role/.*" },
      }),
    );
    expect(aws.awsIdentity.awsAccount).toBe("123456789012");
    const sp = ok(await ctx.api.post(path("identities", g.uid), { name: "sp-id", servicePrincipal: "SERVICE_PRINCIPAL_INGESTER" }));
    expect(sp.servicePrincipal).toBe("SERVICE_PRINCIPAL_INGESTER");
    // Service principals are the API's enum names; the old short names are none.
    expectFieldViolation(await ctx.api.post(path("identities", g.uid), { name: "short-sp", servicePrincipal: "INGESTER" }), "servicePrincipal");
    // Names are 3 to 63 characters.
    expectFieldViolation(await ctx.api.post(path("identities", g.uid), { name: "id", servicePrincipal: "SERVICE_PRINCIPAL_INGESTER" }), "name");

    expectFieldViolation(await ctx.api.post(path("identities", g.uid), { name: "none" }), "claimMatch");
    expectFieldViolation(
      await ctx.api.post(path("identities", g.uid), {
        name: "two",
        servicePrincipal: "SERVICE_PRINCIPAL_INGESTER",
        awsIdentity: { awsAccount: "123456789012", arn: "x" },
      }),
      "servicePrincipal",
    );
    expectFieldViolation(
      await ctx.api.post(path("identities", g.uid), { name: "http", claimMatch: { issuer: "http://example.com", subject: "s" } }),
      "claimMatch.issuer",
    );
    expectFieldViolation(
      await ctx.api.post(path("identities", g.uid), { name: "regex", claimMatch: { issuer: "https://x", subjectPattern: "(" } }),
      "claimMatch.subjectPattern",
    );
    expectFieldViolation(
      await ctx.api.post(path("identities", g.uid), { name: "acct", awsIdentity: { awsAccount: "12", arn: "x" } }),
      "awsIdentity.awsAccount",
    );
    const past = { issuer: "https://i", subject: "s", issuerKeys: jwks, expirationTime: new Date(Date.now() - day).toISOString() };
    expectFieldViolation(await ctx.api.post(path("identities", g.uid), { name: "old", staticKeys: past }), "staticKeys.expirationTime");
    const far = { ...past, expirationTime: new Date(Date.now() + 400 * day).toISOString() };
    expectFieldViolation(await ctx.api.post(path("identities", g.uid), { name: "far", staticKeys: far }), "staticKeys.expirationTime");
    // Issuer keys are public keys: a private key would be stored and echoed back in every response.
    const privateJwks = JSON.stringify({ keys: [{ kty: "EC", crv: "P-256", x: "a", y: "b", d: "private-scalar" }] });
    const leaky = { ...past, issuerKeys: privateJwks, expirationTime: new Date(Date.now() + day).toISOString() };
    const refused = await ctx.api.post(path("identities", g.uid), { name: "leaky", staticKeys: leaky });
    expectFieldViolation(refused, "staticKeys.issuerKeys");
    expect(refused.text).not.toContain("private-scalar");

    const kinds = async (relationshipType: string) =>
      (await listAll(ctx.api, "identities", { "uidp.descendants_of": g.uid, relationshipType })).map((i) => i.name);
    expect(await kinds("claimMatch")).toEqual(["gh-bot"]);
    expect(await kinds("service_principal")).toEqual(["sp-id"]);
    expectFieldViolation(await ctx.api.get(path("identities"), { relationshipType: "robot" }), "relationshipType");
    // The proto's own spelling: `relationship_type` takes the enum RelationshipType, by name or number.
    const byEnum = async (relationship_type: string) =>
      (await listAll(ctx.api, "identities", { "uidp.descendants_of": g.uid, relationship_type })).map((i) => i.name);
    expect(await byEnum("RELATIONSHIP_TYPE_CLAIM_MATCH")).toEqual(["gh-bot"]);
    expect(await byEnum("RELATIONSHIP_TYPE_SERVICE_PRINCIPAL")).toEqual(["sp-id"]);
    expect(await byEnum("1")).toEqual(["gh-bot"]);
    expect((await byEnum("RELATIONSHIP_TYPE_UNSPECIFIED")).length).toBe(4);
    expectFieldViolation(await ctx.api.get(path("identities"), { relationship_type: "RELATIONSHIP_TYPE_ROBOT" }), "relationship_type");
    expectFieldViolation(await ctx.api.get(path("identities"), { relationship_type: "9" }), "relationship_type");
    expect((await listAll(ctx.api, "identities", { "uidp.descendants_of": g.uid })).length).toBe(4);
  });

  it("updates with and without a mask; switching kind replaces the old one", async () => {
    const g = await mkGroup(ctx.api, org(), "ids-upd");
    const id = await mkIdentity(ctx.api, g.uid, "one", { description: "d1" });
    const r1 = ok(await ctx.api.patch(path("identities", id.uid), { description: "d2" }));
    expect(r1).toMatchObject({ name: "one", description: "d2", claimMatch: id.claimMatch });
    // An unknown member is discarded at any depth, as the platform's gateway discards it.
    const r1b = ok(await ctx.api.patch(path("identities", id.uid), { claimMatch: { ...id.claimMatch, colour: "red" }, shade: "dark" }));
    expect(r1b.claimMatch).toEqual(id.claimMatch);
    expect(r1b).not.toHaveProperty("shade");
    const r2 = ok(await ctx.api.patch(path("identities", id.uid), { servicePrincipal: "SERVICE_PRINCIPAL_COSIGNED" }));
    expect(r2.servicePrincipal).toBe("SERVICE_PRINCIPAL_COSIGNED");
    expect(r2.claimMatch).toBeUndefined();
    const r3 = ok(await ctx.api.patch(path("identities", id.uid), { name: "ignored", description: "d3" }, { updateMask: "description" }));
    expect(r3).toMatchObject({ name: "one", description: "d3" });
    expectFieldViolation(await ctx.api.patch(path("identities", id.uid), {}, { updateMask: "name" }), "name");
    expectFieldViolation(await ctx.api.patch(path("identities", id.uid), {}, { updateMask: "nope" }), "update_mask");
    // Mask paths are proto field names: `claimMatch` is a JSON name, refused; `claim_match` switches the kind back.
    expectFieldViolation(
      await ctx.api.patch(path("identities", id.uid), { claimMatch: id.claimMatch }, { updateMask: "claimMatch,service_principal" }),
      "update_mask",
    );
    const r4 = ok(await ctx.api.patch(path("identities", id.uid), { claimMatch: id.claimMatch }, { updateMask: "claim_match,service_principal" }));
    expect(r4).toMatchObject({ name: "one", description: "d3", claimMatch: id.claimMatch });
    expect(r4.servicePrincipal).toBeUndefined();
    ok(await ctx.api.del(path("identities", id.uid)));
    expectError(await ctx.api.del(path("identities", id.uid)), "NOT_FOUND");
    expectError(await ctx.api.get(path("identities", id.uid)), "NOT_FOUND");
  });
});

describe("static keys", () => {
  it("expire by default 365 days after the identity's creation, and no later, also on update", async () => {
    let now = Date.now();
    const srv = await startTestServer({ fixtures: {}, clock: () => now });
    try {
      const keys = { issuer: "https://issuer.example", subject: "svc", issuerKeys: JWKS };
      const made = ok(await srv.api.post(path("identities", srv.server.organization), { name: "defaulted", staticKeys: keys }));
      expect(made.staticKeys.expirationTime).toBe(new Date(Date.parse(made.createTime) + 365 * day).toISOString());
      // 300 days on, the keys may be moved at most to 365 days after creation, not 365 days ahead.
      now += 300 * day;
      const api = srv.api.as(await srv.server.issueToken(`${srv.server.organization}/0000000000000001`));
      const limit = new Date(Date.parse(made.createTime) + 365 * day).toISOString();
      const v = expectFieldViolation(
        await api.patch(path("identities", made.uid), { staticKeys: { ...keys, expirationTime: new Date(now + 100 * day).toISOString() } }),
        "staticKeys.expirationTime",
      );
      expect(v[0].description).toBe(`must be at most 365 days after the identity's creation (${limit})`);
      ok(await api.patch(path("identities", made.uid), { staticKeys: { ...keys, expirationTime: new Date(now + 30 * day).toISOString() } }));
      // An update that leaves the expiration out gets the default again.
      expect(ok(await api.patch(path("identities", made.uid), { staticKeys: keys })).staticKeys.expirationTime).toBe(limit);
    } finally {
      await srv.close();
    }
  });

  it("take any string as keys, as the platform does, and timestamps of any precision", async () => {
    const g = await mkGroup(ctx.api, org(), "keys");
    const keys = { issuer: "https://issuer.example", subject: "svc", issuerKeys: JWKS };
    // The platform's own acceptance tests create one with issuerKeys = "keys".
    expect(ok(await ctx.api.post(path("identities", g.uid), { name: "not-jwks", staticKeys: { ...keys, issuerKeys: "keys" } })).staticKeys.issuerKeys).toBe(
      "keys",
    );
    for (const [name, digits] of [
      ["seconds", 0],
      ["micros", 6],
      ["nanos", 9],
    ] as const) {
      const at = new Date(Math.floor((Date.now() + 30 * day) / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, digits ? `.${"1".repeat(digits)}Z` : "Z");
      const made = ok(await ctx.api.post(path("identities", g.uid), { name, staticKeys: { ...keys, expirationTime: at } }));
      expect(Date.parse(made.staticKeys.expirationTime), name).toBe(Date.parse(at));
    }
  });
});

describe("roles", () => {
  it("has built-in roles at the root with stable uids, read-only", async () => {
    const roles = await listAll(ctx.api, "roles");
    for (const name of Object.keys(BUILTIN_ROLES)) {
      const r = roles.find((x) => x.name === name);
      expect(r, name).toBeDefined();
      expect(r.uid).toBe(builtinRoleUid(name));
      expect(r.uid).toMatch(/^[0-9a-f]{40}$/);
    }
    const viewer = ok(await ctx.api.get(path("roles", role.viewer)));
    expect(viewer.description).toMatch(/built-in/i);
    // Capabilities travel as the API's enum names.
    expect(viewer.capabilities).toEqual(wireCaps(BUILTIN_ROLES.viewer.capabilities));
    expect(viewer.capabilities).toContain("CAP_IAM_GROUPS_LIST");
    expectError(await ctx.api.patch(path("roles", role.viewer), { description: "mine" }), "PERMISSION_DENIED");
    expectError(await ctx.api.del(path("roles", role.owner)), "PERMISSION_DENIED");
    expect(ok(await ctx.api.get(path("roles"), { name: "viewer" })).roles).toHaveLength(1);
  });

  it("creates custom roles in groups, validates capabilities, refuses deleting a bound role", async () => {
    const g = await mkGroup(ctx.api, org(), "roles");
    const r = ok(await ctx.api.post(path("roles", g.uid), { name: "reader", capabilities: ["CAP_IAM_GROUPS_LIST", "CAP_REPO_LIST"] }));
    expect(r.uid.startsWith(`${g.uid}/`)).toBe(true);
    expect(r.capabilities).toEqual(["CAP_IAM_GROUPS_LIST", "CAP_REPO_LIST"]);
    expectFieldViolation(await ctx.api.post(path("roles", g.uid), { name: "bad", capabilities: ["CAP_GROUPS_FLY"] }), "capabilities.0");
    // A friendly name is no enum name: the wire refuses it, naming the entry.
    const friendly = expectFieldViolation(
      await ctx.api.post(path("roles", g.uid), { name: "friendly", capabilities: ["CAP_REPO_LIST", "groups.list"] }),
      "capabilities.1",
    );
    expect(friendly.find((v) => v.field === "capabilities.1")!.description).toContain("CAP_IAM_GROUPS_LIST");
    // registry.pull and registry.push are roles, not capabilities.
    expectFieldViolation(await ctx.api.post(path("roles", g.uid), { name: "puller", capabilities: ["CAP_REGISTRY_PULL"] }), "capabilities.0");
    expectFieldViolation(await ctx.api.post(path("roles", g.uid), { name: "none", capabilities: [] }), "capabilities");
    const upd = ok(await ctx.api.patch(path("roles", r.uid), { capabilities: ["CAP_IAM_GROUPS_LIST"] }, { updateMask: "capabilities" }));
    expect(upd.capabilities).toEqual(["CAP_IAM_GROUPS_LIST"]);
    const scoped = await listAll(ctx.api, "roles", { "uidp.descendants_of": g.uid });
    expect(scoped.map((x) => x.uid)).toEqual([r.uid]);

    const id = await mkIdentity(ctx.api, g.uid, "user");
    const b = await bind(ctx.api, g.uid, id.uid, r.uid);
    const res = expectError(await ctx.api.del(path("roles", r.uid)), "FAILED_PRECONDITION");
    expect(res.details[1]["@type"]).toBe(`${TYPE_PREFIX}PreconditionFailure`);
    ok(await ctx.api.del(path("roleBindings", b.uid)));
    ok(await ctx.api.del(path("roles", r.uid)));
  });

  it("refuses deleting a role an identity provider or an invite still names, which would dangle", async () => {
    const g = await mkGroup(ctx.api, org(), "roles-in-use");
    const r = ok(await ctx.api.post(path("roles", g.uid), { name: "default", capabilities: wireCaps(["groups.list"]) }));
    const idp = ok(
      await ctx.api.post(path("identityProviders", g.uid), {
        name: "sso",
        defaultRole: r.uid,
        oidc: { issuer: "https://idp.example", clientId: "c", clientSecret: "s" },
      }),
    );
    const inv = ok(await ctx.api.post(path("groupInvites", g.uid), { roleUid: r.uid, ttl: "86400s" }));
    const res = expectError(await ctx.api.del(path("roles", r.uid)), "FAILED_PRECONDITION");
    expect(res.details[1].violations.map((v: { type: string; description: string }) => [v.type, v.description])).toEqual([
      ["RESOURCE_IN_USE", "role is the default role of 1 identity provider"],
      ["RESOURCE_IN_USE", "role is granted by 1 group invite"],
    ]);
    // The role is still there, so the provider stays updatable.
    ok(await ctx.api.get(path("roles", r.uid)));
    ok(await ctx.api.patch(path("identityProviders", idp.uid), { name: "sso2" }));
    // Its default role is required: it cannot be cleared, only changed to another.
    expectFieldViolation(await ctx.api.patch(path("identityProviders", idp.uid), {}, { updateMask: "default_role" }), "defaultRole");
    ok(await ctx.api.patch(path("identityProviders", idp.uid), { defaultRole: role.viewer }, { updateMask: "default_role" }));
    ok(await ctx.api.del(path("groupInvites", inv.uid)));
    ok(await ctx.api.del(path("roles", r.uid)));
  });
});

describe("role bindings", () => {
  it("creates hydrated bindings, changes role and identity in place, deletes idempotently", async () => {
    const g = await mkGroup(ctx.api, org(), "binds", "binding group");
    const id = await mkIdentity(ctx.api, g.uid, "dev");
    const other = await mkIdentity(ctx.api, g.uid, "dev2");
    const b = await bind(ctx.api, g.uid, id.uid, role.viewer);
    expect(resources.RoleBinding.parse(b)).toBeTruthy();
    expect(b).not.toHaveProperty("updateTime");
    expect(b.identity).toEqual({
      uid: id.uid,
      name: "dev",
      description: "",
      subject: "repo:acme/dev",
      issuer: "https://token.actions.githubusercontent.com",
      email: "",
    });
    expect(b.group).toEqual({ uid: g.uid, name: "binds", description: "binding group" });
    expect(b.role).toMatchObject({ uid: role.viewer, name: "viewer" });

    const p1 = ok(await ctx.api.patch(path("roleBindings", b.uid), { roleUid: role.editor }));
    expect(p1.role.name).toBe("editor");
    expect(p1.identity.uid).toBe(id.uid);
    expectFieldViolation(await ctx.api.patch(path("roleBindings", b.uid), { identityUid: other.uid }, { updateMask: "identityUid" }), "update_mask");
    const p2 = ok(await ctx.api.patch(path("roleBindings", b.uid), { identityUid: other.uid, roleUid: role.owner }, { updateMask: "identity_uid" }));
    expect(p2.identity.uid).toBe(other.uid);
    expect(p2.role.name).toBe("editor");
    expect(p2.createTime).toBe(b.createTime);

    expectError(await ctx.api.post(path("roleBindings", g.uid), { identityUid: other.uid, roleUid: role.editor }), "ALREADY_EXISTS");
    expectFieldViolation(await ctx.api.post(path("roleBindings", g.uid), { identityUid: `${g.uid}/0123456789abcdef`, roleUid: role.viewer }), "identityUid");
    expectFieldViolation(await ctx.api.post(path("roleBindings", g.uid), { identityUid: id.uid, roleUid: "f".repeat(40) }), "roleUid");
    expectFieldViolation(await ctx.api.post(path("roleBindings", g.uid), { identityUid: id.uid }), "roleUid");

    const byIdentity = await listAll(ctx.api, "roleBindings", { identity: other.uid });
    expect(byIdentity.map((x) => x.uid)).toEqual([b.uid]);
    expect(await listAll(ctx.api, "roleBindings", { role: role.viewer, group: g.uid })).toEqual([]);

    ok(await ctx.api.del(path("roleBindings", b.uid)));
    ok(await ctx.api.del(path("roleBindings", b.uid)));
    expectError(await ctx.api.get(path("roleBindings", b.uid)), "NOT_FOUND");
  });

  it("allows custom roles of the group or an ancestor only", async () => {
    const a = await mkGroup(ctx.api, org(), "vis-a");
    const child = await mkGroup(ctx.api, a.uid, "vis-child");
    const sib = await mkGroup(ctx.api, org(), "vis-sib");
    const ra = ok(await ctx.api.post(path("roles", a.uid), { name: "ra", capabilities: wireCaps(["groups.list"]) }));
    const id = await mkIdentity(ctx.api, a.uid, "vis");
    await bind(ctx.api, child.uid, id.uid, ra.uid);
    const v = expectFieldViolation(await ctx.api.post(path("roleBindings", sib.uid), { identityUid: id.uid, roleUid: ra.uid }), "roleUid");
    expect(v[0].description).toContain("not");
  });

  it("deleting an identity removes its bindings", async () => {
    const g = await mkGroup(ctx.api, org(), "cascade");
    const id = await mkIdentity(ctx.api, g.uid, "gone");
    const b = await bind(ctx.api, g.uid, id.uid, role.viewer);
    ok(await ctx.api.del(path("identities", id.uid)));
    expectError(await ctx.api.get(path("roleBindings", b.uid)), "NOT_FOUND");
  });
});

describe("identity providers", () => {
  const oidc = { issuer: "https://accounts.example.com", clientId: "cid", clientSecret: "s3cr3t-value", additionalScopes: ["email"] };

  it("never returns the client secret; an empty one keeps it unless the mask names it (or, without a mask, the body holds it)", async () => {
    const g = await mkGroup(ctx.api, org(), "idps");
    const res = await ctx.api.post(path("identityProviders", g.uid), { name: "sso", defaultRole: role.viewer, oidc });
    const p = ok(res);
    expect(res.text).not.toContain("s3cr3t-value");
    expect(p.oidc).toEqual({ issuer: oidc.issuer, clientId: "cid", additionalScopes: ["email"] });
    expect(p.defaultRole).toBe(role.viewer);
    expect(p.scim).toEqual({ enabled: false, credentialState: "CREDENTIAL_STATE_NOT_ISSUED" });
    expect(resources.IdentityProvider.parse(p)).toBeTruthy();
    expectFieldViolation(
      await ctx.api.post(path("identityProviders", g.uid), { name: "idp-x", defaultRole: role.viewer, oidc: { ...oidc, clientSecret: "" } }),
      "oidc.clientSecret",
    );
    expectFieldViolation(await ctx.api.post(path("identityProviders", g.uid), { name: "idp-x", defaultRole: "1".repeat(40), oidc }), "defaultRole");
    // The default role is required; a name is 3 to 63 characters.
    expect(expectFieldViolation(await ctx.api.post(path("identityProviders", g.uid), { name: "idp-x", oidc }), "defaultRole")[0].description).toBe(
      "is required",
    );
    expectFieldViolation(await ctx.api.post(path("identityProviders", g.uid), { name: "x", defaultRole: role.viewer, oidc }), "name");
    // A public client (PKCE) needs no secret; its correlation rule is fixed once created.
    const { clientSecret: _, ...publicClient } = oidc;
    const pkce = ok(
      await ctx.api.post(path("identityProviders", g.uid), {
        name: "public",
        defaultRole: role.viewer,
        oidc: { ...publicClient, pkceEnabled: true, groupsClaim: "groups", correlationRule: "CORRELATION_RULE_OID_EQUALS_EXTERNAL_ID" },
      }),
    );
    expect(pkce.oidc).toMatchObject({ pkceEnabled: true, groupsClaim: "groups", correlationRule: "CORRELATION_RULE_OID_EQUALS_EXTERNAL_ID" });
    expectFieldViolation(
      await ctx.api.patch(path("identityProviders", pkce.uid), { oidc: { correlationRule: "CORRELATION_RULE_SUB_EQUALS_EXTERNAL_ID" } }),
      "oidc.correlationRule",
    );
    // Left unset, or restated, it is no change, as on the platform: the Terraform provider
    // updates with mask `*` and no rule; a read-modify-write client echoes it back.
    const whole = { ...publicClient, pkceEnabled: true, groupsClaim: "groups", clientId: "public-2" };
    const restated = ok(
      await ctx.api.patch(path("identityProviders", pkce.uid), { name: "public", defaultRole: role.viewer, oidc: whole }, { updateMask: "*" }),
    );
    expect(restated.oidc).toMatchObject({ clientId: "public-2", correlationRule: "CORRELATION_RULE_OID_EQUALS_EXTERNAL_ID" });
    ok(
      await ctx.api.patch(
        path("identityProviders", pkce.uid),
        { oidc: { ...whole, correlationRule: "CORRELATION_RULE_OID_EQUALS_EXTERNAL_ID" } },
        { updateMask: "oidc" },
      ),
    );
    ok(
      await ctx.api.patch(path("identityProviders", pkce.uid), { oidc: { ...whole, correlationRule: "CORRELATION_RULE_UNSPECIFIED" } }, { updateMask: "oidc" }),
    );
    expectFieldViolation(await ctx.api.patch(path("identityProviders", pkce.uid), { oidc: { pkceEnabled: false } }), "oidc.clientSecret");
    ok(await ctx.api.del(path("identityProviders", pkce.uid)));

    // Without a mask, REST names what the body holds (the protos say so): an empty secret in the
    // body clears it, which a confidential client may not; without one in the body, it is kept.
    expectFieldViolation(await ctx.api.patch(path("identityProviders", p.uid), { oidc: { clientId: "cid2", clientSecret: "" } }), "oidc.clientSecret");
    const u1 = await ctx.api.patch(path("identityProviders", p.uid), { oidc: { clientId: "cid2" } });
    expect(ok(u1).oidc).toEqual({ issuer: oidc.issuer, clientId: "cid2", additionalScopes: ["email"] });
    // A new secret without a mask is taken; an empty one with the whole block masked keeps it.
    ok(await ctx.api.patch(path("identityProviders", p.uid), { oidc: { clientSecret: "rotated-secret" } }));
    ok(await ctx.api.patch(path("identityProviders", p.uid), { oidc: { issuer: oidc.issuer, clientId: "cid2", clientSecret: "" } }, { updateMask: "oidc" }));
    const u2 = await ctx.api.patch(path("identityProviders", p.uid), { oidc: { clientSecret: "new-secret-x" } }, { updateMask: "oidc.client_secret" });
    expect(u2.text).not.toContain("new-secret-x");
    expect(ok(u2).oidc.clientId).toBe("cid2");
    // A JSON name where the proto name differs names nothing the API knows.
    expectFieldViolation(
      await ctx.api.patch(path("identityProviders", p.uid), { oidc: { clientSecret: "x" } }, { updateMask: "oidc.clientSecret" }),
      "update_mask",
    );
    expectFieldViolation(await ctx.api.patch(path("identityProviders", p.uid), { defaultRole: role.editor }, { updateMask: "defaultRole" }), "update_mask");
    // A masked field absent from the body is cleared: the required default role cannot be.
    expectFieldViolation(
      await ctx.api.patch(path("identityProviders", p.uid), { description: "d" }, { updateMask: "description,default_role" }),
      "defaultRole",
    );
    const u3 = ok(
      await ctx.api.patch(path("identityProviders", p.uid), { description: "d", defaultRole: role.editor }, { updateMask: "description,default_role" }),
    );
    expect(u3).toMatchObject({ description: "d", defaultRole: role.editor });
    const got = await ctx.api.get(path("identityProviders", p.uid));
    expect(got.text).not.toMatch(/secret/i);
    const listed = await ctx.api.get(path("identityProviders"), { "uidp.descendants_of": g.uid });
    expect(listed.text).not.toMatch(/clientSecret|s3cr3t/);
    // Recorded bodies are redacted.
    expect(JSON.stringify(ctx.server.requests)).not.toMatch(/s3cr3t-value|new-secret-x/);
    ok(await ctx.api.del(path("identityProviders", p.uid)));
    expectError(await ctx.api.del(path("identityProviders", p.uid)), "NOT_FOUND");
  });
});

describe("account associations", () => {
  it("take what the platform takes, and refuse in its words what it refuses", async () => {
    const g = await mkGroup(ctx.api, org(), "aa-platform");
    // The platform checks neither a project number's digits nor UUIDs (its own tests use these).
    const made = ok(
      await ctx.api.post(path("accountAssociations", g.uid), {
        name: "clouds",
        google: { projectId: "acme-prod", projectNumber: "acme-prod-number" },
        azure: { tenantId: "10000000-0000-0000-0000-000000000000", clientIds: { ingester: "10000000-0000-0000-0000-000000000000", other: "app-id" } },
      }),
    );
    expect(made.google.projectNumber).toBe("acme-prod-number");
    expect(made.azure.tenantId).toBe("10000000-0000-0000-0000-000000000000");
    // What it does check, it says this way (its SDK's validation.ValidateAWSAccount).
    const v = expectFieldViolation(await ctx.api.patch(path("accountAssociations", g.uid), { amazon: { account: "12" } }), "amazon.account");
    expect(v[0].description).toBe('AWS account ID must match "^[0-9]{12}$"');
    // Required members stay required: proto3 cannot tell an empty string from none.
    expectFieldViolation(
      await ctx.api.patch(path("accountAssociations", g.uid), { google: { projectId: "p", projectNumber: "" } }, { updateMask: "google" }),
      "google.projectNumber",
    );
    ok(await ctx.api.del(path("accountAssociations", g.uid)));
  });

  it("is keyed by its group: one per group, idempotent delete, default order by group", async () => {
    const g1 = await mkGroup(ctx.api, org(), "aa1");
    const g2 = await mkGroup(ctx.api, org(), "aa2");
    const a1 = ok(await ctx.api.post(path("accountAssociations", g1.uid), { name: "aws", amazon: { account: "123456789012" } }));
    expect(a1.uid).toBe(g1.uid);
    expect(resources.AccountAssociation.parse(a1)).toBeTruthy();
    expectError(await ctx.api.post(path("accountAssociations", g1.uid), { name: "again" }), "ALREADY_EXISTS");
    ok(await ctx.api.post(path("accountAssociations", g2.uid), { name: "gcp", google: { projectId: "p", projectNumber: "42" } }));
    const list = await listAll(ctx.api, "accountAssociations");
    expect(list.map((a) => a.uid)).toEqual([g1.uid, g2.uid].sort());
    const github = { appInstallations: { "123456": { installations: [{ installationId: "7" }] } } };
    expectFieldViolation(
      await ctx.api.patch(path("accountAssociations", g1.uid), { github: { appInstallations: { acme: { installations: [] } } } }, { updateMask: "github" }),
      "github.appInstallations.acme",
    );
    const u = ok(await ctx.api.patch(path("accountAssociations", g1.uid), { github }, { updateMask: "amazon,github" }));
    expect(u.amazon).toBeUndefined();
    expect(u.github).toEqual(github);
    ok(await ctx.api.del(path("accountAssociations", g1.uid)));
    ok(await ctx.api.del(path("accountAssociations", g1.uid)));
    expectError(await ctx.api.get(path("accountAssociations", g1.uid)), "NOT_FOUND");
  });
});

describe("group invites", () => {
  it("returns the code only on create, has no update, orders newest first", async () => {
    const g = await mkGroup(ctx.api, org(), "invites");
    const created = ok(await ctx.api.post(path("groupInvites", g.uid), { roleUid: role.viewer, ttl: "3600s", email: "a@b.co", singleUse: true }));
    expect(typeof created.code).toBe("string");
    expect(created.code.length).toBeGreaterThan(20);
    expect(resources.GroupInvite.parse(created)).toMatchObject({ roleUid: role.viewer, email: "a@b.co", singleUse: true });
    // The role it grants, hydrated, with capabilities by enum name.
    expect(created.role).toEqual({
      uid: role.viewer,
      name: "viewer",
      description: BUILTIN_ROLES.viewer.description,
      capabilities: wireCaps(BUILTIN_ROLES.viewer.capabilities),
    });
    expect(Date.parse(created.expirationTime) - Date.parse(created.createTime)).toBe(3600_000);
    const got = await ctx.api.get(path("groupInvites", created.uid));
    expect(ok(got).code).toBeUndefined();
    expect(got.text).not.toContain(created.code);
    expect(JSON.stringify(ctx.server.requests)).not.toContain(created.code);

    // `expirationTime` is output only: one sent is discarded, the ttl decides.
    const second = ok(
      await ctx.api.post(path("groupInvites", g.uid), { roleUid: role.editor, ttl: "60s", expirationTime: new Date(Date.now() + day).toISOString() }),
    );
    expect(Date.parse(second.expirationTime) - Date.parse(second.createTime)).toBe(60_000);
    const list = await listAll(ctx.api, "groupInvites", { "uidp.descendants_of": g.uid });
    // Newest first; ties (same millisecond) break by uid, descending too.
    const newestFirst = [created, second].sort((x, y) => (x.createTime === y.createTime ? (x.uid < y.uid ? 1 : -1) : x.createTime < y.createTime ? 1 : -1));
    expect(list.map((i) => i.uid)).toEqual(newestFirst.map((i) => i.uid));
    expect(list.every((i) => i.code === undefined)).toBe(true);
    expect((await listAll(ctx.api, "groupInvites", { keyId: created.keyId })).map((i) => i.uid)).toEqual([created.uid]);

    const patch = await ctx.api.patch(path("groupInvites", created.uid), { email: "x@y.z" });
    expect({ status: patch.status, code: patch.body.code }).toEqual({ status: 405, code: 12 });
    expectFieldViolation(await ctx.api.post(path("groupInvites", g.uid), { roleUid: role.viewer, ttl: "99999999s" }), "ttl");
    expectFieldViolation(await ctx.api.post(path("groupInvites", g.uid), { roleUid: role.viewer, ttl: "1h" }), "ttl");
    // The ttl is required: an expirationTime is no lifetime.
    expectFieldViolation(await ctx.api.post(path("groupInvites", g.uid), { roleUid: role.viewer }), "ttl");
    expectFieldViolation(
      await ctx.api.post(path("groupInvites", g.uid), { roleUid: role.viewer, expirationTime: new Date(Date.now() + day).toISOString() }),
      "ttl",
    );
    ok(await ctx.api.del(path("groupInvites", created.uid)));
    expectError(await ctx.api.del(path("groupInvites", created.uid)), "NOT_FOUND");
  });

  it("never creates an invite that has already expired, even with a sub-millisecond ttl", async () => {
    const g = await mkGroup(ctx.api, org(), "tiny-ttl");
    for (const ttl of ["0.0001s", "0.000000001s"]) {
      const inv = ok(await ctx.api.post(path("groupInvites", g.uid), { roleUid: role.viewer, ttl }));
      expect(Date.parse(inv.expirationTime), ttl).toBeGreaterThan(Date.parse(inv.createTime));
    }
  });
});
