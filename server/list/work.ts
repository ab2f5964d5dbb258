/**
 * Work done by listings, counted, so tests can show that what one unauthenticated List costs does
 * not follow the size of the catalog (a count of items looked at, not a time).
 */
export const listWork = {
  /** Items looked at by listings: walked, filtered, sorted, served, or read into a view. */
  examined: 0,
  /** Public views built (one per collection, sort field and version of the data). */
  viewBuilds: 0,
};

/** A copy of the counters now, to subtract from a later one. */
export function listWorkSnapshot(): typeof listWork {
  return { ...listWork };
}
