/** Roles: the built-in ones at the root (read-only, stable uids) and custom roles in groups. */
import { createHash } from "node:crypto";
import { BUILTIN_ROLES } from "../../api/capabilities";
import { RoleCreate, RoleUpdate } from "../../api/inputs";
import { timestamp, type ServerContext } from "../context";
import { failedPrecondition, notFound, permissionDenied } from "../errors";
import { applyPatch, maskPaths } from "../masks";
import type { RoleRecord } from "../store";
import { parseBody } from "../validate";
import { freshUid, pick, requireGroup } from "./common";

export const roleMaskPaths = maskPaths(RoleUpdate);

/** The stable uid of a built-in role: sha1 of its name (40 hex), the same on every server. */
export function builtinRoleUid(name: string): string {
  return createHash("sha1").update(name).digest("hex");
}

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

/** Creates a custom role in group `groupUid`. */
export function createRole(ctx: ServerContext, groupUid: string, body: unknown): RoleRecord {
  requireGroup(ctx, groupUid);
  const input = parseBody(RoleCreate, body);
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

/** Updates a custom role. */
export function updateRole(ctx: ServerContext, uid: string, body: unknown, mask?: string[]): RoleRecord {
  const old = customRole(ctx, uid);
  const patch = parseBody(RoleUpdate, body);
  const next = parseBody(RoleCreate, applyPatch(pick(old, ["name", "description", "capabilities"]), patch, mask));
  const r: RoleRecord = {
    ...old,
    name: next.name,
    description: next.description ?? "",
    capabilities: [...new Set(next.capabilities)].sort(),
    updateTime: timestamp(ctx),
  };
  ctx.store.roles.replace(r);
  return r;
}

/** Deletes a custom role that no binding uses. */
export function deleteRole(ctx: ServerContext, uid: string): void {
  const r = customRole(ctx, uid);
  const bound = ctx.store.roleBindings.all().filter((b) => b.roleUid === uid).length;
  if (bound > 0)
    throw failedPrecondition(`role ${uid} is still bound by ${bound} role binding(s); delete them first`, [
      { type: "RESOURCE_IN_USE", subject: `roles/${uid}`, description: `role is bound by ${bound} role binding${bound === 1 ? "" : "s"}` },
    ]);
  ctx.store.roles.remove(r.uid);
}

/** The wire shape. */
export function renderRole(r: RoleRecord): Record<string, unknown> {
  const { builtin: _b, ...wire } = r;
  return wire;
}
