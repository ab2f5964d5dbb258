import * as pulumi from "@pulumi/pulumi";
import type { IrvClient } from "../client/client";
import type { ListQuery } from "../client/client";
import { readSettings } from "../client/config";
import { cachedClient } from "../client/session";

/**
 * The program-side client data sources use, in the program's own process (dynamic providers have
 * no invokes). Settings come from the stack's `irv:*` config, then the environment, exactly as in
 * the provider, and the client comes from the same cache. `anonymous` (registry data sources):
 * with no credentials configured, read without a token, which the API allows for public repos.
 */
export function programClient(o: { anonymous?: boolean } = {}): IrvClient {
  // runtime.getConfig reads secrets without the plaintext warning Config.get would print.
  return cachedClient(readSettings((key) => pulumi.runtime.getConfig(key)), o);
}

/** Scope, order and paging arguments every list data source takes. */
export interface ListArgs {
  /** `uidp.descendants_of`: this group and everything under it. */
  descendantsOf?: string;
  /** `uidp.children_of`: direct children of this group. */
  childrenOf?: string;
  /** `uidp.ancestors_of`: the ancestors of this uid. */
  ancestorsOf?: string;
  /** `uidp.in_root`: only top-level items. */
  inRoot?: boolean;
  /** `uidp.ids`: only these uids. */
  ids?: string[];
  /** `order_by`, e.g. `"name desc"`. */
  orderBy?: string;
  /** Any other filter the API's List accepts, by its query name. */
  filters?: Record<string, string | string[]>;
}

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
 * A data source's arguments as a `getXOutput` takes them: every field an `Input` (lists of
 * Inputs too), as in every Pulumi provider, so `getTagsOutput({ repoUid: repo.uid })` compiles.
 */
export type OutputArgs<A> = {
  [K in keyof A]: A[K] extends (infer U)[] | undefined ? pulumi.Input<pulumi.Input<U>[]> | Extract<A[K], undefined> : pulumi.Input<A[K]>;
};

/** `getX` as an Output-returning `getXOutput`: waits for every argument, then calls `getX`. */
export function outputOf<A, R>(fn: (args: A) => Promise<R>): (args: OutputArgs<A>) => pulumi.Output<R> {
  return (args) => pulumi.output(args).apply((a) => fn(a as A)) as pulumi.Output<R>;
}

/** The single match, or an error saying there were none or several. */
export function exactlyOne<T extends { uid: string }>(items: T[], what: string): T {
  if (items.length === 1) return items[0];
  if (items.length === 0) throw new Error(`no ${what}`);
  const plural = what.replace(/^(\w+?)(y?)\b/, (_, stem: string, y: string) => (y ? `${stem}ies` : `${stem}s`));
  throw new Error(`${items.length} ${plural}: ${items.map((i) => i.uid).join(", ")}; narrow the query`);
}
