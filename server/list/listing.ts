/**
 * How one collection is listed: which fields sort, which filters it takes, which group an item
 * belongs to (for scope filters and visibility). Each routes file declares one.
 */
import type { CollectionName } from "../../api/collections";
import type { Keyed, SortValue } from "../store";

export type { SortValue };

/** One collection-specific list filter (`name`, `keyId`, `aliases`, ...). */
export interface ListFilter<T> {
  /** The parameter may repeat (one value per parameter, as the gateway reads it; a comma is part of a value); an item matches any of them. */
  repeated?: boolean;
  /** What is wrong with one raw value, or undefined when it is fine. */
  check?(value: string): string | undefined;
  /** Another filter that, when given, makes the List ignore this one (advisories' `origin` over `artifact_names`). */
  ignoredWith?: string;
  /** One value (that passed `check`) as `match` reads it: an enum's number or other spelling as its one name. */
  normalize?(value: string): string;
  /**
   * An exact match on the sortable field of the same name: a listing may then find the value's
   * items by binary search in that field's order (anonymous listings do, list/public.ts).
   */
  indexed?: boolean;
  /** True when `item` passes the filter with these values. */
  match(item: T, values: string[]): boolean;
}

/** Everything paginate() needs to know about a collection. */
export interface Listing<T extends Keyed> {
  name: CollectionName;
  /** camelCase field name -> sort value; `uid` is always sortable. */
  sortable: Record<string, (item: T) => SortValue>;
  /** Other accepted names of sort fields (after snake_case -> camelCase), e.g. `group` -> `uid`. */
  aliases?: Record<string, string>;
  /** The collection's own filters, by their proto names (the JSON names are accepted too). */
  filters: Record<string, ListFilter<T>>;
  /**
   * Items a List leaves out unless a boolean parameter asks for them: parameter -> the items it
   * admits (ListTagsRequest's `include_referrers`, ...). An item is listed when every parameter
   * that admits it is given true.
   */
  hidden?: Record<string, (item: T) => boolean>;
  /** The group an item belongs to; undefined for global items (built-in roles). */
  groupOf(item: T): string | undefined;
  /** Items outside every group's subtree that every caller sees (built-in roles). */
  globals?(items: readonly T[]): readonly T[];
}

/**
 * Exact, case-sensitive match of `field` against any of the values. `indexed`: `get` reads the
 * sortable field named like the filter (see ListFilter.indexed).
 */
export function exact<T>(get: (item: T) => string | undefined, indexed = false): ListFilter<T> {
  return { indexed, match: (item, values) => values.includes(get(item) ?? "") };
}
