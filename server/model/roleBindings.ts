/** Role bindings: an identity holds a role on a group (and everything below it). */
import { RoleBindingCreate, RoleBindingUpdate } from "../../api/bodies";
import { parentOf } from "../../api/uid";
import { timestamp, type ServerContext } from "../context";
import type { FieldViolation } from "../../api/codes";
import { alreadyExists, invalidArgument } from "../errors";
import { applyPatch, maskPaths } from "../masks";
import type { RoleBindingRecord } from "../store";
import { parseBody } from "../validate";
import { freshUid, grantableRole, identityRefProblem, requireGroup, requireItem, roleRefProblem } from "./common";
import { isPerson } from "./people";

export const roleBindingMaskPaths = maskPaths(RoleBindingUpdate);

/**
 * Checks a binding's references for `caller` (identityRefProblem, then grantableRole), refusing a
 * duplicate of another binding on the same group.
 */
function checkRefs(ctx: ServerContext, caller: string, group: string, input: RoleBindingCreate, self?: string): void {
  const violations: FieldViolation[] = [];
  const identity = identityRefProblem(ctx, caller, input.identityUid);
  if (identity) violations.push({ field: "identityUid", description: identity });
  const role = roleRefProblem(ctx, caller, input.roleUid, group);
  if (role) violations.push({ field: "roleUid", description: role });
  if (violations.length > 0) throw invalidArgument(violations);
  grantableRole(ctx, caller, input.roleUid, group, "roleUid");
  const twin = ctx.store.bindingsOf(input.identityUid).find((b) => b.uid !== self && b.roleUid === input.roleUid && parentOf(b.uid) === group);
  if (twin) throw alreadyExists(`identity ${input.identityUid} already holds role ${input.roleUid} on group ${group} (binding ${twin.uid})`);
}

/** Binds a role to an identity on group `groupUid`. */
export function createRoleBinding(ctx: ServerContext, groupUid: string, body: unknown, caller: string): RoleBindingRecord {
  requireGroup(ctx, groupUid);
  const input = parseBody(RoleBindingCreate, body);
  checkRefs(ctx, caller, groupUid, input);
  const b = bindingRecord(freshUid(ctx.store.roleBindings, groupUid), input.identityUid, input.roleUid, timestamp(ctx));
  ctx.store.putBinding(b);
  return b;
}

/** A binding's record: `identity` holds `role` on the binding's group from `createTime` on. */
export function bindingRecord(uid: string, identity: string, role: string, createTime: string): RoleBindingRecord {
  return { uid, identityUid: identity, roleUid: role, createTime };
}

/**
 * Changes a binding's role or identity in place (its group is fixed: that is a new binding),
 * checked as a create would be. A PATCH that changes nothing leaves the binding as it is.
 */
export function updateRoleBinding(ctx: ServerContext, uid: string, body: unknown, mask: string[] | undefined, caller: string): RoleBindingRecord {
  const old = requireItem(ctx.store.roleBindings, uid, "role binding");
  const patch = parseBody(RoleBindingUpdate, body);
  const next = parseBody(RoleBindingCreate, applyPatch({ identityUid: old.identityUid, roleUid: old.roleUid }, patch, mask));
  if (next.identityUid === old.identityUid && next.roleUid === old.roleUid) return old;
  checkRefs(ctx, caller, parentOf(uid)!, next, uid);
  const b: RoleBindingRecord = { ...old, identityUid: next.identityUid, roleUid: next.roleUid };
  ctx.store.putBinding(b);
  return b;
}

/** Deletes a binding; one already gone is not an error. */
export function deleteRoleBinding(ctx: ServerContext, uid: string): void {
  ctx.store.removeBinding(uid);
}

/**
 * The wire shape: identity, group and role hydrated, each only as far as `caller` may read it
 * (a binding on a group may name an identity or role of an ancestor group the caller cannot
 * list; then only its uid shows). createTime only.
 */
export function renderRoleBinding(ctx: ServerContext, b: RoleBindingRecord, caller: string): Record<string, unknown> {
  const s = ctx.store;
  const may = (capability: string, uid: string) => {
    const home = parentOf(uid);
    return home !== undefined && ctx.authz.can(caller, capability, home);
  };
  const group = parentOf(b.uid)!;
  // A person belongs to no group: whoever sees the binding sees who it names.
  const person = s.identities.get(b.identityUid);
  const i = isPerson(person) ? person : may("identity.list", b.identityUid) ? s.identities.get(b.identityUid) : undefined;
  const signIn = isPerson(i) ? { subject: i.person.subject, issuer: i.person.issuer ?? ctx.urls.authUrl } : undefined;
  const g = ctx.authz.can(caller, "groups.list", group) ? s.groups.get(group) : undefined;
  const role = s.roles.get(b.roleUid);
  const r = role && (role.builtin || may("roles.list", role.uid)) ? role : undefined;
  return {
    uid: b.uid,
    identity: {
      uid: b.identityUid,
      name: i?.name ?? "",
      description: i?.description ?? "",
      subject: signIn?.subject ?? i?.claimMatch?.subject ?? i?.staticKeys?.subject ?? "",
      issuer: signIn?.issuer ?? i?.claimMatch?.issuer ?? i?.staticKeys?.issuer ?? "",
      email: i?.email ?? "",
    },
    group: { uid: group, name: g?.name ?? "", description: g?.description ?? "" },
    role: { uid: b.roleUid, name: r?.name ?? "", description: r?.description ?? "" },
    createTime: b.createTime,
  };
}
