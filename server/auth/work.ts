/**
 * Work done for token exchanges, counted, so tests can show that what an unauthenticated caller
 * costs does not follow what the organization has configured (a count of operations, not a time).
 */
export const exchangeWork = {
  /** Issuer patterns run against a token's unverified `iss`. */
  patternRuns: 0,
  /** Their size: program instructions times characters of `iss`, summed (a bound on the steps). */
  patternSteps: 0,
  /** Bytes of staticKeys key sets parsed (each record's set is parsed once, then reused). */
  keySetBytesParsed: 0,
  /** Outbound fetches started (discovery documents and key sets). */
  fetches: 0,
};

/** A copy of the counters now, to subtract from a later one. */
export function workSnapshot(): typeof exchangeWork {
  return { ...exchangeWork };
}
