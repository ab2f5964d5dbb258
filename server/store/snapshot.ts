/**
 * A snapshot: the whole store as one JSON document, the base the journal's records apply to.
 * Written atomically (files.ts), so it is whole or absent; its `generation` names the journal
 * that continues it.
 */
import type { Keyed } from "./collection";
import { COLLECTION_NAMES, type CollectionName, type Store } from "./store";

const FORMAT = "irv-server-snapshot/1";

/** The store's contents as a snapshot document. */
export function dumpSnapshot(store: Store, generation: number): string {
  const collections: Partial<Record<CollectionName, readonly Keyed[]>> = {};
  for (const kind of COLLECTION_NAMES) collections[kind] = store.collection(kind).all();
  return JSON.stringify({ format: FORMAT, generation, collections });
}

/** Loads a parsed snapshot document into an empty store; returns its generation. */
export function loadSnapshot(store: Store, parsed: unknown): number {
  const doc = (parsed ?? {}) as { format?: unknown; generation?: unknown; collections?: Record<string, unknown> };
  if (doc.format !== FORMAT || !Number.isInteger(doc.generation) || typeof doc.collections !== "object" || doc.collections === null)
    throw new Error(`not an ${FORMAT} document`);
  for (const kind of COLLECTION_NAMES) {
    const items = doc.collections[kind] ?? [];
    if (!Array.isArray(items)) throw new Error(`snapshot collection ${kind} is not a list`);
    store.collection(kind).bulkLoad(items as Keyed[]);
  }
  return doc.generation as number;
}
