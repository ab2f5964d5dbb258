/** Roles: the built-in ones at the root (read-only, stable uids) and custom roles in groups. */
import { BUILTIN_ROLES, capabilityEnum } from "../../api/capabilities";
import { builtinRoleUid } from "../../api/builtin-roles";
import { isObject } from "../../api/guards";
import { wireCapabilities } from "../../api/fields";
import { RoleCreate, RoleUpdate } from "../../api/bodies";
import { parentOf } from "../../api/uid";
import { timestamp, type ServerContext } from "../context";
import { failedPrecondition, notFound, permissionDenied } from "../errors";
import { applyPatch, maskPaths } from "../masks";
import type { RoleRecord } from "../store";
import { parseBody } from "../validate";
import { changed, freshUid, pick, requireGroup } from "./common";

export const roleMaskPaths = maskPaths(RoleUpdate);

/**
 * A role body as the API takes it (capabilities by enum name, `CAP_IAM_GROUPS_LIST`) with its
 * capabilities as the names the model keeps (`groups.list`); a friendly name on the wire is
 * refused, as the platform's gateway refuses what is no enum name.
 */
function fromWire(body: unknown): unknown {
  if (!isObject(body) || !Array.isArray(body.capabilities)) return body;
  return { ...body, capabilities: parseBody(wireCapabilities(), body.capabilities, "capabilities") };
}

/** The stable uid of a built-in role: sha1 of its name (40 hex), the same on every server (api/builtin-roles.ts). */
export { builtinRoleUid };

/** When the built-in roles were "created": fixed, so they compare equal across restarts. */
const BUILTIN_TIME = "2024-01-01T00:00:00.000Z";

/** The built-in role records. */
export function builtinRoles(): RoleRecord[] {
  return Object.entries(BUILTIN_ROLES).map(([name, r]) => ({
    uid: builtinRoleUid(name),
    name,
    description: r.description,
    capabilities: [...r.capabilities],
    createTime: BUILTIN_TIME,
    updateTime: BUILTIN_TIME,
    builtin: true,
  }));
}

/** A custom role, or PERMISSION_DENIED for a built-in one, or NOT_FOUND. */
function customRole(ctx: ServerContext, uid: string): RoleRecord {
  const r = ctx.store.roles.get(uid);
  if (!r) throw notFound(`role ${uid}`);
  if (r.builtin) throw permissionDenied(`role ${r.name} is built in: it cannot be changed or deleted`);
  return r;
}

/**
 * Creates a custom role in group `groupUid`. Its capabilities must all be held by the caller on
 * that group: a role is a grant waiting to be bound, so nobody defines one stronger than itself.
 */
export function createRole(ctx: ServerContext, groupUid: string, body: unknown, caller: string): RoleRecord {
  requireGroup(ctx, groupUid);
  const input = parseBody(RoleCreate, fromWire(body));
  ctx.authz.requireAll(caller, input.capabilities, groupUid, `defining role ${input.name}`);
  const now = timestamp(ctx);
  const r: RoleRecord = {
    uid: freshUid(ctx.store.roles, groupUid),
    name: input.name,
    description: input.description ?? "",
    capabilities: [...new Set(input.capabilities)].sort(),
    createTime: now,
    updateTime: now,
    builtin: false,
  };
  ctx.store.roles.insert(r);
  return r;
}

/** Updates a custom role; capabilities it gains must be held by the caller on the role's group. */
export function updateRole(ctx: ServerContext, uid: string, body: unknown, mask: string[] | undefined, caller: string): RoleRecord {
  const old = customRole(ctx, uid);
  const patch = parseBody(RoleUpdate, fromWire(body));
  const next = parseBody(RoleCreate, applyPatch(pick(old, ["name", "description", "capabilities"]), patch, mask));
  const r: RoleRecord = {
    ...old,
    name: next.name,
    description: next.description ?? "",
    capabilities: [...new Set(next.capabilities)].sort(),
    updateTime: timestamp(ctx),
  };
  if (!changed(old, r)) return old;
  const gained = r.capabilities.filter((c) => !old.capabilities.includes(c));
  ctx.authz.requireAll(caller, gained, parentOf(uid)!, `adding capabilities to role ${old.name}`);
  ctx.store.roles.replace(r);
  return r;
}

/**
 * Deletes a custom role that nothing names: no role binding, no identity provider's default role
 * and no group invite (any of them would be left pointing at nothing).
 */
export function deleteRole(ctx: ServerContext, uid: string): void {
  const r = customRole(ctx, uid);
  const s = ctx.store;
  const users: [number, string, string][] = [
    [s.roleBindings.all().filter((b) => b.roleUid === uid).length, "is bound by", "role binding"],
    [s.identityProviders.all().filter((p) => p.defaultRole === uid).length, "is the default role of", "identity provider"],
    [s.groupInvites.all().filter((i) => i.roleUid === uid).length, "is granted by", "group invite"],
  ];
  const held = users.filter(([n]) => n > 0).map(([n, verb, kind]) => `role ${verb} ${n} ${kind}${n === 1 ? "" : "s"}`);
  if (held.length > 0)
    throw failedPrecondition(
      `role ${uid} is still in use: ${held.join(", ")}; delete or change them first`,
      held.map((description) => ({ type: "RESOURCE_IN_USE", subject: `roles/${uid}`, description })),
    );
  ctx.store.roles.remove(r.uid);
}

/** The wire shape: capabilities by enum name. */
export function renderRole(r: RoleRecord): Record<string, unknown> {
  const { builtin: _b, ...wire } = r;
  return { ...wire, capabilities: r.capabilities.map(capabilityEnum) };
}
