import { ROOT_UID, type CollectionName } from "../../api";
import { EXPORTED_KINDS, type ExportedKind } from "../../api/kinds";
import type { IrvClient } from "../../client";
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
  const root = await client.get("groups", groupUid);
  const scope = { "uidp.descendants_of": groupUid };
  const readAll = async (c: ExportedKind) => {
    const items = [];
    let token: string | undefined;
    do {
      const page = await client.page(c, scope, token);
      items.push(...page.items);
      token = page.nextPageToken;
      progress(c, items.length, Math.max(page.totalCount, items.length), !token);
    } while (token);
    return [c, items] as const;
  };
  const items = Object.fromEntries(await Promise.all(EXPORTED.map(readAll))) as OrgSnapshot["items"];

  // The exported group is referred to, not declared; built-in roles have root uids and belong to
  // the platform: referred to, never declared.
  items.groups = items.groups.filter((g) => g.uid !== groupUid);
  items.roles = items.roles.filter((r) => !ROOT_UID.test(r.uid));
  const known = new Set(items.roles.map((r) => r.uid));
  const externalRoles = new Map<string, string>();
  for (const b of items.roleBindings) if (!known.has(b.role.uid)) externalRoles.set(b.role.uid, b.role.name);
  for (const p of items.identityProviders) {
    if (!p.defaultRole || known.has(p.defaultRole) || externalRoles.has(p.defaultRole)) continue;
    const role = await client.get("roles", p.defaultRole).catch(() => undefined);
    externalRoles.set(p.defaultRole, role?.name ?? p.defaultRole);
  }

  return { apiUrl: client.apiUrl, root, items, externalRoles };
}
