/**
 * The work a server did for its callers, counted in operations, not time: items listings looked
 * at, token-exchange issuer patterns run, key sets parsed, outbound fetches, authorization steps.
 * The bounds that keep a caller from making the server work in proportion to what the
 * organization holds (docs/irv-server.md, Bounds) are stated in these units, and the tests and
 * benchmarks measure them here. One per server: its store holds it, `RunningServer.work()` reads it.
 */
export class ServerWork {
  /** Items looked at by listings: walked, filtered, sorted, served, or read into a view. */
  listExamined = 0;
  /** Public views built (one per collection, sort field and version of the data). */
  listViewBuilds = 0;
  /** Issuer patterns run against a token's unverified `iss`. */
  exchangePatternRuns = 0;
  /** Their size: program instructions times characters of `iss`, summed (a bound on the steps). */
  exchangePatternSteps = 0;
  /** Bytes of staticKeys key sets parsed (each record's set is parsed once, then reused). */
  exchangeKeySetBytesParsed = 0;
  /** Outbound fetches started (discovery documents and key sets). */
  exchangeFetches = 0;
  /** Authorization: bindings read, groups considered and ancestors looked up. */
  authzSteps = 0;

  /** A copy of the counts now, to subtract from a later one. */
  snapshot(): WorkCounts {
    return { ...this };
  }
}

/** The counts of a ServerWork at one moment. */
export type WorkCounts = { readonly [K in keyof ServerWork as ServerWork[K] extends number ? K : never]: number };
