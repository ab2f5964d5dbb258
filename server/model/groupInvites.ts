/** Group invites: a code that lets someone join a group with a role. No update: replace instead. */
import { createHash, randomBytes } from "node:crypto";
import { GroupInviteCreate, INVITE_DEFAULT_TTL_SECONDS, INVITE_MAX_TTL_SECONDS } from "../../api/bodies";
import type { ServerContext } from "../context";
import { invalidField } from "../errors";
import type { GroupInviteRecord } from "../store";
import { parseBody } from "../validate";
import { freshUid, grantableRole, requireGroup, requireItem } from "./common";

/** When the invite expires, from `ttl` or `expirationTime` (or the default), within the limits. */
function expiration(now: number, input: GroupInviteCreate): string {
  const max = now + INVITE_MAX_TTL_SECONDS * 1000;
  if (input.expirationTime !== undefined) {
    const t = Date.parse(input.expirationTime);
    if (t <= now) throw invalidField("expirationTime", "must be in the future");
    if (t > max) throw invalidField("expirationTime", `must be at most ${INVITE_MAX_TTL_SECONDS}s ahead`);
    return new Date(t).toISOString();
  }
  const seconds = input.ttl !== undefined ? Number(input.ttl.slice(0, -1)) : INVITE_DEFAULT_TTL_SECONDS;
  if (seconds <= 0) throw invalidField("ttl", "must be positive");
  if (seconds > INVITE_MAX_TTL_SECONDS) throw invalidField("ttl", `must be at most ${INVITE_MAX_TTL_SECONDS}s`);
  // At least 1ms: a positive ttl below a millisecond must not make an invite that is already expired.
  return new Date(now + Math.max(1, Math.round(seconds * 1000))).toISOString();
}

/** Creates an invite; the result carries the code, which no later read returns. */
export function createGroupInvite(ctx: ServerContext, groupUid: string, body: unknown, caller: string): { record: GroupInviteRecord; code: string } {
  requireGroup(ctx, groupUid);
  const input = parseBody(GroupInviteCreate, body);
  // Whoever redeems the code gets the role: the creator may hand out only what it holds.
  grantableRole(ctx, caller, input.roleUid, groupUid, "roleUid");
  const now = ctx.clock();
  const expirationTime = expiration(now, input);
  const code = randomBytes(24).toString("base64url");
  const r: GroupInviteRecord = {
    uid: freshUid(ctx.store.groupInvites, groupUid),
    roleUid: input.roleUid,
    email: input.email ?? "",
    singleUse: input.singleUse ?? false,
    expirationTime,
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
