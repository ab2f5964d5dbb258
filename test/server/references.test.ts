/**
 * A body names only what its caller may list: every field of every kind that carries a uid
 * refuses one the caller cannot read with exactly the answer it gives a uid that does not exist,
 * so a body never tells a caller what it could not list. Before, an account association's
 * `chainguard.serviceBindings` took any identity or group, a sibling group's or a root owner's.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { path, useServer, type Api } from "../support/server";
import { bind, mkGroup, mkIdentity, ok, role, wireCaps } from "../support/server-helpers";

const ctx = useServer({ fixtures: {} });
let A: string, B: string, owner: Api;
/** Uids in B, which A's owner cannot list, and uids of nothing at all. */
const hidden: Record<string, string> = {};
const missing: Record<string, string> = {};

beforeAll(async () => {
  const org = ctx.server.organization;
  A = (await mkGroup(ctx.api, org, "grp-a")).uid;
  B = (await mkGroup(ctx.api, org, "grp-b")).uid;
  const me = await mkIdentity(ctx.api, A, "a-owner");
  await bind(ctx.api, A, me.uid, role.owner);
  owner = ctx.api.as(await ctx.server.issueToken(me.uid));
  hidden.identity = (await mkIdentity(ctx.api, B, "b-ci")).uid;
  hidden.group = B;
  hidden.role = ok(await ctx.api.post(path("roles", B), { name: "b-role", capabilities: wireCaps(["repo.list"]) })).uid;
  missing.identity = `${A}/00000000000000aa`;
  missing.group = `${A}/00000000000000bb`;
  missing.role = "0".repeat(39) + "c";
});

/** Every uid-bearing field of every body, as [what it names, collection, body with the uid]. */
const FIELDS: [
  string,
  "identity" | "group" | "role",
  "roleBindings" | "identityProviders" | "groupInvites" | "accountAssociations",
  (uid: string) => object,
][] = [
  ["roleBindings.identityUid", "identity", "roleBindings", (uid) => ({ identityUid: uid, roleUid: role.viewer })],
  ["roleBindings.roleUid", "role", "roleBindings", (uid) => ({ identityUid: hidden.mine, roleUid: uid })],
  [
    "identityProviders.defaultRole",
    "role",
    "identityProviders",
    (uid) => ({ name: "sso", defaultRole: uid, oidc: { issuer: "https://login.example", clientId: "c", clientSecret: "s" } }),
  ],
  ["groupInvites.roleUid", "role", "groupInvites", (uid) => ({ roleUid: uid, ttl: "86400s" })],
  [
    "accountAssociations.chainguard.serviceBindings (identity)",
    "identity",
    "accountAssociations",
    (uid) => ({ name: "a", chainguard: { serviceBindings: { SERVICE_PRINCIPAL_INGESTER: uid } } }),
  ],
  [
    "accountAssociations.chainguard.serviceBindings (group)",
    "group",
    "accountAssociations",
    (uid) => ({ name: "a", chainguard: { serviceBindings: { SERVICE_PRINCIPAL_INGESTER: uid } } }),
  ],
];

describe("references in bodies", () => {
  beforeAll(async () => {
    hidden.mine = (await mkIdentity(ctx.api, A, "a-ci")).uid;
  });

  for (const [field, names, collection, body] of FIELDS) {
    it(`${field}: a uid the caller cannot list is answered like one that does not exist`, async () => {
      const answer = async (uid: string) => {
        const res = await owner.post(path(collection, A), body(uid));
        const text = res.text.split(uid).join("<uid>");
        return { status: res.status, text };
      };
      const forHidden = await answer(hidden[names]);
      const forMissing = await answer(missing[names]);
      expect(forHidden.status, forHidden.text).toBe(400);
      expect(forHidden).toEqual(forMissing);
      // Named by the admin, who may list it, the same uid is accepted.
      if (collection === "accountAssociations") {
        const made = ok(await ctx.api.post(path(collection, A), body(hidden[names])));
        ok(await ctx.api.del(path(collection, made.uid)));
      }
    });
  }

  it("an update naming a hidden uid is refused too, and one that keeps a binding the caller cannot see is not", async () => {
    ok(await ctx.api.post(path("accountAssociations", A), { name: "a", chainguard: { serviceBindings: { SERVICE_PRINCIPAL_INGESTER: hidden.identity } } }));
    const refused = await owner.patch(
      path("accountAssociations", A),
      { chainguard: { serviceBindings: { SERVICE_PRINCIPAL_INGESTER: hidden.group } } },
      { updateMask: "chainguard" },
    );
    expect(refused.status, refused.text).toBe(400);
    ok(await owner.patch(path("accountAssociations", A), { description: "kept" }, { updateMask: "description" }));
  });

  it("a refused group delete counts only what the caller may list", async () => {
    const org = ctx.server.organization;
    const full = await mkGroup(ctx.api, org, "full");
    await mkIdentity(ctx.api, full.uid, "inside");
    ok(await ctx.api.post(path("groupInvites", full.uid), { roleUid: role.viewer, ttl: "86400s" }));
    // A caller that may delete groups and list them, and nothing else.
    const deleter = ok(await ctx.api.post(path("roles", org), { name: "deleter", capabilities: wireCaps(["groups.list", "groups.delete"]) })).uid;
    const who = await mkIdentity(ctx.api, org, "deleter");
    await bind(ctx.api, org, who.uid, deleter);
    const as = ctx.api.as(await ctx.server.issueToken(who.uid));
    const refused = await as.del(path("groups", full.uid));
    expect(refused.status, refused.text).toBe(400);
    expect(refused.text).toContain("contents you may not list");
    expect(refused.text).not.toMatch(/identit|invite/);
    // The admin, who may list everything, is told what is there.
    const told = await ctx.api.del(path("groups", full.uid));
    expect(told.text).toContain("1 identity");
    expect(told.text).toContain("1 group invite");
  });
});
