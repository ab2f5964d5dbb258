/** Groups CRUD over HTTP, masks, group deletion rules, and how bad input is refused. */
import { describe, expect, it } from "vitest";
import { TYPE_PREFIX, resources } from "../../api";
import { GROUP_DEPTH_MAX } from "../../server/model/groups";
import { path, useServer } from "../support/server";
import { bind, expectError, expectFieldViolation, mkGroup, mkIdentity, ok, role } from "../support/server-helpers";

const ctx = useServer({ fixtures: {} });
const TS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe("groups", () => {
  it("creates, gets, lists, updates and deletes a group", async () => {
    const org = ctx.server.organization;
    const g = await mkGroup(ctx.api, org, "engineering", "eng");
    expect(resources.Group.parse(g)).toBeTruthy();
    expect(g.uid).toMatch(new RegExp(`^${org}/[0-9a-f]{16}$`));
    expect(g).toMatchObject({
      name: "engineering",
      description: "eng",
      resourceLimits: {},
      verified: false,
      kind: "ORG_KIND_CUSTOMER",
      status: "ORG_STATUS_READY",
    });
    expect(g.createTime).toMatch(TS);
    expect(g.updateTime).toBe(g.createTime);

    expect(ok(await ctx.api.get(path("groups", g.uid)))).toEqual(g);
    const listed = ok(await ctx.api.get(path("groups"), { "uidp.children_of": org }));
    expect(listed.groups.map((x: { uid: string }) => x.uid)).toContain(g.uid);

    const nested = await mkGroup(ctx.api, g.uid, "platform");
    expect(nested.uid.startsWith(`${g.uid}/`)).toBe(true);

    const renamed = ok(await ctx.api.patch(path("groups", nested.uid), { name: "platform-team" }));
    expect(renamed).toMatchObject({ name: "platform-team", createTime: nested.createTime });

    expect(ok(await ctx.api.del(path("groups", nested.uid)))).toEqual({});
    expectError(await ctx.api.get(path("groups", nested.uid)), "NOT_FOUND");
    expectError(await ctx.api.del(path("groups", nested.uid)), "NOT_FOUND");
    ok(await ctx.api.del(path("groups", g.uid)));
  });

  it("refuses bad names and bodies with BadRequest field violations", async () => {
    const org = ctx.server.organization;
    const bad = await ctx.api.post(path("groups", org), { name: "Upper Case!" });
    const v = expectFieldViolation(bad, "name");
    expect(bad.body.message).toBe("Invalid argument: name: must match ^[a-z0-9 ._-]{1,}$");
    expect(v[0].description).toContain("^[a-z0-9 ._-]{1,}$");
    expect(expectFieldViolation(await ctx.api.post(path("groups", org), {}), "name")[0].description).toBe("is required");
    // Names are 3 to 63 characters.
    expect(expectFieldViolation(await ctx.api.post(path("groups", org), { name: "ok" }), "name")[0].description).toBe("must be 3 to 63 characters");
    expectFieldViolation(await ctx.api.post(path("groups", org), { name: "n".repeat(64) }), "name");
    // A member the API does not know is discarded, as the platform's gateway discards it.
    const colourless = ok(await ctx.api.post(path("groups", org), { name: "colourful", colour: "red" }));
    expect(colourless).not.toHaveProperty("colour");
    expect(ok(await ctx.api.get(path("groups", colourless.uid)))).toEqual(colourless);
    ok(await ctx.api.del(path("groups", colourless.uid)));
    // A null member is an unset one (protojson's reading, and so the gateway's); a required one is still missing.
    const nulled = ok(await ctx.api.post(path("groups", org), { name: "nulled", description: null }));
    expect(nulled.description).toBe("");
    expect(ok(await ctx.api.patch(path("groups", nulled.uid), { description: "set" }, { updateMask: "description" })).description).toBe("set");
    expect(ok(await ctx.api.patch(path("groups", nulled.uid), { description: null }, { updateMask: "description" })).description).toBe("");
    ok(await ctx.api.del(path("groups", nulled.uid)));
    expectFieldViolation(await ctx.api.post(path("groups", org), { name: null }), "name");
    expectFieldViolation(await ctx.api.post(path("groups", org), { name: 42 }), "name");
    expectFieldViolation(await ctx.api.post(path("groups", org), ["a"]), "body");
    // Malformed JSON, wrong content type, too large: all INVALID_ARGUMENT, never a 500.
    const raw = (rawBody: string, headers: Record<string, string>) => ctx.api.request("POST", path("groups", org), { rawBody, headers });
    expectFieldViolation(await raw('{"name":', { "content-type": "application/json" }), "body");
    expectFieldViolation(await raw("name=x", { "content-type": "text/plain" }), "content-type");
    const huge = JSON.stringify({ name: "huge", description: "d".repeat(2 * 1024 * 1024) });
    expectFieldViolation(await raw(huge, { "content-type": "application/json" }), "body");
    // Nothing was created by any of those.
    const all = ok(await ctx.api.get(path("groups"), { "uidp.children_of": org }));
    expect(all.groups.filter((g: { name: string }) => ["x", "ok", "huge", "colourful"].includes(g.name) || g.name.length > 63)).toEqual([]);
  });

  it("refuses bad uids, unknown routes and wrong methods in the error model", async () => {
    expectFieldViolation(await ctx.api.get(path("groups", "not-a-uid")), "uid");
    expectFieldViolation(await ctx.api.post(path("groups", "ABC"), { name: "x" }), "parent");
    expectError(await ctx.api.get(path("groups", "a".repeat(40))), "PERMISSION_DENIED");
    const missing = `${ctx.server.organization}/0123456789abcdef`;
    expectError(await ctx.api.get(path("groups", missing)), "NOT_FOUND");
    expectError(await ctx.api.post(path("groups", missing), { name: "orphan" }), "NOT_FOUND");
    expectError(await ctx.api.patch(path("groups", missing), { name: "x" }), "NOT_FOUND");
    const nowhere = await ctx.api.get("/iam/v2beta1/nothing");
    expectError(nowhere, "NOT_FOUND");
    const put = await ctx.api.request("PUT", path("groups", ctx.server.organization), { body: { name: "x" } });
    expect({ status: put.status, code: put.body.code }).toEqual({ status: 405, code: 12 });
    const postList = await ctx.api.post(path("groups"), { name: "x" });
    expect(postList.status).toBe(405);
  });

  it("decodes a uid in a path once: %2F is a slash, %252F is not", async () => {
    const g = await mkGroup(ctx.api, ctx.server.organization, "encoded");
    const [root, seg] = [ctx.server.organization, g.uid.slice(ctx.server.organization.length + 1)];
    expect(ok(await ctx.api.get(`${path("groups")}/${root}%2F${seg}`)).uid).toBe(g.uid);
    expectFieldViolation(await ctx.api.get(`${path("groups")}/${root}%252F${seg}`), "uid");
    expectFieldViolation(await ctx.api.del(`${path("groups")}/${root}%252F${seg}`), "uid");
    ok(await ctx.api.get(path("groups", g.uid)));
  });

  it("an update may name verified, as the platform's clients do; only the platform's staff change it", async () => {
    const g = await mkGroup(ctx.api, ctx.server.organization, "verify-me", "desc");
    // The Terraform provider's mask on every group update.
    const r = ok(
      await ctx.api.patch(path("groups", g.uid), { name: "verify-me", description: "new", verified: false }, { updateMask: "name,description,verified" }),
    );
    expect(r).toMatchObject({ name: "verify-me", description: "new", verified: false });
    // Under the mask an absent verified is false: what it is.
    expect(ok(await ctx.api.patch(path("groups", g.uid), { description: "newer" }, { updateMask: "description,verified" }))).toMatchObject({
      description: "newer",
      verified: false,
    });
    expect(ok(await ctx.api.patch(path("groups", g.uid), { verified: false }))).toMatchObject({ description: "newer", verified: false });
    expectError(await ctx.api.patch(path("groups", g.uid), { description: "no", verified: true }, { updateMask: "description,verified" }), "PERMISSION_DENIED");
    expectError(await ctx.api.patch(path("groups", g.uid), { verified: true }), "PERMISSION_DENIED");
    expect(ok(await ctx.api.get(path("groups", g.uid)))).toMatchObject({ description: "newer", verified: false });
  });

  it("PATCH without a mask changes only the fields present", async () => {
    const g = await mkGroup(ctx.api, ctx.server.organization, "masks", "keep me");
    const r = ok(await ctx.api.patch(path("groups", g.uid), { name: "masks2" }));
    expect(r).toMatchObject({ name: "masks2", description: "keep me" });
  });

  it("PATCH with a mask changes only listed fields, clears listed-but-absent ones, rejects unknown paths", async () => {
    const g = await mkGroup(ctx.api, ctx.server.organization, "masked", "desc");
    const r1 = ok(await ctx.api.patch(path("groups", g.uid), { name: "ignored", description: "new" }, { updateMask: "description" }));
    expect(r1).toMatchObject({ name: "masked", description: "new" });
    const r2 = ok(await ctx.api.patch(path("groups", g.uid), {}, { updateMask: "description" }));
    expect(r2.description).toBe("");
    expect(r2.updateTime >= r1.updateTime).toBe(true);
    expectFieldViolation(await ctx.api.patch(path("groups", g.uid), { name: "renamed" }, { updateMask: "name,colour" }), "update_mask");
    // Clearing a required field is refused and changes nothing.
    expectFieldViolation(await ctx.api.patch(path("groups", g.uid), {}, { updateMask: "name" }), "name");
    expect(ok(await ctx.api.get(path("groups", g.uid)))).toMatchObject({ name: "masked", description: "" });
    // Other query parameters are ignored, as the platform's gateway ignores them.
    expect(ok(await ctx.api.patch(path("groups", g.uid), { description: "other" }, { other: "1" }))).toMatchObject({ name: "masked", description: "other" });
    // Snake case query name works too.
    const r3 = ok(await ctx.api.patch(path("groups", g.uid), { name: "masked2", description: "zz" }, { update_mask: "name" }));
    expect(r3).toMatchObject({ name: "masked2", description: "other" });
    // `*` names every updatable field: the body replaces the group, clearing what it omits.
    expect(ok(await ctx.api.patch(path("groups", g.uid), { name: "masked3" }, { updateMask: "*" }))).toMatchObject({ name: "masked3", description: "" });
  });

  it("refuses to delete a group with children: RESOURCE_NOT_EMPTY naming the kind", async () => {
    const g = await mkGroup(ctx.api, ctx.server.organization, "parent");
    await mkGroup(ctx.api, g.uid, "child-a");
    await mkGroup(ctx.api, g.uid, "child-b");
    const res = await ctx.api.del(path("groups", g.uid));
    const body = expectError(res, "FAILED_PRECONDITION");
    const pf = body.details.find((d: { "@type": string }) => d["@type"] === `${TYPE_PREFIX}PreconditionFailure`);
    expect(pf.violations).toEqual([expect.objectContaining({ type: "RESOURCE_NOT_EMPTY", description: "group has 2 child groups" })]);

    const h = await mkGroup(ctx.api, ctx.server.organization, "holder");
    const id = await mkIdentity(ctx.api, h.uid, "someone");
    await bind(ctx.api, h.uid, id.uid, role.viewer);
    ok(await ctx.api.post(path("accountAssociations", h.uid), { name: "aws", amazon: { account: "123456789012" } }));
    const r2 = expectError(await ctx.api.del(path("groups", h.uid)), "FAILED_PRECONDITION");
    const descs = r2.details[1].violations.map((v: { description: string }) => v.description);
    expect(descs).toEqual(["group has 1 identity", "group has 1 role binding", "group has 1 account association"]);
    // Still there, unchanged.
    ok(await ctx.api.get(path("groups", h.uid)));
    ok(await ctx.api.get(path("identities", id.uid)));
  });

  it("finds repos as children of the organization (sample fixtures)", async () => {
    const { server, api, close } = await import("../support/server").then((m) => m.startTestServer());
    try {
      const body = expectError(await api.del(path("groups", server.organization)), "FAILED_PRECONDITION");
      const descs = body.details[1].violations.map((v: { description: string }) => v.description);
      // Once: repos are a kind, counted as every kind is.
      expect(descs.filter((d: string) => d.endsWith(" repos"))).toEqual(["group has 36 repos"]);
    } finally {
      await close();
    }
  });
});

describe("masks ignore fields outside them", () => {
  it("does not validate or apply body fields the mask does not name", async () => {
    const g = await mkGroup(ctx.api, ctx.server.organization, "ignore-outside", "a");
    const r = ok(await ctx.api.patch(path("groups", g.uid), { name: "NOT VALID!", description: "b" }, { updateMask: "description" }));
    expect(r).toMatchObject({ name: "ignore-outside", description: "b" });
  });

  it("nests at most GROUP_DEPTH_MAX deep, refusing the next level in the error model", async () => {
    let parent = ctx.server.organization;
    for (let depth = 1; depth <= GROUP_DEPTH_MAX; depth++) parent = (await mkGroup(ctx.api, parent, `level-${depth}`)).uid;
    expect(parent.split("/")).toHaveLength(GROUP_DEPTH_MAX + 1);
    const refused = expectError(await ctx.api.post(path("groups", parent), { name: "too-deep" }), "FAILED_PRECONDITION");
    expect(refused.message).toContain(`at most ${GROUP_DEPTH_MAX} deep`);
  });
});
