/** The IAM functions: groups, roles and identities looked up by uid, name or claims. */
import { readBack, type groups, type identities, type ItemOf, type roles } from "../../api/kinds";
import { ROOT_UID, parentOf } from "../../api/uid";
import type { ArgsOf, getGroup as GetGroup, getIdentity as GetIdentity, getRole as GetRole, getRoles as GetRoles } from "../../api/functions";
import type { Item, LookedUpIdentity } from "../../client/shapes";
import { NotFoundError } from "../../client/errors";
import { exactlyOne, listQuery, type ClientSource } from "./query";

/** A group as the functions return it: its definition's fields (api/kinds). */
export type GroupResult = ItemOf<typeof groups> & {
  /** The parent's uid; undefined for the organization itself. */
  parentUid: string | undefined;
};
/** A role as the functions return it. */
export type RoleResult = ItemOf<typeof roles> & {
  /** The group of a custom role; undefined for a built-in one. */
  groupUid: string | undefined;
  /** A built-in role (viewer, editor, owner, registry.pull, registry.push). */
  builtin: boolean;
};
type IdentityItem = ItemOf<typeof identities>;
/** What every identity getIdentity finds has: a person's lookup gives no more. */
type Always = "uid" | "name" | "description" | "createTime" | "updateTime";
/**
 * An identity getIdentity found: a workload identity's every field; a person's those the
 * platform's lookup gives (uid, name, description, times, lastSeenTime), with no group.
 */
export type IdentityResult = { found: true; groupUid: string | undefined } & Pick<IdentityItem, Always> & Partial<Omit<IdentityItem, Always>>;
/** What getIdentity answers, with `allowMissing`, when no identity matches. */
export interface MissingIdentity {
  found: false;
}

/** Look a group up by uid, or by name under a parent. */
export type GetGroupArgs = ArgsOf<typeof GetGroup>;
/** Look a role up by uid or name (built-ins such as `viewer` included). */
export type GetRoleArgs = ArgsOf<typeof GetRole>;
/** Filters of `getRoles`. */
export type GetRolesArgs = ArgsOf<typeof GetRoles>;
/** Look an identity up by uid, by the issuer and subject it signs in with, or by name. */
export type GetIdentityArgs = ArgsOf<typeof GetIdentity>;

const group = (g: Item<"groups">): GroupResult => ({
  uid: g.uid,
  parentUid: parentOf(g.uid),
  ...(readBack("groups", g) as Omit<GroupResult, "uid" | "parentUid">),
});
const role = (r: Item<"roles">): RoleResult => ({
  uid: r.uid,
  groupUid: parentOf(r.uid),
  builtin: ROOT_UID.test(r.uid),
  ...(readBack("roles", r) as Omit<RoleResult, "uid" | "groupUid" | "builtin">),
});
const identity = (i: Item<"identities">): IdentityResult => ({
  found: true,
  uid: i.uid,
  groupUid: parentOf(i.uid),
  ...(readBack("identities", i) as Omit<IdentityResult, "uid" | "groupUid" | "found">),
});
/** A person as the platform's lookup gives them (a v1 Identity): no group, no relationship type. */
const person = (p: LookedUpIdentity): IdentityResult => ({
  found: true,
  uid: p.id,
  groupUid: undefined,
  name: p.name,
  description: p.description,
  createTime: p.createdAt ?? "",
  updateTime: p.updatedAt ?? "",
  ...(p.lastSeen ? { lastSeenTime: p.lastSeen } : {}),
});

/** One group: by uid, or by name under a parent. Errors on zero or several matches. */
export async function getGroup(clients: ClientSource, args: GetGroupArgs): Promise<GroupResult> {
  const client = clients();
  if (args.uid) return group(await client.get("groups", args.uid));
  if (!args.name) throw new Error("getGroup: give uid, or name (and parentUid)");
  const q = listQuery({ childrenOf: args.parentUid }, { name: args.name });
  const found = (await client.collect("groups", q)).filter((g) => g.name === args.name);
  return group(exactlyOne(found, `group named "${args.name}"${args.parentUid ? ` under ${args.parentUid}` : ""}`));
}

/**
 * One role: by uid, or by name. Without `groupUid`, a name shared by a built-in and custom roles
 * resolves to the built-in; otherwise several matches are an error.
 */
export async function getRole(clients: ClientSource, args: GetRoleArgs): Promise<RoleResult> {
  const client = clients();
  if (args.uid) return role(await client.get("roles", args.uid));
  if (!args.name) throw new Error("getRole: give uid or name");
  let found = (await client.collect("roles", { name: args.name })).filter((r) => r.name === args.name).map(role);
  if (args.groupUid) found = found.filter((r) => r.groupUid === args.groupUid);
  else if (found.length > 1 && found.filter((r) => r.builtin).length === 1) found = found.filter((r) => r.builtin);
  return exactlyOne(found, `role named "${args.name}"${args.groupUid ? ` in ${args.groupUid}` : ""}`);
}

/** Roles matching the filters, every page followed. */
export async function getRoles(clients: ClientSource, args: GetRolesArgs = {}): Promise<{ roles: RoleResult[] }> {
  const all = (await clients().collect("roles", listQuery(args, { name: args.name }))).map(role);
  return {
    roles: all.filter((r) => (!args.groupUid || r.groupUid === args.groupUid) && (args.builtin === undefined || r.builtin === args.builtin)),
  };
}

/**
 * One identity: by uid; by the issuer and subject it signs in with, through the platform's lookup
 * (v1 `Identities.Lookup`, as Terraform's `chainguard_identity` does: a person, or a workload
 * identity whose claimMatch names exactly both); or by name (under `groupUid`, with `issuer` and
 * `subject` matching its claimMatch). Zero matches fail, naming what was looked for, unless
 * `allowMissing`: then `{found: false}`. Several matches, and every other error (the network, a
 * permission), always fail: "not found" is never guessed from an error.
 */
export async function getIdentity(clients: ClientSource, args: GetIdentityArgs & { allowMissing: true }): Promise<IdentityResult | MissingIdentity>;
export async function getIdentity(clients: ClientSource, args: GetIdentityArgs): Promise<IdentityResult>;
export async function getIdentity(clients: ClientSource, args: GetIdentityArgs): Promise<IdentityResult | MissingIdentity> {
  const client = clients();
  const what = [args.name && `named "${args.name}"`, args.issuer && `for issuer ${args.issuer}`, args.subject && `and subject ${args.subject}`]
    .filter(Boolean)
    .join(" ");
  const none = (about: string): MissingIdentity => {
    if (args.allowMissing) return { found: false };
    throw new Error(`no ${about} (with allowMissing: true, getIdentity answers found: false instead)`);
  };
  if (args.uid) {
    try {
      return identity(await client.get("identities", args.uid));
    } catch (e) {
      if (e instanceof NotFoundError) return none(`identity ${args.uid}`);
      throw e;
    }
  }
  if (args.issuer && args.subject && !args.name && !args.groupUid) {
    let found: LookedUpIdentity;
    try {
      found = await client.lookupIdentity(args.issuer, args.subject);
    } catch (e) {
      if (e instanceof NotFoundError) return none(`identity for issuer ${args.issuer} and subject ${args.subject}: nobody signed in with them`);
      throw e;
    }
    // A workload identity (in a group) has more than the lookup says: read it whole.
    return parentOf(found.id) ? identity(await client.get("identities", found.id)) : person(found);
  }
  if (!args.name && !(args.issuer && args.subject)) throw new Error("give uid, issuer and subject, or name");
  const q = listQuery({ descendantsOf: args.groupUid }, { name: args.name });
  const found = (await client.collect("identities", q)).filter(
    (i) =>
      (!args.name || i.name === args.name) &&
      (!args.issuer || i.claimMatch?.issuer === args.issuer) &&
      (!args.subject || i.claimMatch?.subject === args.subject),
  );
  if (found.length === 0) return none(`identity ${what}`);
  return identity(exactlyOne(found, `identity ${what}`));
}
