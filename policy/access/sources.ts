/**
 * Where an organization's access is read from: a stack's state (offline, with the roles it names
 * looked up when the API is at hand) or the live API, listed over a subtree in pages with the
 * same settings as the provider. Nothing here reads one resource per request, but for the probes
 * that tell which lists the caller may not make.
 */
import { definitionOf, definitionOfTypeToken, fieldEntries, pluralOf, valueAt, type Kind } from "../../api/kinds";
import { PAGE_SIZE_MAX } from "../../api/collections";
import { isSelfOrAncestor, parentOf } from "../../api/uid";
import { NotFoundError, PermissionDeniedError, type IrvClient } from "../../client";
import { PageTokens } from "../../client/paging";
import { commonAncestor } from "../../provider/resources/reads";
import { orgOfItems, type Known, type ResourceItem } from "./items";
import type { Org } from "./org";

const parentField = (kind: Kind): string => definitionOf(kind).parentField;

/** The kinds that grant access or say who is granted it. */
export const ACCESS_KINDS: readonly Kind[] = ["groups", "roles", "identities", "roleBindings", "groupInvites", "identityProviders"];

/** One resource of a stack's state, as `pulumi stack export` gives it. */
export interface StateResource {
  urn: string;
  type: string;
  id?: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
}

/** The logical name in a URN (its last segment). */
export function nameOfUrn(urn: string): string {
  return urn.slice(urn.lastIndexOf("::") + 2);
}

/** The irv resources of a stack's state as items, keyed by URN. */
export function itemsOfState(resources: readonly StateResource[]): ResourceItem[] {
  const out: ResourceItem[] = [];
  for (const r of resources) {
    const kind = definitionOfTypeToken(r.type)?.kind;
    if (!kind || !ACCESS_KINDS.includes(kind)) continue;
    out.push({ kind, key: r.urn, label: nameOfUrn(r.urn), uid: r.id || undefined, fields: { ...r.inputs, ...r.outputs } });
  }
  return out;
}

/** The access a stack's state records. */
export function orgOfState(resources: readonly StateResource[], known: Known = {}): Org {
  return orgOfItems(itemsOfState(resources), known);
}

/** Lists every access kind under `scopes` (the caller's whole view when there are none), in pages (see collectUnder). */
export async function itemsOfApi(client: IrvClient, scopes: readonly string[] = []): Promise<ResourceItem[]> {
  const lists = await Promise.all(
    ACCESS_KINDS.map(async (kind) => {
      const items = await collectUnder(client, kind, scopes);
      return items.map((f) => itemOfApi(kind, f));
    }),
  );
  // A listing under a scope does not hold the scope's ancestors: the roles bound there (the
  // built-in roles live at the root) are listed once, without one.
  if (scopes.length) {
    const seen = new Set(lists.flat().map((i) => i.uid));
    const roles = await client.collect("roles", {});
    lists.push(roles.filter((r) => !seen.has(r.uid)).map((f) => itemOfApi("roles", f)));
  }
  return lists.flat();
}

/**
 * `kind`'s items under any of `scopes` (all the caller sees when there are none). One listing per
 * scope costs a request each at least; when the scopes share an ancestor whose listing takes fewer
 * pages than there are scopes (its first page tells its size), that listing is walked instead and
 * what lies outside the scopes dropped: a stack's 60 teams under one folder cost a page per kind,
 * not 60 requests. At worst, that first page is the one request more.
 */
async function collectUnder(client: IrvClient, kind: Kind, scopes: readonly string[]): Promise<{ uid: string }[]> {
  const perScope = async () =>
    (await Promise.all((scopes.length ? scopes : [undefined]).map((s) => client.collect(kind, s ? { "uidp.descendants_of": s } : {})))).flat();
  const top = scopes.length > 1 ? scopes.slice(1).reduce<string | undefined>((a, s) => a && commonAncestor(a, s), scopes[0]) : undefined;
  if (top === undefined) return perScope();
  const q = { "uidp.descendants_of": top, orderBy: "uid" };
  const first = await client.page(kind, q);
  if (!Number.isFinite(first.totalCount) || Math.ceil(first.totalCount / PAGE_SIZE_MAX) >= scopes.length) return perScope();
  const items: { uid: string }[] = [...first.items];
  const tokens = new PageTokens(`GET ${kind} under ${top}`);
  for (let next = tokens.next(first.nextPageToken); next;) {
    const p = await client.page(kind, q, next);
    items.push(...p.items);
    next = tokens.next(p.nextPageToken);
  }
  return items.filter((i) => scopes.some((s) => isSelfOrAncestor(s, i.uid)));
}

/**
 * An item as the API returns it: its parent is in its uid, not a field, and a binding names its
 * identity and role by the objects it hydrates.
 */
function itemOfApi(kind: Kind, item: { uid: string }): ResourceItem {
  const f: Record<string, unknown> = { ...item };
  const uid = item.uid;
  const fields: Record<string, unknown> = { [parentField(kind)]: parentOf(uid), ...f };
  // A field the item carries elsewhere (a binding's identityUid, in its hydrated identity): where its definition says.
  for (const [name, d] of fieldEntries(definitionOf(kind).fields)) if (d.readAt) fields[name] = f[name] ?? valueAt(f, d.readAt);
  return { kind, key: uid, uid, label: typeof f.name === "string" && f.name ? f.name : uid, fields };
}

/** A uid no item has (16 zero hex digits below `group`): its read answers whether `kind` may be listed there. */
const probeUid = (group: string) => `${group}/0000000000000000`;

/**
 * Which of `kinds` the caller may not list on each of `groups`, one sentence each, found by reading
 * an item that cannot exist: not found means the list is allowed there, permission denied that
 * it is not. Nothing is guessed about what such a list would hold.
 */
export async function unlistable(
  client: IrvClient,
  groups: readonly { uid: string; name: string }[],
  kinds: readonly Kind[] = ["roleBindings", "roles", "identities"],
): Promise<string[]> {
  const out: string[] = [];
  for (const g of groups) {
    const denied: string[] = [];
    for (const kind of kinds) {
      try {
        await client.get(kind, probeUid(g.uid));
      } catch (e) {
        if (e instanceof PermissionDeniedError) denied.push(pluralOf(definitionOf(kind).label));
        else if (!(e instanceof NotFoundError)) throw e;
      }
    }
    if (denied.length)
      out.push(`the ${denied.join(", ")} on group ${g.name === g.uid ? g.uid : `${g.name} (${g.uid})`}: these credentials may not list them there`);
  }
  return out;
}
