/** Group invites: a code that lets someone join a group with a role. No update: replace instead. */
import { createHash, randomBytes } from "node:crypto";
import { GroupInviteCreate } from "../../api/bodies";
import { capabilityEnum } from "../../api/capabilities";
import { expiresAt, lifetimeIssues } from "../../api/kinds/groupInvites";
import { parentOf } from "../../api/uid";
import type { ServerContext } from "../context";
import { invalidField } from "../errors";
import type { GroupInviteRecord } from "../store";
import { parseBody } from "../validate";
import { freshUid, grantableRole, requireGroup, requireItem } from "./common";

/** When the invite expires: its required `ttl` from now, within the limits. */
function expiration(now: number, input: GroupInviteCreate): { expirationTime: string } {
  for (const issue of lifetimeIssues(input)) throw invalidField(issue.path.join("."), issue.message);
  return expiresAt(input.ttl, now);
}

/** Creates an invite; the result carries the code, which no later read returns. */
export function createGroupInvite(ctx: ServerContext, groupUid: string, body: unknown, caller: string): { record: GroupInviteRecord; code: string } {
  requireGroup(ctx, groupUid);
  const input = parseBody(GroupInviteCreate, body);
  // Whoever redeems the code gets the role: the creator may hand out only what it holds.
  grantableRole(ctx, caller, input.roleUid, groupUid, "roleUid");
  const now = ctx.clock();
  const code = randomBytes(24).toString("base64url");
  const r: GroupInviteRecord = {
    uid: freshUid(ctx.store.groupInvites, groupUid),
    roleUid: input.roleUid,
    email: input.email ?? "",
    singleUse: input.singleUse ?? false,
    ...expiration(now, input),
    keyId: randomBytes(8).toString("hex"),
    codeHash: createHash("sha256").update(code).digest("hex"),
    createTime: new Date(now).toISOString(),
  };
  ctx.store.groupInvites.insert(r);
  return { record: r, code };
}

/** Deletes an invite. */
export function deleteGroupInvite(ctx: ServerContext, uid: string): void {
  requireItem(ctx.store.groupInvites, uid, "group invite");
  ctx.store.groupInvites.remove(uid);
}

/**
 * The wire shape, for `caller`: never the code (create adds it to its own response), and the role
 * hydrated (absent once it is gone, or when it is a custom role the caller may not read).
 */
export function renderGroupInvite(ctx: ServerContext, r: GroupInviteRecord, caller: string): Record<string, unknown> {
  const { codeHash: _c, ...wire } = r;
  const role = ctx.store.roles.get(r.roleUid);
  const home = role && parentOf(role.uid);
  const visible = role && (role.builtin || (home !== undefined && ctx.authz.can(caller, "roles.list", home)));
  if (!visible) return wire;
  return { ...wire, role: { uid: role.uid, name: role.name, description: role.description, capabilities: role.capabilities.map(capabilityEnum) } };
}
