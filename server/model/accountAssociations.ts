/** Account associations: a group's links to cloud accounts. One per group; its uid is the group's. */
import { ACCOUNT_BLOCKS, AccountAssociationCreate, AccountAssociationUpdate } from "../../api/bodies";
import { timestamp, type ServerContext } from "../context";
import { alreadyExists } from "../errors";
import { applyPatch, maskPaths } from "../masks";
import type { AccountAssociationRecord } from "../store";
import { parseBody } from "../validate";
import { changed, pick, requireGroup, requireItem } from "./common";

export const accountAssociationMaskPaths = maskPaths(AccountAssociationUpdate);

const SPEC_KEYS = ["name", "description", ...ACCOUNT_BLOCKS];

function record(base: { uid: string; createTime: string; updateTime: string }, input: AccountAssociationCreate): AccountAssociationRecord {
  const r: AccountAssociationRecord = { ...base, name: input.name, description: input.description ?? "" };
  for (const k of ACCOUNT_BLOCKS) if (input[k] !== undefined) (r as Record<string, unknown>)[k] = input[k];
  return r;
}

/** Creates the association of group `groupUid`; ALREADY_EXISTS when it has one. */
export function createAccountAssociation(ctx: ServerContext, groupUid: string, body: unknown): AccountAssociationRecord {
  requireGroup(ctx, groupUid);
  const input = parseBody(AccountAssociationCreate, body);
  if (ctx.store.accountAssociations.has(groupUid))
    throw alreadyExists(`group ${groupUid} already has an account association; update it instead`);
  const now = timestamp(ctx);
  const r = record({ uid: groupUid, createTime: now, updateTime: now }, input);
  ctx.store.accountAssociations.insert(r);
  return r;
}

/** Updates an association; a block named in the mask but absent from the body is removed. */
export function updateAccountAssociation(ctx: ServerContext, uid: string, body: unknown, mask?: string[]): AccountAssociationRecord {
  const old = requireItem(ctx.store.accountAssociations, uid, "account association");
  const patch = parseBody(AccountAssociationUpdate, body);
  const next = parseBody(AccountAssociationCreate, applyPatch(pick(old, SPEC_KEYS), patch, mask));
  const r = record({ uid, createTime: old.createTime, updateTime: timestamp(ctx) }, next);
  if (!changed(old, r)) return old;
  ctx.store.accountAssociations.replace(r);
  return r;
}

/** Deletes an association; one already gone is not an error. */
export function deleteAccountAssociation(ctx: ServerContext, uid: string): void {
  ctx.store.accountAssociations.remove(uid);
}
