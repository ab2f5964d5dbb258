/**
 * Sort keys and sorted indexes. A SortedIndex keeps a collection's items ordered by one field
 * (ties broken by uid) and is maintained on every write by binary search, so listing a whole
 * collection in `name` (or any) order never re-sorts it.
 */

/** Anything stored: it has a uid (the tie-breaker of every sort). */
export interface Keyed {
  uid: string;
}

/** A value a list can sort by. */
export type SortValue = string | number | boolean | null | undefined;

/** The sort key of one item: its sort value and its uid (the tie-breaker). */
export type SortKey = [SortValue, string];

function compareValues(a: SortValue, b: SortValue): number {
  // A missing value (undefined in memory, null once through a page token's JSON) sorts first.
  if ((a ?? null) === (b ?? null)) return 0;
  if (a === undefined || a === null) return -1;
  if (b === undefined || b === null) return 1;
  if (typeof a === "number" && typeof b === "number") return a - b;
  const x = String(a);
  const y = String(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Compares two sort keys: value first, uid breaks ties; `desc` reverses both. */
export function compareKeys(a: SortKey, b: SortKey, desc = false): number {
  const c = compareValues(a[0], b[0]) || compareValues(a[1], b[1]);
  return desc ? -c : c;
}

/** One indexed item. */
export interface IndexEntry<T> {
  key: SortKey;
  item: T;
}

/** Items in ascending (value, uid) order. */
export class SortedIndex<T extends Keyed> {
  readonly entries: IndexEntry<T>[];

  constructor(
    items: readonly T[],
    readonly valueOf: (item: T) => SortValue,
  ) {
    this.entries = items.map((item) => ({ key: [valueOf(item), item.uid] as SortKey, item }));
    this.entries.sort((a, b) => compareKeys(a.key, b.key));
  }

  /** Index of the first entry whose key is > `key` (or >= with `inclusive`). */
  bound(key: SortKey, inclusive = false): number {
    let lo = 0;
    let hi = this.entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const c = compareKeys(this.entries[mid].key, key);
      if (c < 0 || (!inclusive && c === 0)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  add(item: T): void {
    const key: SortKey = [this.valueOf(item), item.uid];
    this.entries.splice(this.bound(key, true), 0, { key, item });
  }

  delete(item: T): void {
    const i = this.bound([this.valueOf(item), item.uid], true);
    if (this.entries[i]?.key[1] === item.uid) this.entries.splice(i, 1);
  }
}
