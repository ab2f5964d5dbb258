/**
 * paginate(): one page of a collection for a List request. The plan:
 * 1. the caller's visible subtrees (from authorization) intersected with `uidp.descendants_of`
 *    give a few uid prefixes, each a contiguous index range of the uid-sorted collection;
 * 2. with no other filter, the page is read straight from those ranges in uid order
 *    (RangesView), or from the collection's maintained index on the sort field when the ranges
 *    cover the whole collection (SortedView); otherwise the matching items (found through the
 *    name index when `name` is given, else by scanning the ranges) are sorted once and cached
 *    until the next write;
 * 3. the page starts after the token's sort key (keyset), plus `skip`.
 */
import { isSelfOrAncestor, parentOf } from "../../api/uid";
import { SortedIndex, type Collection, type Keyed } from "../store";
import { decodeToken, encodeToken, queryHash } from "./page-token";
import { predicate } from "./predicate";
import { paginatePublic } from "./public";
import { filterKey, parseListQuery, type ListQuery, type RawQuery } from "./query";
import type { Listing } from "./listing";
import { RangesView, SortedView, type View } from "./views";

/** One page of results. */
export interface Page<T> {
  items: T[];
  /** Absent on the last page. */
  nextPageToken?: string;
  /** Matching items across all pages, as a decimal string. */
  totalCount: string;
  /** Items skipped with `skip`, accumulated across the pages of one walk. */
  skipped: number;
}

/** What paginate needs from the request besides its query. */
export interface PageEnv {
  /** Groups whose subtrees the caller may list (an antichain: none under another). */
  scopes: string[];
  /** Current time, ms. */
  now: number;
  /** HMAC key for page tokens. */
  secret: Buffer;
  /**
   * A restriction beyond scopes (anonymous callers see public items only). Its `key` is bound into
   * page tokens and caches, so a restricted listing never reuses an unrestricted one's.
   */
  only?: {
    key: string;
    test(item: Keyed): boolean;
    /** A version of what `test` depends on besides the collection (a tag's repo's visibility). */
    version?(): number;
  };
}

/** Narrows the caller's scopes by `uidp.descendants_of`. */
function prefixesFor(scopes: string[], descendantsOf: string | undefined): string[] {
  if (descendantsOf === undefined) return [...scopes].sort();
  if (scopes.some((s) => isSelfOrAncestor(s, descendantsOf))) return [descendantsOf];
  return scopes.filter((s) => isSelfOrAncestor(descendantsOf, s)).sort();
}

function buildView<T extends Keyed>(coll: Collection<T>, spec: Listing<T>, q: ListQuery, prefixes: string[], hash: string): View<T> {
  const ranges = prefixes.map((p) => coll.subtree(p)).filter(([lo, hi]) => hi > lo);
  const test = both(predicate(spec, q.filters), q.hidden?.shown);
  const scoped = q.filters["uidp.descendants_of"] || q.filters["uidp.children_of"];
  const globals = scoped ? [] : (spec.globals?.(coll.all()) ?? []);
  const valueOf = spec.sortable[q.order.field];
  if (!test && globals.length === 0) {
    if (q.order.field === "uid") return new RangesView(coll, ranges, q.order.desc);
    const covered = ranges.reduce((n, [lo, hi]) => n + hi - lo, 0);
    if (covered === coll.size) return new SortedView(coll.sortedBy(q.order.field, valueOf), q.order.desc);
  }
  const index = coll.cached(`${hash}|${prefixes.join(",")}`, () => {
    const items: T[] = [...globals];
    const names = q.filters.name;
    if (names && spec.sortable.name) {
      // An exact name is a contiguous run of the maintained name index: no scan of the collection.
      const byName = coll.sortedBy("name", spec.sortable.name);
      // The item's ancestors looked up in a set: depth steps, not one per scope of the caller.
      const scopeSet = new Set(prefixes);
      const visible = (uid: string) => {
        for (let p: string | undefined = uid; p !== undefined; p = parentOf(p)) if (scopeSet.has(p)) return true;
        return false;
      };
      for (const name of new Set(names))
        for (let i = byName.bound([name, ""], true); i < byName.entries.length && byName.entries[i].key[0] === name; i++)
          if (visible(byName.entries[i].item.uid)) items.push(byName.entries[i].item);
    } else {
      const all = coll.all();
      for (const [lo, hi] of ranges) for (let i = lo; i < hi; i++) items.push(all[i]);
    }
    coll.work.listExamined += items.length;
    return new SortedIndex(test ? items.filter(test) : items, valueOf);
  });
  return new SortedView(index, q.order.desc);
}

/** Both tests, either, or none. */
function both<T>(a: ((item: T) => boolean) | undefined, b: ((item: T) => boolean) | undefined): ((item: T) => boolean) | undefined {
  return a && b ? (item) => a(item) && b(item) : (a ?? b);
}

/** One page of `coll` for the raw List query, as the caller with `env.scopes` sees it. */
export function paginate<T extends Keyed>(coll: Collection<T>, spec: Listing<T>, raw: RawQuery, env: PageEnv): Page<T> {
  // An anonymous listing spans the whole organization: its cost is bounded another way.
  if (env.only) return paginatePublic(coll, spec, raw, env);
  const q = parseListQuery(raw, spec);
  const hash = queryHash([spec.name, q.order.field, q.order.desc, filterKey(q)]);
  const cursor = q.pageToken ? decodeToken(q.pageToken, hash, env.secret, env.now) : undefined;
  const view = buildView(coll, spec, q, prefixesFor(env.scopes, q.filters["uidp.descendants_of"]?.[0]), hash);

  const first = cursor ? view.after(cursor.k) : 0;
  const start = Math.min(first + q.skip, view.length);
  const end = Math.min(start + q.pageSize, view.length);
  const items: T[] = [];
  for (let i = start; i < end; i++) items.push(view.at(i));
  coll.work.listExamined += items.length;
  const skipped = (cursor?.s ?? 0) + (start - first);
  const page: Page<T> = { items, totalCount: String(view.length), skipped };
  if (end < view.length && items.length > 0)
    page.nextPageToken = encodeToken({ q: hash, k: view.keyOf(items[items.length - 1]), s: skipped, t: env.now }, env.secret);
  return page;
}
