/** Group invites: a code that lets someone join a group with a role. No update: replace instead. */
import { createHash, randomBytes } from "node:crypto";
import { GroupInviteCreate } from "../../api/bodies";
import { expiresAt, lifetimeIssues } from "../../api/kinds/groupInvites";
import type { ServerContext } from "../context";
import { invalidField } from "../errors";
import type { GroupInviteRecord } from "../store";
import { parseBody } from "../validate";
import { freshUid, grantableRole, requireGroup, requireItem } from "./common";

/** When the invite expires, from its lifetime inputs (or the default), within the limits. */
function expiration(now: number, input: GroupInviteCreate): { expirationTime: string } {
  for (const issue of lifetimeIssues(input, now)) throw invalidField(issue.path.join("."), issue.message);
  return expiresAt(input, now);
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

/** The wire shape: never the code (create adds it to its own response). */
export function renderGroupInvite(r: GroupInviteRecord): Record<string, unknown> {
  const { codeHash: _c, ...wire } = r;
  return wire;
}
