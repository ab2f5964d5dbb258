import { createHash } from "node:crypto";
import { WrongAnswerError } from "./errors";

/**
 * The most pages one listing reads: 5,000 pages of up to 200 items is a million items, far more
 * than any organization holds. A server whose tokens never end is stopped here.
 */
export const MAX_PAGES = 5_000;

/**
 * The page tokens of one listing. A token the server sent before (A, B, A, ...) would page
 * forever: `next` refuses it, and refuses to go past `MAX_PAGES`. Tokens are kept as digests, so
 * a long one costs nothing to remember.
 */
export class PageTokens {
  readonly #seen = new Set<string>();
  #pages = 0;

  constructor(
    private readonly request: string,
    private readonly maxPages = MAX_PAGES,
  ) {}

  /** Records the page just read and its `nextPageToken`; returns the token to ask for next, undefined when done. */
  next(token: string | undefined): string | undefined {
    this.#pages++;
    if (!token) return undefined;
    const digest = createHash("sha256").update(token).digest("base64");
    if (this.#seen.has(digest))
      throw new WrongAnswerError(this.request, `the API sent a page token it sent before (after ${this.#pages} pages): its pages would never end`);
    if (this.#pages >= this.maxPages) throw new WrongAnswerError(this.request, `the API still had pages after ${this.#pages}, more than any listing has`);
    this.#seen.add(digest);
    return token;
  }
}
