/** Role bindings: an identity holds a role on a group (and everything below it). */
import { RoleBindingCreate, RoleBindingUpdate } from "../../api/inputs";
import { parentOf } from "../../api/uid";
import { timestamp, type ServerContext } from "../context";
import { alreadyExists, invalidField } from "../errors";
import { applyPatch, maskPaths } from "../masks";
import type { RoleBindingRecord } from "../store";
import { parseBody } from "../validate";
import { freshUid, requireGroup, requireItem, usableRole } from "./common";

export const roleBindingMaskPaths = maskPaths(RoleBindingUpdate);

/** Checks a binding's references, refusing a duplicate of another binding on the same group. */
function checkRefs(ctx: ServerContext, group: string, input: RoleBindingCreate, self?: string): void {
  if (!ctx.store.identities.has(input.identityUid))
    throw invalidField("identityUid", `identity ${input.identityUid} does not exist`);
  usableRole(ctx, input.roleUid, group, "roleUid");
  const twin = ctx.store
    .bindingsOf(input.identityUid)
    .find((b) => b.uid !== self && b.roleUid === input.roleUid && parentOf(b.uid) === group);
  if (twin) throw alreadyExists(`identity ${input.identityUid} already holds role ${input.roleUid} on group ${group} (binding ${twin.uid})`);
}

/** Binds a role to an identity on group `groupUid`. */
export function createRoleBinding(ctx: ServerContext, groupUid: string, body: unknown): RoleBindingRecord {
  requireGroup(ctx, groupUid);
  const input = parseBody(RoleBindingCreate, body);
  checkRefs(ctx, groupUid, input);
  const b: RoleBindingRecord = {
    uid: freshUid(ctx.store.roleBindings, groupUid),
    identityUid: input.identityUid,
    roleUid: input.roleUid,
    createTime: timestamp(ctx),
  };
  ctx.store.putBinding(b);
  return b;
}

/** Changes a binding's role or identity in place (its group is fixed: that is a new binding). */
export function updateRoleBinding(ctx: ServerContext, uid: string, body: unknown, mask?: string[]): RoleBindingRecord {
  const old = requireItem(ctx.store.roleBindings, uid, "role binding");
  const patch = parseBody(RoleBindingUpdate, body);
  const next = parseBody(RoleBindingCreate, applyPatch({ identityUid: old.identityUid, roleUid: old.roleUid }, patch, mask));
  checkRefs(ctx, parentOf(uid)!, next, uid);
  const b: RoleBindingRecord = { ...old, identityUid: next.identityUid, roleUid: next.roleUid };
  ctx.store.putBinding(b);
  return b;
}

/** Deletes a binding; one already gone is not an error. */
export function deleteRoleBinding(ctx: ServerContext, uid: string): void {
  ctx.store.removeBinding(uid);
}

/** The wire shape: identity, group and role hydrated; createTime only. */
export function renderRoleBinding(ctx: ServerContext, b: RoleBindingRecord): Record<string, unknown> {
  const s = ctx.store;
  const i = s.identities.get(b.identityUid);
  const g = s.groups.get(parentOf(b.uid)!);
  const r = s.roles.get(b.roleUid);
  return {
    uid: b.uid,
    identity: {
      uid: b.identityUid,
      name: i?.name ?? "",
      description: i?.description ?? "",
      subject: i?.claimMatch?.subject ?? i?.staticKeys?.subject ?? "",
      issuer: i?.claimMatch?.issuer ?? i?.staticKeys?.issuer ?? "",
      email: i?.email ?? "",
    },
    group: { uid: parentOf(b.uid), name: g?.name ?? "", description: g?.description ?? "" },
    role: { uid: b.roleUid, name: r?.name ?? "", description: r?.description ?? "" },
    createTime: b.createTime,
  };
}
