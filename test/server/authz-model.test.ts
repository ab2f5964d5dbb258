/**
 * The authorization model, enumerated: every caller (viewer, editor, owner and a custom
 * "granter" role, each bound on group A) x every target group (A itself, its ancestor P, its
 * descendant D, its sibling S) x every verb (list, get, create, update, delete) of every IAM
 * collection. The expected answer comes from the caller's bindings alone: a request is allowed
 * exactly when the caller holds every capability it needs on the target, through a binding on
 * A (so on A and D only); then it answers 200, otherwise PERMISSION_DENIED and nothing changes.
 * A list never returns an item outside what the caller may list.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { BUILTIN_ROLES } from "../../api";
import { builtinRoleUid } from "../../server";
import { listAll, path, useServer, type Api } from "../support/server";
import { bind, expectError, expectFieldViolation, mkGroup, mkIdentity, ok, role, wireCaps } from "../support/server-helpers";

const ctx = useServer({ fixtures: {} });

const viewerCaps = BUILTIN_ROLES.viewer.capabilities;
const GRANTER_CAPS = [
  "role_bindings.list",
  "role_bindings.create",
  "role_bindings.update",
  "role_bindings.delete",
  "group_invites.list",
  "group_invites.create",
  "group_invites.delete",
  "identity.list",
  "roles.list",
  "groups.list",
];

const CALLERS = {
  viewer: BUILTIN_ROLES.viewer.capabilities,
  editor: BUILTIN_ROLES.editor.capabilities,
  owner: BUILTIN_ROLES.owner.capabilities,
  granter: GRANTER_CAPS,
} as Record<string, readonly string[]>;
type Caller = keyof typeof CALLERS;
const TARGETS = ["own", "ancestor", "descendant", "sibling"] as const;
type Target = (typeof TARGETS)[number];

let groups: Record<Target, string>;
const as: Record<string, Api> = {};
let n = 0;
const fresh = (p: string) => `${p}-${++n}`;

/** One collection: how the admin makes an item in group g, and what each verb sends and needs. */
interface Kind {
  name: "groups" | "identities" | "roles" | "roleBindings" | "identityProviders" | "accountAssociations" | "groupInvites";
  cap: string;
  /** Makes an item governed by (inside) group g; returns its uid. */
  make(g: string): Promise<string>;
  /** The parent to create under, and the body. */
  create(g: string): Promise<{ parent: string; body: object }>;
  /** Capabilities a create needs beyond `<cap>.create` (what it grants). */
  grants?: readonly string[];
  update?: object;
  /** Capabilities an update needs beyond `<cap>.update`. */
  updateGrants?: readonly string[];
}

const admin = () => ctx.api;
const KINDS: Kind[] = [
  {
    name: "groups",
    cap: "groups",
    make: async (g) => (await mkGroup(admin(), g, fresh("sub"))).uid,
    create: async (g) => ({ parent: g, body: { name: fresh("made") } }),
    update: { description: "changed" },
  },
  {
    name: "identities",
    cap: "identity",
    make: async (g) => (await mkIdentity(admin(), g, fresh("id"))).uid,
    create: async (g) => ({ parent: g, body: { name: "x-id", claimMatch: { issuer: "https://i.example", subject: "s" } } }),
    update: { description: "changed" },
  },
  {
    name: "roles",
    cap: "roles",
    make: async (g) => ok(await admin().post(path("roles", g), { name: "r", capabilities: wireCaps(["groups.list"]) })).uid,
    create: async (g) => ({ parent: g, body: { name: "r", capabilities: wireCaps(["groups.list"]) } }),
    grants: ["groups.list"],
    update: { description: "changed" },
  },
  {
    name: "roleBindings",
    cap: "role_bindings",
    make: async (g) => (await bind(admin(), g, (await mkIdentity(admin(), g, fresh("b"))).uid, role.viewer)).uid,
    create: async (g) => ({ parent: g, body: { identityUid: (await mkIdentity(admin(), g, fresh("b"))).uid, roleUid: role.viewer } }),
    grants: viewerCaps,
    update: { roleUid: builtinRoleUid("registry.pull") },
    updateGrants: BUILTIN_ROLES["registry.pull"].capabilities,
  },
  {
    name: "identityProviders",
    cap: "identity_providers",
    make: async (g) =>
      ok(
        await admin().post(path("identityProviders", g), {
          name: "idp",
          defaultRole: role.viewer,
          oidc: { issuer: "https://i.example", clientId: "c", clientSecret: "s" },
        }),
      ).uid,
    // Its default role is required, and everyone who signs in gets it: a create grants it.
    create: async (g) => ({
      parent: g,
      body: { name: "idp", defaultRole: role.viewer, oidc: { issuer: "https://i.example", clientId: "c", clientSecret: "s" } },
    }),
    grants: viewerCaps,
    update: { description: "changed" },
  },
  {
    name: "accountAssociations",
    cap: "account_associations",
    make: async (g) => {
      const owner = (await mkGroup(admin(), g, fresh("acct"))).uid;
      return ok(await admin().post(path("accountAssociations", owner), { name: "a", amazon: { account: "123456789012" } })).uid;
    },
    create: async (g) => ({ parent: (await mkGroup(admin(), g, fresh("acct"))).uid, body: { name: "a", amazon: { account: "123456789012" } } }),
    update: { description: "changed" },
  },
  {
    name: "groupInvites",
    cap: "group_invites",
    make: async (g) => ok(await admin().post(path("groupInvites", g), { roleUid: role.viewer, ttl: "86400s" })).uid,
    create: async (g) => ({ parent: g, body: { roleUid: role.viewer, ttl: "86400s" } }),
    grants: viewerCaps,
  },
];

/** True when `caller`, bound on A, holds every one of `caps` on `target`. */
const allowed = (caller: Caller, caps: readonly string[], target: Target) =>
  (target === "own" || target === "descendant") && caps.every((c) => CALLERS[caller].includes(c));

/** The group whose bindings govern an item: groups and account associations are their own. */
const governing = (kind: Kind, uid: string) => (kind.name === "groups" || kind.name === "accountAssociations" ? uid : uid.slice(0, uid.lastIndexOf("/")));
const inside = (g: string) => g === groups.own || g.startsWith(`${groups.own}/`);

beforeAll(async () => {
  const org = ctx.server.organization;
  const P = (await mkGroup(admin(), org, "grp-p")).uid;
  const A = (await mkGroup(admin(), P, "grp-a")).uid;
  groups = { ancestor: P, own: A, descendant: (await mkGroup(admin(), A, "grp-d")).uid, sibling: (await mkGroup(admin(), P, "grp-s")).uid };
  const granter = ok(await admin().post(path("roles", A), { name: "granter", capabilities: wireCaps(GRANTER_CAPS) })).uid;
  for (const c of Object.keys(CALLERS)) {
    const id = await mkIdentity(admin(), A, `caller-${c}`);
    await bind(admin(), A, id.uid, c === "granter" ? granter : role[c as "viewer" | "editor" | "owner"]);
    as[c] = admin().as(await ctx.server.issueToken(id.uid));
  }
});

describe("authorization model: caller x target x verb, every IAM collection", () => {
  for (const kind of KINDS) {
    it(kind.name, async () => {
      const wrong: string[] = [];
      const expect2 = (what: string, status: number, body: any, allow: boolean) => {
        const good = allow ? status === 200 : status === 403 && body?.code === 7;
        if (!good) wrong.push(`${what}: expected ${allow ? 200 : 403}, got ${status} ${JSON.stringify(body).slice(0, 300)}`);
      };
      for (const caller of Object.keys(CALLERS) as Caller[]) {
        for (const target of TARGETS) {
          const g = groups[target];
          const api = as[caller];
          const at = `${caller} ${kind.name} on ${target}`;
          const item = await kind.make(g);
          const mayList = allowed(caller, [`${kind.cap}.list`], target);

          // list: scoped to what the caller may list, never more.
          const listed = await listAll(api, kind.name, { "uidp.descendants_of": g });
          const outside = listed.filter((i: any) => !(CALLERS[caller].includes(`${kind.cap}.list`) && inside(governing(kind, i.uid))));
          if (outside.length) wrong.push(`${at}: list returned ${outside.length} items it may not list`);
          if (listed.some((i: any) => i.uid === item) !== mayList) wrong.push(`${at}: list ${mayList ? "lacks" : "shows"} the item`);

          const get = await api.get(path(kind.name, item));
          expect2(`${at} get`, get.status, get.body, mayList);

          const { parent, body } = await kind.create(g);
          const before = (await listAll(admin(), kind.name, { "uidp.descendants_of": parent })).length;
          const made = await api.post(path(kind.name, parent), body);
          expect2(`${at} create`, made.status, made.body, allowed(caller, [`${kind.cap}.create`, ...(kind.grants ?? [])], target));
          if (made.status !== 200 && (await listAll(admin(), kind.name, { "uidp.descendants_of": parent })).length !== before)
            wrong.push(`${at}: a refused create wrote something`);

          if (kind.update) {
            const was = ok(await admin().get(path(kind.name, item)));
            const upd = await api.patch(path(kind.name, item), kind.update);
            expect2(`${at} update`, upd.status, upd.body, allowed(caller, [`${kind.cap}.update`, ...(kind.updateGrants ?? [])], target));
            if (upd.status !== 200) expect(ok(await admin().get(path(kind.name, item)))).toEqual(was);
          }

          const del = await api.del(path(kind.name, item));
          expect2(`${at} delete`, del.status, del.body, allowed(caller, [`${kind.cap}.delete`], target));
          if (del.status !== 200) ok(await admin().get(path(kind.name, item)));
        }
      }
      expect(wrong).toEqual([]);
    });
  }
});

describe("no path gives a caller more than its bindings grant", () => {
  /** A caller bound on A with a custom role of exactly `caps`. */
  const callerWith = async (name: string, caps: string[]) => {
    const r = ok(await admin().post(path("roles", groups.own), { name, capabilities: wireCaps(caps) })).uid;
    const id = await mkIdentity(admin(), groups.own, name);
    await bind(admin(), groups.own, id.uid, r);
    return { api: admin().as(await ctx.server.issueToken(id.uid)), uid: id.uid as string };
  };

  it("an identity of A bound at the root gives A's owner nothing beyond A (the org-owner escalation)", async () => {
    const org = ctx.server.organization;
    const inA = await mkIdentity(admin(), groups.own, "lives-in-a");
    // The organization's owner may bind it above its group (it can read it)...
    const atRoot = await bind(admin(), org, inA.uid, role.owner);
    // ...and then A's owner may no longer change how it is assumed, nor delete it with its bindings.
    const hijack = { claimMatch: { issuer: "https://evil.example", subject: "a-owner" } };
    expectError(await as.owner.patch(path("identities", inA.uid), hijack), "PERMISSION_DENIED");
    expectError(
      await as.owner.patch(path("identities", inA.uid), { staticKeys: undefined, servicePrincipal: "SERVICE_PRINCIPAL_INGESTER" }),
      "PERMISSION_DENIED",
    );
    expectError(await as.owner.del(path("identities", inA.uid)), "PERMISSION_DENIED");
    expect(ok(await admin().get(path("identities", inA.uid))).claimMatch).toEqual(inA.claimMatch);
    ok(await admin().get(path("roleBindings", atRoot.uid)));
    // Its name and description are A's business.
    ok(await as.owner.patch(path("identities", inA.uid), { description: "still ours to describe" }));
    // A's owner cannot bind it (or anything) above A, nor bind a sibling's identity it cannot read.
    expectError(await as.owner.post(path("roleBindings", groups.ancestor), { identityUid: inA.uid, roleUid: role.viewer }), "PERMISSION_DENIED");
    const inSibling = await mkIdentity(admin(), groups.sibling, "sibling-id");
    expectFieldViolation(await as.owner.post(path("roleBindings", groups.own), { identityUid: inSibling.uid, roleUid: role.viewer }), "identityUid");
    // Once the root binding is gone, A's owner governs every binding the identity has again.
    ok(await admin().del(path("roleBindings", atRoot.uid)));
    ok(await as.owner.patch(path("identities", inA.uid), hijack));
  });

  it("nobody grants, defines or redirects more than it holds", async () => {
    const granter = as.granter;
    const someone = await mkIdentity(admin(), groups.own, "grantee");
    // A binding, an invite: the role's capabilities must be the caller's own.
    expectError(await granter.post(path("roleBindings", groups.own), { identityUid: someone.uid, roleUid: role.owner }), "PERMISSION_DENIED");
    expectError(await granter.post(path("groupInvites", groups.own), { roleUid: role.owner, ttl: "86400s" }), "PERMISSION_DENIED");
    // A role within its own capabilities it may grant.
    const mild = ok(await admin().post(path("roles", groups.own), { name: "mild", capabilities: wireCaps(["groups.list"]) }));
    ok(await granter.post(path("roleBindings", groups.own), { identityUid: someone.uid, roleUid: mild.uid }));
    // Roles: defining or growing one past the caller's own capabilities.
    const roleWriter = await callerWith("role-writer", ["roles.list", "roles.create", "roles.update"]);
    expectError(await roleWriter.api.post(path("roles", groups.own), { name: "big", capabilities: wireCaps(["groups.delete"]) }), "PERMISSION_DENIED");
    const small = ok(await roleWriter.api.post(path("roles", groups.own), { name: "small", capabilities: wireCaps(["roles.list"]) }));
    expectError(await roleWriter.api.patch(path("roles", small.uid), { capabilities: wireCaps(["roles.list", "groups.delete"]) }), "PERMISSION_DENIED");
    // Its own role, grown through itself.
    const own = ok(await admin().get(path("roleBindings"), { identity: roleWriter.uid })).roleBindings[0].role.uid;
    expectError(
      await roleWriter.api.patch(path("roles", own), { capabilities: wireCaps(["roles.list", "roles.create", "roles.update", "groups.delete"]) }),
      "PERMISSION_DENIED",
    );
    // An identity provider's sign-in, redirected to an issuer the caller controls.
    const idp = ok(
      await admin().post(path("identityProviders", groups.own), {
        name: "sso",
        defaultRole: role.owner,
        oidc: { issuer: "https://sso.example", clientId: "c", clientSecret: "s" },
      }),
    );
    const idpWriter = await callerWith("idp-writer", ["identity_providers.list", "identity_providers.update"]);
    expectError(await idpWriter.api.patch(path("identityProviders", idp.uid), { oidc: { issuer: "https://evil.example" } }), "PERMISSION_DENIED");
    ok(await idpWriter.api.patch(path("identityProviders", idp.uid), { description: "renamed is fine" }));
    expect(ok(await admin().get(path("identityProviders", idp.uid))).oidc.issuer).toBe("https://sso.example");
  });

  it("changing how a bound identity is assumed needs what its bindings grant", async () => {
    const target = await mkIdentity(admin(), groups.own, "bound-owner");
    await bind(admin(), groups.own, target.uid, role.owner);
    const editor = await callerWith("identity-editor", ["identity.list", "identity.update"]);
    const hijack = { claimMatch: { issuer: "https://evil.example", subject: "me" } };
    expectError(await editor.api.patch(path("identities", target.uid), hijack), "PERMISSION_DENIED");
    expect(ok(await admin().get(path("identities", target.uid))).claimMatch.issuer).toBe("https://token.actions.githubusercontent.com");
    ok(await editor.api.patch(path("identities", target.uid), { description: "harmless" }));
    // An owner of A holds all an owner binding on A grants: it may.
    ok(await as.owner.patch(path("identities", target.uid), hijack));
  });

  it("deleting an identity needs the right to delete each of its bindings", async () => {
    const target = await mkIdentity(admin(), groups.own, "to-delete");
    const b = await bind(admin(), groups.descendant, target.uid, role.viewer);
    const deleter = await callerWith("identity-deleter", ["identity.list", "identity.delete"]);
    expectError(await deleter.api.del(path("identities", target.uid)), "PERMISSION_DENIED");
    ok(await admin().get(path("roleBindings", b.uid)));
    ok(await admin().get(path("identities", target.uid)));
    ok(await as.owner.del(path("identities", target.uid)));
    expectError(await admin().get(path("roleBindings", b.uid)), "NOT_FOUND");
  });

  it("references name nothing the caller may not read, and tell no uid's existence", async () => {
    const granter = as.granter;
    const inSibling = await mkIdentity(admin(), groups.sibling, "sibling-secret");
    const missing = `${groups.sibling}/0123456789abcdef`;
    const a = await granter.post(path("roleBindings", groups.own), { identityUid: inSibling.uid, roleUid: builtinRoleUid("registry.pull") });
    const b = await granter.post(path("roleBindings", groups.own), { identityUid: missing, roleUid: builtinRoleUid("registry.pull") });
    expect(a.text).not.toContain("sibling-secret");
    expect(a.text.replaceAll(inSibling.uid, "UID")).toBe(b.text.replaceAll(missing, "UID"));
    // A custom role of a group the caller cannot read: same answer as none, and no group named.
    const hidden = ok(await admin().post(path("roles", groups.sibling), { name: "hidden", capabilities: wireCaps(["groups.list"]) }));
    const someone = await mkIdentity(admin(), groups.own, "ref-target");
    const c = await granter.post(path("roleBindings", groups.own), { identityUid: someone.uid, roleUid: hidden.uid });
    const d = await granter.post(path("roleBindings", groups.own), { identityUid: someone.uid, roleUid: `${groups.sibling}/0123456789abcdef` });
    expect(c.text).not.toContain("hidden");
    expect(c.text.replaceAll(hidden.uid, "UID")).toBe(d.text.replaceAll(`${groups.sibling}/0123456789abcdef`, "UID"));
    // A binding on A naming an identity of the ancestor P (made by the org owner) shows a viewer
    // of A only the identity's uid.
    const inP = await mkIdentity(admin(), groups.ancestor, "ancestor-secret");
    const onA = await bind(admin(), groups.own, inP.uid, role.viewer);
    const seen = ok(await as.viewer.get(path("roleBindings", onA.uid)));
    expect(seen.identity).toEqual({ uid: inP.uid, name: "", description: "", subject: "", issuer: "", email: "" });
    expect(JSON.stringify(ok(await as.viewer.get(path("roleBindings"), { "uidp.descendants_of": groups.own })))).not.toContain("ancestor-secret");
    expect(ok(await admin().get(path("roleBindings", onA.uid))).identity.name).toBe("ancestor-secret");
  });
});
