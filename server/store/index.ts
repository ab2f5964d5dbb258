/** The in-memory store: sorted, uid-indexed collections. */
export { Collection, type Keyed } from "./collection";
export { Store, COLLECTION_NAMES, type CollectionName, type Change, type Committer } from "./store";
export * from "./records";
export { SortedIndex, compareKeys, type SortKey, type SortValue, type IndexEntry } from "./sorted-index";
