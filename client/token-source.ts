import type { ApiError } from "./errors";

/** Where the client's bearer token comes from. */
export interface TokenSource {
  /** A token valid for at least the next minute. */
  token(): Promise<string>;
  /**
   * Forget a cached token the server refused, so the next `token()` gets a fresh one. With the
   * refused token given, a newer cached token (another request already got one) is kept.
   */
  invalidate?(refused?: string): void;
  /** What kind of source this is, for messages (never the token). */
  readonly describe: string;
  /** The error to raise instead of an UNAUTHENTICATED answer (a source says which setting to check, or what to set). */
  refused?(err: ApiError): Error;
  /** True for the source of no token at all (public registry reads). */
  readonly anonymous?: boolean;
}
