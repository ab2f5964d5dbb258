/** Groups: the hierarchy every other resource hangs from. */
import { GroupCreate, GroupUpdate } from "../../api/bodies";
import { groups, KINDS, pluralOf, readDefaults, type FieldDefinition } from "../../api/kinds";
import { timestamp, type ServerContext } from "../context";
import { failedPrecondition, notFound, permissionDenied } from "../errors";
import { applyPatch, maskPaths } from "../masks";
import type { Collection, GroupRecord, Keyed } from "../store";
import { parseBody } from "../validate";
import { changed, freshUid, pick, requireGroup, requireItem } from "./common";

/**
 * `verified` may be named too: the platform's clients name it in every group update (the
 * Terraform provider's mask is `name,description,verified`), while only the platform's staff
 * change it (see verifiedAfter).
 */
export const groupMaskPaths = new Set([...maskPaths(GroupUpdate), "verified"]);

/**
 * The `verified` an update asks for: under a mask naming it, the body's (absent is false, as a
 * masked field absent from the body is cleared); without a mask, the body's if present. Only the
 * platform's staff verify or unverify a group, so asking for a change is refused; asking for
 * what it is changes nothing.
 */
function checkVerified(g: GroupRecord, body: unknown, mask?: string[]): void {
  const given = typeof body === "object" && body !== null ? (body as { verified?: unknown }).verified : undefined;
  const wanted = mask ? (mask.includes("verified") ? (given ?? false) : g.verified) : (given ?? g.verified);
  if (wanted !== g.verified) throw permissionDenied(`only the platform's staff ${g.verified ? "unverify" : "verify"} a group`);
}

/**
 * How deep groups nest below the organization. Every request checks a caller's bindings along a
 * uid's ancestors, and every uid below repeats its parent's: the cost of both grows with depth,
 * so it is bounded (the platform documents no limit; real hierarchies are a handful deep).
 */
export const GROUP_DEPTH_MAX = 32;

/** Creates a group under `parentUid`. */
export function createGroup(ctx: ServerContext, parentUid: string, body: unknown): GroupRecord {
  requireGroup(ctx, parentUid);
  if (parentUid.split("/").length > GROUP_DEPTH_MAX)
    throw failedPrecondition(`groups nest at most ${GROUP_DEPTH_MAX} deep below the organization, and ${parentUid} is that deep already`, [
      { type: "DEPTH", subject: parentUid, description: `at most ${GROUP_DEPTH_MAX} levels of groups below the organization` },
    ]);
  const input = parseBody(GroupCreate, body);
  const now = timestamp(ctx);
  const g = groupRecord({
    uid: freshUid(ctx.store.groups, parentUid),
    name: input.name,
    description: input.description ?? "",
    createTime: now,
    updateTime: now,
  });
  ctx.store.groups.insert(g);
  return g;
}

/**
 * A new group's record: what is given, and the API's defaults for the rest (api/kinds/groups).
 * irv-server's organization is a customer's, ready to use; a subgroup has its root's kind and
 * status, so every group has these.
 */
export function groupRecord(g: Pick<GroupRecord, "uid" | "name" | "description" | "createTime" | "updateTime">): GroupRecord {
  return { ...(readDefaults(groups) as Omit<GroupRecord, keyof typeof g>), kind: "ORG_KIND_CUSTOMER", status: "ORG_STATUS_READY", ...g };
}

/** Changes a group's name and description. */
export function updateGroup(ctx: ServerContext, uid: string, body: unknown, mask?: string[]): GroupRecord {
  const g = requireItem(ctx.store.groups, uid, "group");
  checkVerified(g, body, mask);
  const { verified: _verified, ...rest } = typeof body === "object" && body !== null ? (body as Record<string, unknown>) : {};
  const patch = parseBody(GroupUpdate, typeof body === "object" && body !== null ? rest : body);
  const next = parseBody(
    GroupCreate,
    applyPatch(
      pick(g, ["name", "description"]),
      patch,
      mask?.filter((p) => p !== "verified"),
    ),
  );
  const updated: GroupRecord = { ...g, name: next.name, description: next.description ?? "", updateTime: timestamp(ctx) };
  if (!changed(g, updated)) return g;
  ctx.store.groups.replace(updated);
  return updated;
}

/**
 * What can hold a group up: every kind's items under it (repos included: a kind like any other)
 * and its advisories, with words for the RESOURCE_NOT_EMPTY description and the capability that
 * lists them.
 */
function childKinds(ctx: ServerContext): [{ childrenOf(uid: string): unknown[] }, string, string, string][] {
  const s = ctx.store;
  return [
    ...KINDS.map((d) => {
      // A kind whose parent is of its own kind (a group's): "child group".
      const one = (d.fields as Record<string, FieldDefinition>)[d.parentField]?.refersTo === d.kind ? `child ${d.label}` : d.label;
      return [s.collection(d.kind), one, pluralOf(one), `${d.capability}.list`] as [Collection<Keyed>, string, string, string];
    }),
    [s.advisories, "advisory", "advisories", "advisories.list"],
  ];
}

/** Deletes an empty group; FAILED_PRECONDITION RESOURCE_NOT_EMPTY naming what it still holds. */
export function deleteGroup(ctx: ServerContext, uid: string, caller: string): void {
  if (!ctx.store.groups.has(uid)) throw notFound(`group ${uid}`);
  // The refusal counts only what the caller may list: the rest is "contents you may not list",
  // never a count that tells what is there.
  const may = (capability: string) => ctx.authz.can(caller, capability, uid);
  const held: string[] = [];
  let unseen = false;
  for (const [coll, one, many, list] of childKinds(ctx)) {
    const n = coll.childrenOf(uid).length;
    if (n > 0 && may(list)) held.push(`${n} ${n === 1 ? one : many}`);
    else if (n > 0) unseen = true;
  }
  if (ctx.store.accountAssociations.has(uid)) {
    if (may("account_associations.list")) held.push("1 account association");
    else unseen = true;
  }
  if (unseen) held.push("contents you may not list");
  if (held.length > 0)
    throw failedPrecondition(
      `group ${uid} is not empty: it has ${held.join(", ")}; delete them first`,
      held.map((h) => ({ type: "RESOURCE_NOT_EMPTY", subject: `groups/${uid}`, description: `group has ${h}` })),
    );
  ctx.store.groups.remove(uid);
}
