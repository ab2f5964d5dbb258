/**
 * Views: a listing's matching items in their sort order, with keyset seeking. Two kinds:
 * - `RangesView`: uid order over contiguous uid ranges of a collection, computed without copying
 *   (O(log n) to seek, O(1) per item): scope + visibility and nothing else.
 * - `SortedView`: any other order, over a SortedIndex: the collection's own maintained index
 *   when the listing covers the whole collection unfiltered, else a filtered index built once per
 *   collection version and query (cached by the collection, dropped on its next write).
 */
import type { Collection, Keyed, SortKey, SortedIndex } from "../store";

/** The items of a listing in order. */
export interface View<T> {
  readonly length: number;
  at(i: number): T;
  /** Index of the first item strictly after `key` in this view's order. */
  after(key: SortKey): number;
  /** The sort key of an item of this view. */
  keyOf(item: T): SortKey;
}

/** Uid-ordered items of a collection lying in disjoint, sorted index ranges. */
export class RangesView<T extends Keyed> implements View<T> {
  readonly length: number;
  private starts: number[] = [];

  constructor(
    private coll: Collection<T>,
    private ranges: [number, number][],
    private desc: boolean,
  ) {
    let n = 0;
    for (const [lo, hi] of ranges) {
      this.starts.push(n);
      n += hi - lo;
    }
    this.length = n;
  }

  at(i: number): T {
    const k = this.desc ? this.length - 1 - i : i;
    // The last range starting at or before k, by binary search: log(ranges) per item, not one
    // step per range (a caller with thousands of bindings has thousands of ranges).
    let lo = 0;
    let hi = this.ranges.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (this.starts[mid] <= k) lo = mid;
      else hi = mid - 1;
    }
    const r = lo;
    return this.coll.all()[this.ranges[r][0] + k - this.starts[r]];
  }

  /** How many items of the view lie before base index `b`. */
  private rank(b: number): number {
    let n = 0;
    for (const [lo, hi] of this.ranges) n += Math.min(Math.max(b, lo), hi) - lo;
    return n;
  }

  after(key: SortKey): number {
    const uid = key[1];
    return this.desc ? this.length - this.rank(this.coll.lowerBound(uid)) : this.rank(this.coll.upperBound(uid));
  }

  keyOf(item: T): SortKey {
    return [item.uid, item.uid];
  }
}

/** A SortedIndex read ascending or descending. */
export class SortedView<T extends Keyed> implements View<T> {
  constructor(
    private index: SortedIndex<T>,
    private desc: boolean,
  ) {}

  get length(): number {
    return this.index.entries.length;
  }

  at(i: number): T {
    return this.index.entries[this.desc ? this.length - 1 - i : i].item;
  }

  after(key: SortKey): number {
    // Descending, the items after `key` are those below it: the view starts past the rest.
    return this.desc ? this.length - this.index.bound(key, true) : this.index.bound(key);
  }

  keyOf(item: T): SortKey {
    return [this.index.valueOf(item), item.uid];
  }
}
