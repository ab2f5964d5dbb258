import { isSelfOrAncestor, isUid, ROOT_UID, type CollectionName } from "../../api";
import { visible } from "../../api/text";
import { UsageError } from "../command";
import { EXPORTED_KINDS, type ExportedKind } from "../../api/kinds";
import { COLLECTIONS } from "../../api/collections";
import { WrongAnswerError, type IrvClient } from "../../client";
import type { OrgSnapshot } from "./snapshot";

/** The collections `irv export` reads, in the order it reports them: every kind it declares. */
export const EXPORTED: readonly ExportedKind[] = EXPORTED_KINDS;

/** Progress of one collection: how many items are read so far, of how many. */
export type Progress = (collection: CollectionName, read: number, total: number, done: boolean) => void;

/**
 * Reads the subtree of `groupUid` through the API client: the group, then every collection
 * scoped with `uidp.descendants_of` (read concurrently, page by page, reporting progress), and
 * the names of roles outside the subtree that bindings or identity providers refer to.
 */
export async function readOrg(client: IrvClient, groupUid: string, progress: Progress = () => {}): Promise<OrgSnapshot> {
  if (!isUid(groupUid)) throw new UsageError(`--group must be a group's uid, not ${JSON.stringify(visible(groupUid))}`);
  const root = await client.get("groups", groupUid);
  const scope = { "uidp.descendants_of": groupUid };
  // The exported group is referred to, not declared; built-in roles have root uids and belong to
  // the platform: referred to, never declared. Progress counts what is declared, as the summary
  // after it does (a listing's total less what it holds that is left out).
  const declared = (c: ExportedKind, x: { uid: string }) => !(c === "groups" && x.uid === groupUid) && !(c === "roles" && ROOT_UID.test(x.uid));
  const readAll = async (c: ExportedKind) => {
    const items = [];
    let left = 0;
    for await (const page of client.pages(c, scope)) {
      for (const x of page.items) {
        if (declared(c, inSubtree(c, groupUid, x))) items.push(x);
        else left++;
      }
      progress(c, items.length, Math.max(page.totalCount - left, items.length), !page.nextPageToken);
    }
    return [c, items] as const;
  };
  const items = Object.fromEntries(await Promise.all(EXPORTED.map(readAll))) as OrgSnapshot["items"];
  const known = new Set(items.roles.map((r) => r.uid));
  const externalRoles = new Map<string, string>();
  for (const b of items.roleBindings) if (!known.has(b.role.uid)) externalRoles.set(wellFormed(b.role.uid, "roleBindings"), b.role.name);
  for (const p of items.identityProviders) {
    if (!p.defaultRole || known.has(p.defaultRole) || externalRoles.has(wellFormed(p.defaultRole, "identityProviders"))) continue;
    const role = await client.get("roles", p.defaultRole).catch(() => undefined);
    externalRoles.set(p.defaultRole, role?.name ?? p.defaultRole);
  }

  return { apiUrl: client.apiUrl, root, items, externalRoles };
}

/**
 * `uid`, when it is one: uids from the server reach the generated program, its import file and
 * the commands `irv export` prints, so one that is not a uid stops the export.
 */
export function wellFormed(uid: unknown, c: CollectionName): string {
  if (typeof uid !== "string" || !isUid(uid))
    throw new WrongAnswerError(
      `GET ${COLLECTIONS[c].path}`,
      `the API sent ${JSON.stringify(typeof uid === "string" ? visible(uid) : uid)} where a uid belongs`,
    );
  return uid;
}

/** `x`, when its uid is well formed and inside the subtree of `groupUid` that was asked for. */
function inSubtree<T extends { uid: string }>(c: CollectionName, groupUid: string, x: T): T {
  if (!isSelfOrAncestor(groupUid, wellFormed(x.uid, c)))
    throw new WrongAnswerError(`GET ${COLLECTIONS[c].path}`, `the API listed ${x.uid}, outside the group ${groupUid} that was asked for`);
  return x;
}
