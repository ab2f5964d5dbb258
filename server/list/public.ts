/**
 * Anonymous listings (public repos and tags) at a cost that does not follow the catalog's size.
 * An authenticated caller's listing costs what its scope holds (paginate.ts); an anonymous one
 * spans the whole organization, so it must be bounded some other way:
 *
 * 1. Public views: the public items of a collection in the order of one sort field, built once
 *    per version of the data (rebuilt only after a repo or tag is written) and kept apart from the
 *    per-query cache, which fresh filters would otherwise churn.
 * 2. Sources: ranges of those views that already satisfy some filters: the whole view in the
 *    listing's order; the run of one exact `name` or `digest` value (uid-ordered within the
 *    value); the subtree of `uidp.descendants_of` / `uidp.children_of` (in uid order); the items
 *    of `uidp.ids`. Each is found by binary search.
 * 3. A page comes from the smallest source in the listing's order when it satisfies every filter
 *    (keyset seek, then the page: no scan); else from the smallest source of all, filtered and
 *    sorted, when it has at most PUBLIC_WORK_MAX items; else by walking the smallest ordered
 *    source and testing the remaining filters, at most PUBLIC_WORK_MAX items per request. Such a
 *    page may hold fewer items than asked, even none, with a `nextPageToken` that continues after
 *    the last item looked at, and its `totalCount` is the size of the smallest source: an upper
 *    bound (exact when that source satisfies every filter).
 *
 * Every request thus looks at O(PUBLIC_WORK_MAX + page size + ids given) items, plus binary
 * searches; the store's `work` counts them.
 */
import { isSelfOrAncestor } from "../../api/uid";
import type { ServerWork } from "../work";
import { SortedIndex, type Collection, type Keyed, type SortKey, type SortValue } from "../store";
import { decodeToken, encodeToken, queryHash, type Cursor } from "./page-token";
import type { Page, PageEnv } from "./paginate";
import { predicate } from "./predicate";
import { filterKey, parseListQuery, type RawQuery } from "./query";
import type { Listing } from "./listing";

/** The most items one anonymous request looks at to filter (or to sort a small source). */
export const PUBLIC_WORK_MAX = 4_000;

/** A page of an anonymous listing. */
export interface PublicPage<T> extends Page<T> {
  /** False when `totalCount` is an upper bound: the filters left are tested item by item. */
  exactCount: boolean;
  /** True when the page stopped at PUBLIC_WORK_MAX items looked at, before it was full. */
  budgetSpent: boolean;
}

type Only = NonNullable<PageEnv["only"]>;

/** A collection's public views: (restriction, field) -> the view and the data it was built from. */
type Views<T extends Keyed> = Map<string, { stamp: string; index: SortedIndex<T> }>;
/** The public views of each collection, typed by the collection's items. */
interface ViewCache {
  get<T extends Keyed>(coll: Collection<T>): Views<T> | undefined;
  set<T extends Keyed>(coll: Collection<T>, views: Views<T>): void;
}
// One WeakMap underneath: its get and set take any collection, and ViewCache ties each value to its key's type.
const views: ViewCache = new WeakMap<object, never>();

/** The items of `coll` that pass `only`, in `field` order; rebuilt only when the data changed. */
function publicView<T extends Keyed>(coll: Collection<T>, field: string, valueOf: (item: T) => SortValue, only: Only): SortedIndex<T> {
  let byField = views.get(coll);
  if (!byField) views.set(coll, (byField = new Map() as Views<T>));
  const stamp = `${coll.version}|${only.version?.() ?? ""}`;
  const key = `${only.key}|${field}`;
  const hit = byField.get(key);
  if (hit?.stamp === stamp) return hit.index;
  const items: T[] = [];
  for (const e of coll.sortedBy(field, valueOf).entries) if (only.test(e.item)) items.push(e.item);
  const index = new SortedIndex(items, valueOf); // already in order: the sort is one pass
  coll.work.listExamined += coll.size;
  coll.work.listViewBuilds++;
  byField.set(key, { stamp, index });
  return index;
}

/** A range [lo, hi) of a sorted index whose items satisfy the filters in `consumed`. */
interface Source<T extends Keyed> {
  index: SortedIndex<T>;
  lo: number;
  hi: number;
  consumed: Set<string>;
  /** True when the range is in the listing's order. */
  ordered: boolean;
  /** A cursor's key (in the listing's order) as a key of `index` (for ordered sources). */
  toKey(k: SortKey): SortKey;
}

const sizeOf = <T extends Keyed>(s: Source<T>) => s.hi - s.lo;
const smallest = <T extends Keyed>(a: Source<T>, b: Source<T>) => (sizeOf(b) < sizeOf(a) ? b : a);

/** The test of every filter a source does not satisfy by itself; undefined when none is left. */
function residual<T extends Keyed>(spec: Listing<T>, filters: Record<string, string[]>, consumed: Set<string>): ((item: T) => boolean) | undefined {
  const left = Object.fromEntries(Object.entries(filters).filter(([name]) => !consumed.has(name)));
  const rest = predicate(spec, left);
  const under = left["uidp.descendants_of"]?.[0];
  if (under === undefined) return rest;
  const inside = (item: T) => isSelfOrAncestor(under, item.uid);
  return rest ? (item) => inside(item) && rest(item) : inside;
}

/** The ranges of public views that satisfy some of the filters (see the file's comment). */
function sources<T extends Keyed>(coll: Collection<T>, spec: Listing<T>, order: string, filters: Record<string, string[]>, only: Only): Source<T>[] {
  const same = (k: SortKey) => k;
  const base = publicView(coll, order, spec.sortable[order], only);
  const out: Source<T>[] = [{ index: base, lo: 0, hi: base.entries.length, consumed: new Set(), ordered: true, toKey: same }];
  const descendantsOf = filters["uidp.descendants_of"]?.[0];
  const under = descendantsOf ?? filters["uidp.children_of"]?.[0];
  const underConsumed = descendantsOf !== undefined ? ["uidp.descendants_of"] : [];
  if (under !== undefined) {
    // Uid segments have a fixed length and `/` sorts before hex digits: the subtree is [under, under+"0").
    const byUid = publicView(coll, "uid", spec.sortable.uid, only);
    out.push({
      index: byUid,
      lo: byUid.bound([under, ""], true),
      hi: byUid.bound([`${under}0`, ""], true),
      consumed: new Set(underConsumed),
      ordered: order === "uid",
      toKey: same,
    });
  }
  for (const [name, values] of Object.entries(filters)) {
    const valueOf = spec.sortable[name];
    if (!spec.filters[name]?.indexed || !valueOf || values.length !== 1 || values[0] === "") continue;
    const v = values[0];
    const ix = publicView(coll, name, valueOf, only);
    // One value's entries are ordered by uid, so a subtree of them is a sub-range too.
    let lo = ix.bound([v, ""], true);
    let hi = ix.bound([v, "\uffff"]);
    const consumed = new Set([name]);
    if (under !== undefined) {
      lo = Math.max(lo, ix.bound([v, under], true));
      hi = Math.max(lo, Math.min(hi, ix.bound([v, `${under}0`], true)));
      for (const c of underConsumed) consumed.add(c);
    }
    out.push({ index: ix, lo, hi, consumed, ordered: order === "uid" || order === name, toKey: order === name ? same : (k) => [v, k[1]] });
  }
  const ids = filters["uidp.ids"];
  if (ids) {
    const unique = [...new Set(ids)];
    coll.work.listExamined += unique.length;
    const items = unique.map((id) => coll.get(id)).filter((i): i is T => i !== undefined && only.test(i));
    const ix = new SortedIndex(items, spec.sortable[order]);
    out.push({ index: ix, lo: 0, hi: ix.entries.length, consumed: new Set(["uidp.ids"]), ordered: true, toKey: same });
  }
  return out;
}

/** Reads one page from an ordered source, testing `test` (if any) on at most PUBLIC_WORK_MAX items. */
function walk<T extends Keyed>(
  src: Source<T>,
  test: ((item: T) => boolean) | undefined,
  desc: boolean,
  cursor: Cursor | undefined,
  skip: number,
  pageSize: number,
  work: ServerWork,
): { items: T[]; skipped: number; last?: T; more: boolean; budgetSpent: boolean } {
  const { index, lo, hi } = src;
  const step = desc ? -1 : 1;
  let pos: number;
  if (cursor) {
    const k = src.toKey(cursor.k);
    pos = desc ? Math.min(hi, index.bound(k, true)) - 1 : Math.max(lo, index.bound(k));
  } else pos = desc ? hi - 1 : lo;
  const inside = (p: number) => p >= lo && p < hi;
  const items: T[] = [];
  if (!test) {
    // Every item of the range matches: skip and page by position.
    const remaining = inside(pos) ? (desc ? pos - lo + 1 : hi - pos) : 0;
    const skipped = Math.min(skip, remaining);
    pos += step * skipped;
    const n = Math.min(pageSize, remaining - skipped);
    for (let i = 0; i < n; i++, pos += step) items.push(index.entries[pos].item);
    work.listExamined += n;
    return { items, skipped, last: items[n - 1], more: n > 0 && inside(pos), budgetSpent: false };
  }
  let looked = 0;
  let skipped = 0;
  let last: T | undefined;
  while (inside(pos) && items.length < pageSize && looked < PUBLIC_WORK_MAX) {
    const item = index.entries[pos].item;
    pos += step;
    looked++;
    last = item;
    if (!test(item)) continue;
    if (skipped < skip) skipped++;
    else items.push(item);
  }
  work.listExamined += looked;
  const more = last !== undefined && inside(pos);
  return { items, skipped, last, more, budgetSpent: more && items.length < pageSize };
}

/**
 * One page of an anonymous listing of `coll` (the items passing `env.only`), at a bounded cost.
 * `pageSize` overrides the query's (v1 lists ask for more than a v2beta1 page).
 */
export function paginatePublic<T extends Keyed>(coll: Collection<T>, spec: Listing<T>, raw: RawQuery, env: PageEnv, pageSize?: number): PublicPage<T> {
  const q = parseListQuery(raw, spec);
  // What the query hides (a tag list's referrers) narrows the public views themselves, so each
  // such variant is a view of its own, built once, and every source below stays exact.
  const hidden = q.hidden;
  const only: Only = hidden
    ? { ...env.only!, key: `${env.only!.key}|hide:${hidden.key}`, test: (item) => env.only!.test(item) && hidden.shown(item as T) }
    : env.only!;
  const hash = queryHash([spec.name, q.order.field, q.order.desc, filterKey(q), only.key]);
  const cursor = q.pageToken ? decodeToken(q.pageToken, hash, env.secret, env.now) : undefined;
  const valueOf = spec.sortable[q.order.field];

  const all = sources(coll, spec, q.order.field, q.filters, only);
  const ordered = all.filter((s) => s.ordered).reduce(smallest);
  const least = all.reduce(smallest);
  let src = ordered;
  let test = residual(spec, q.filters, ordered.consumed);
  let total = sizeOf(ordered);
  let exactCount = true;
  if (test && sizeOf(least) <= PUBLIC_WORK_MAX) {
    // Small enough to filter and sort whole: an exact listing.
    const keep = residual(spec, q.filters, least.consumed);
    const items: T[] = [];
    for (let i = least.lo; i < least.hi; i++) {
      const item = least.index.entries[i].item;
      if (!keep || keep(item)) items.push(item);
    }
    coll.work.listExamined += sizeOf(least);
    const ix = new SortedIndex(items, valueOf);
    src = { index: ix, lo: 0, hi: ix.entries.length, consumed: new Set(Object.keys(q.filters)), ordered: true, toKey: (k) => k };
    test = undefined;
    total = ix.entries.length;
  } else if (test) {
    total = sizeOf(least);
    exactCount = residual(spec, q.filters, least.consumed) === undefined;
  }

  const r = walk(src, test, q.order.desc, cursor, q.skip, pageSize ?? q.pageSize, coll.work);
  const skipped = (cursor?.s ?? 0) + r.skipped;
  const page: PublicPage<T> = { items: r.items, totalCount: String(total), skipped, exactCount, budgetSpent: r.budgetSpent };
  if (r.more && r.last) page.nextPageToken = encodeToken({ q: hash, k: [valueOf(r.last), r.last.uid], s: skipped, t: env.now }, env.secret);
  return page;
}
