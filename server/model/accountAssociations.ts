/** Account associations: a group's links to cloud accounts. One per group; its uid is the group's. */
import { ACCOUNT_BLOCKS, AccountAssociationCreate, AccountAssociationUpdate } from "../../api/bodies";
import { timestamp, type ServerContext } from "../context";
import { alreadyExists, invalidArgument } from "../errors";
import { applyPatch, maskPaths } from "../masks";
import type { AccountAssociationRecord } from "../store";
import { parseBody } from "../validate";
import { changed, memberRefProblem, pick, requireGroup, requireItem } from "./common";

export const accountAssociationMaskPaths = maskPaths(AccountAssociationUpdate);

const SPEC_KEYS = ["name", "description", ...ACCOUNT_BLOCKS];

function record(base: { uid: string; createTime: string; updateTime: string }, input: AccountAssociationCreate): AccountAssociationRecord {
  const r: AccountAssociationRecord = { ...base, name: input.name, description: input.description ?? "" };
  for (const k of ACCOUNT_BLOCKS) if (input[k] !== undefined) (r as Record<string, unknown>)[k] = input[k];
  return r;
}

/** Refuses service bindings naming what `caller` may not list (as if it did not exist). */
function checkRefs(ctx: ServerContext, caller: string, input: AccountAssociationCreate): void {
  const bindings = (input.chainguard as { serviceBindings?: Record<string, string> } | undefined)?.serviceBindings ?? {};
  const violations = Object.entries(bindings).flatMap(([name, uid]) => {
    const problem = memberRefProblem(ctx, caller, uid);
    return problem ? [{ field: `chainguard.serviceBindings.${name}`, description: problem }] : [];
  });
  if (violations.length) throw invalidArgument(violations);
}

/** Creates the association of group `groupUid`; ALREADY_EXISTS when it has one. */
export function createAccountAssociation(ctx: ServerContext, groupUid: string, body: unknown, caller: string): AccountAssociationRecord {
  requireGroup(ctx, groupUid);
  const input = parseBody(AccountAssociationCreate, body);
  checkRefs(ctx, caller, input);
  if (ctx.store.accountAssociations.has(groupUid)) throw alreadyExists(`group ${groupUid} already has an account association; update it instead`);
  const now = timestamp(ctx);
  const r = record({ uid: groupUid, createTime: now, updateTime: now }, input);
  ctx.store.accountAssociations.insert(r);
  return r;
}

/** Updates an association; a block named in the mask but absent from the body is removed. */
export function updateAccountAssociation(ctx: ServerContext, uid: string, body: unknown, mask: string[] | undefined, caller: string): AccountAssociationRecord {
  const old = requireItem(ctx.store.accountAssociations, uid, "account association");
  const patch = parseBody(AccountAssociationUpdate, body);
  const next = parseBody(AccountAssociationCreate, applyPatch(pick(old, SPEC_KEYS), patch, mask));
  // Only what this update names is checked: bindings kept as they were passed when written.
  if (patch.chainguard) checkRefs(ctx, caller, { ...next, chainguard: patch.chainguard } as AccountAssociationCreate);
  const r = record({ uid, createTime: old.createTime, updateTime: timestamp(ctx) }, next);
  if (!changed(old, r)) return old;
  ctx.store.accountAssociations.replace(r);
  return r;
}

/** Deletes an association; one already gone is not an error. */
export function deleteAccountAssociation(ctx: ServerContext, uid: string): void {
  ctx.store.accountAssociations.remove(uid);
}
