/**
 * Authorization: viewer / editor / owner, each bound on group A, acting on A itself, on a
 * descendant of A, and on a sibling B. Lists scope silently to what the caller may see.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { listAll, path, useServer, type Api } from "../support/server";
import { bind, expectError, mkGroup, mkIdentity, ok, role, wireCaps } from "../support/server-helpers";

const ctx = useServer({ fixtures: {} });
let A: string, child: string, B: string;
const as: Record<string, Api> = {};
const ids: Record<string, string> = {};

beforeAll(async () => {
  const org = ctx.server.organization;
  A = (await mkGroup(ctx.api, org, "grp-a")).uid;
  child = (await mkGroup(ctx.api, A, "grp-a-child")).uid;
  B = (await mkGroup(ctx.api, org, "grp-b")).uid;
  for (const r of ["viewer", "editor", "owner"] as const) {
    const id = await mkIdentity(ctx.api, A, r);
    ids[r] = id.uid;
    await bind(ctx.api, A, id.uid, role[r]);
    as[r] = ctx.api.as(await ctx.server.issueToken(id.uid));
  }
});

const targets = () => ({ own: A, descendant: child, sibling: B });
type Where = keyof ReturnType<typeof targets>;

describe("authorization matrix", () => {
  for (const r of ["viewer", "editor", "owner"] as const) {
    for (const where of ["own", "descendant", "sibling"] as Where[]) {
      it(`${r} on ${where} group`, async () => {
        const g = targets()[where];
        const api = as[r];
        const inside = where !== "sibling";
        // Read
        const read = await api.get(path("groups", g));
        if (inside) ok(read);
        else expectError(read, "PERMISSION_DENIED");
        // Write: create a subgroup, then (as admin) clean up.
        const create = await api.post(path("groups", g), { name: `by-${r}` });
        if (inside && r === "owner") {
          const made = ok(create);
          ok(await api.patch(path("groups", made.uid), { description: "x" }));
          ok(await api.del(path("groups", made.uid)));
        } else expectError(create, "PERMISSION_DENIED");
        // Grant a role: only an owner, only inside.
        const someone = await mkIdentity(ctx.api, g, `target-${r}-${where}`);
        const grant = await api.post(path("roleBindings", g), { identityUid: someone.uid, roleUid: role.viewer });
        if (inside && r === "owner") ok(grant);
        else expectError(grant, "PERMISSION_DENIED");
        // Update an identity there.
        const upd = await api.patch(path("identities", someone.uid), { description: "changed" });
        if (inside && r === "owner") ok(upd);
        else expectError(upd, "PERMISSION_DENIED");
        // A failed write changed nothing.
        if (!(inside && r === "owner")) expect(ok(await ctx.api.get(path("identities", someone.uid))).description).toBe("");
      });
    }
  }

  it("scopes lists silently to the caller's groups", async () => {
    const seen = (await listAll(as.viewer, "groups")).map((g) => g.uid).sort();
    expect(seen).toEqual([A, child].sort());
    expect(await listAll(as.viewer, "groups", { "uidp.descendants_of": B })).toEqual([]);
    expect((await listAll(as.viewer, "groups", { "uidp.descendants_of": ctx.server.organization })).length).toBe(2);
    const byName = await listAll(as.viewer, "groups", { order_by: "name desc", page_size: 1 });
    expect(byName.map((g) => g.name)).toEqual(["grp-a-child", "grp-a"]);
    const idents = await listAll(as.viewer, "identities");
    expect(idents.every((i) => i.uid.startsWith(`${A}/`))).toBe(true);
    const bindings = await listAll(as.editor, "roleBindings");
    expect(bindings.length).toBeGreaterThanOrEqual(3);
    expect(bindings.every((b) => b.uid.startsWith(A))).toBe(true);
  });

  it("lets any authenticated caller list and get built-in roles, but not others' custom roles", async () => {
    const custom = ok(await ctx.api.post(path("roles", B), { name: "b-role", capabilities: wireCaps(["groups.list"]) }));
    const roles = await listAll(as.viewer, "roles");
    expect(roles.map((r) => r.name).sort()).toEqual(["editor", "owner", "registry.pull", "registry.push", "viewer"]);
    ok(await as.viewer.get(path("roles", role.owner)));
    expectError(await as.owner.get(path("roles", custom.uid)), "PERMISSION_DENIED");
  });

  it("an editor can read and use the registry but not change IAM", async () => {
    expectError(await as.editor.post(path("roles", A), { name: "r", capabilities: wireCaps(["groups.list"]) }), "PERMISSION_DENIED");
    expectError(await as.editor.del(path("identities", ids.viewer)), "PERMISSION_DENIED");
    ok(await as.editor.get(path("identities", ids.viewer)));
  });

  it("an owner of A cannot touch the organization root or sibling B", async () => {
    expectError(await as.owner.patch(path("groups", ctx.server.organization), { name: "mine" }), "PERMISSION_DENIED");
    expectError(await as.owner.del(path("groups", B)), "PERMISSION_DENIED");
    expectError(await as.owner.post(path("accountAssociations", B), { name: "x" }), "PERMISSION_DENIED");
    ok(await as.owner.post(path("accountAssociations", A), { name: "x" }));
  });

  it("checks authorization before existence for root uids of kinds that live under a group", async () => {
    const org = ctx.server.organization;
    // No role binding has a root uid: a viewer's delete of one is still refused, not a success.
    expectError(await as.viewer.del(path("roleBindings", org)), "PERMISSION_DENIED");
    expectError(await as.owner.del(path("roleBindings", org)), "PERMISSION_DENIED");
    for (const name of ["identities", "identityProviders", "groupInvites", "repos", "advisories"] as const)
      expectError(await as.owner.get(path(name, org)), "PERMISSION_DENIED");
    // The organization's owner is allowed, and finds nothing there.
    ok(await ctx.api.del(path("roleBindings", org)));
    expectError(await ctx.api.get(path("identities", org)), "NOT_FOUND");
  });
});
