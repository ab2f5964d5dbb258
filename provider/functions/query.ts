import type { IrvClient, ListQuery } from "../../client/client";
import { listArgs, type ListArgs } from "../../api/functions";

/**
 * Where a function gets its client: the program's settings for the TypeScript SDK's `getX`, the
 * configured provider's for the resource plugin's Invoke. `anonymous` (registry reads): with no
 * credentials configured, read without a token, which the API allows for public repos.
 */
export type ClientSource = (o?: { anonymous?: boolean }) => IrvClient;

/** The List query for `args` plus the collection filters in `own`. */
export function listQuery(args: ListArgs, own: Record<string, string | string[] | boolean | undefined> = {}): ListQuery {
  const q: ListQuery = { ...args.filters };
  if (args.descendantsOf) q["uidp.descendants_of"] = args.descendantsOf;
  if (args.childrenOf) q["uidp.children_of"] = args.childrenOf;
  if (args.ancestorsOf) q["uidp.ancestors_of"] = args.ancestorsOf;
  if (args.inRoot !== undefined) q["uidp.in_root"] = args.inRoot;
  if (args.ids?.length) q["uidp.ids"] = args.ids;
  if (args.orderBy) q.orderBy = args.orderBy;
  for (const [k, v] of Object.entries(own)) if (v !== undefined && !(Array.isArray(v) && v.length === 0)) q[k] = v;
  return q;
}

/**
 * The arguments of a list function that are its List's own filters: every one but the scope, order
 * and paging arguments (and `except`). Their names are the filters' JSON names, which the API
 * takes as it takes their proto names.
 */
export function ownFilters<A extends ListArgs>(args: A, ...except: (keyof A)[]): Record<string, string | string[] | boolean | undefined> {
  const skip = new Set<PropertyKey>([...Object.keys(listArgs), ...except]);
  return Object.fromEntries(Object.entries(args).filter(([k]) => !skip.has(k))) as Record<string, string | string[] | boolean | undefined>;
}

/** The single match, or an error saying there were none or several. */
export function exactlyOne<T extends { uid: string }>(items: T[], what: string): T {
  if (items.length === 1) return items[0];
  if (items.length === 0) throw new Error(`no ${what}`);
  const plural = what.replace(/^(\w+?)(y?)\b/, (_, stem: string, y: string) => (y ? `${stem}ies` : `${stem}s`));
  throw new Error(`${items.length} ${plural}: ${items.map((i) => i.uid).join(", ")}; narrow the query`);
}
