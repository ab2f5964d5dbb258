/**
 * One collection of the in-memory store: items kept sorted by uid in an array (plus a Map for
 * lookups). Uids are hierarchical, so "everything under group G" is one contiguous slice of the
 * array, found by binary search: a page costs O(log n + page size), not a scan. Sorted indexes on
 * other fields are built on first use and kept current by every write.
 */
import { SortedIndex, type Keyed, type SortValue } from "./sorted-index";
import { ServerWork } from "../work";

export type { Keyed };

/** First index whose uid is >= `uid` (or > with `strict`). */
function bound<T extends Keyed>(items: readonly T[], uid: string, strict: boolean): number {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const u = items[mid].uid;
    if (u < uid || (strict && u === uid)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Derived data (sorted/filtered views) cached until the next write; bounded so memory stays flat. */
const MAX_CACHED_VIEWS = 64;

/** Told of every write: `before` is undefined for an insert, `after` for a remove. */
export type WriteObserver<T> = (uid: string, before: T | undefined, after: T | undefined) => void;

/** A sorted, indexed set of records of one kind. */
export class Collection<T extends Keyed> {
  private items: T[] = [];
  private byUid = new Map<string, T>();
  private cache = new Map<string, unknown>();
  /** Sorted indexes by field, built on first use and maintained by every write. */
  private indexes = new Map<string, SortedIndex<T>>();
  /** Bumped on every write; cached views are keyed by it. */
  version = 0;
  /** The store's hook: indexes and the journal see every write through it. */
  observer?: WriteObserver<T>;
  /** Where listings of it count what they look at: the store's (a collection of its own counts alone). */
  work = new ServerWork();

  get size(): number {
    return this.items.length;
  }

  /** Every item in uid order. Read-only: write through insert/replace/remove. */
  all(): readonly T[] {
    return this.items;
  }

  get(uid: string): T | undefined {
    return this.byUid.get(uid);
  }

  has(uid: string): boolean {
    return this.byUid.has(uid);
  }

  /** Adds a new item (its uid must be new). */
  insert(item: T): void {
    if (this.byUid.has(item.uid)) throw new Error(`duplicate uid ${item.uid}`);
    this.items.splice(bound(this.items, item.uid, false), 0, item);
    this.byUid.set(item.uid, item);
    for (const ix of this.indexes.values()) ix.add(item);
    this.touch();
    this.observer?.(item.uid, undefined, item);
  }

  /** Replaces the item with the same uid. */
  replace(item: T): void {
    const i = bound(this.items, item.uid, false);
    const old = this.items[i];
    if (old?.uid !== item.uid) throw new Error(`no item ${item.uid}`);
    for (const ix of this.indexes.values()) {
      ix.delete(old);
      ix.add(item);
    }
    this.items[i] = item;
    this.byUid.set(item.uid, item);
    this.touch();
    this.observer?.(item.uid, old, item);
  }

  /** Removes the item; false when there was none. */
  remove(uid: string): boolean {
    const old = this.byUid.get(uid);
    if (!old) return false;
    this.byUid.delete(uid);
    this.items.splice(bound(this.items, uid, false), 1);
    for (const ix of this.indexes.values()) ix.delete(old);
    this.touch();
    this.observer?.(uid, old, undefined);
    return true;
  }

  /** Loads many items at once (seeding, fixtures): one sort instead of n inserts. */
  bulkLoad(items: Iterable<T>): void {
    const added: T[] = [];
    for (const item of items) {
      if (this.byUid.has(item.uid)) throw new Error(`duplicate uid ${item.uid}`);
      this.byUid.set(item.uid, item);
      this.items.push(item);
      added.push(item);
    }
    this.items.sort((a, b) => (a.uid < b.uid ? -1 : a.uid > b.uid ? 1 : 0));
    this.indexes.clear();
    this.touch();
    if (this.observer) for (const item of added) this.observer(item.uid, undefined, item);
  }

  /** Index of the first item with uid >= `uid`. */
  lowerBound(uid: string): number {
    return bound(this.items, uid, false);
  }

  /** Index of the first item with uid > `uid`. */
  upperBound(uid: string): number {
    return bound(this.items, uid, true);
  }

  /**
   * The index range [lo, hi) of `prefix` and everything under it. Uid segments have a fixed
   * length and `/` sorts before every hex digit, so they are exactly the uids in [prefix, prefix+"0").
   */
  subtree(prefix: string): [number, number] {
    return [this.lowerBound(prefix), this.lowerBound(`${prefix}0`)];
  }

  /** Items whose parent uid is `parent` (direct children only). */
  childrenOf(parent: string): T[] {
    const [lo, hi] = this.subtree(parent);
    const depth = parent.split("/").length + 1;
    const out: T[] = [];
    for (let i = lo; i < hi; i++) if (this.items[i].uid.split("/").length === depth) out.push(this.items[i]);
    return out;
  }

  /**
   * Every item ordered by `field` (value of `valueOf`, ties by uid), kept up to date by writes.
   * `valueOf` must be the same function for the same field.
   */
  sortedBy(field: string, valueOf: (item: T) => SortValue): SortedIndex<T> {
    let ix = this.indexes.get(field);
    if (!ix) this.indexes.set(field, (ix = new SortedIndex(this.items, valueOf)));
    return ix;
  }

  /** A value derived from the current contents, computed once per version and `key`. */
  cached<V>(key: string, build: () => V): V {
    const k = `${this.version}\u0000${key}`;
    if (this.cache.has(k)) return this.cache.get(k) as V;
    if (this.cache.size >= MAX_CACHED_VIEWS) this.cache.clear();
    const v = build();
    this.cache.set(k, v);
    return v;
  }

  private touch(): void {
    this.version++;
    this.cache.clear();
  }
}
