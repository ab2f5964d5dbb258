/**
 * Page tokens: opaque, signed keyset cursors. A token carries the sort key of the last item
 * served (not an offset, so inserts and deletes between pages neither skip nor repeat items),
 * a hash of the query it belongs to, the `skipped` total so far and when it was issued; it is
 * base64url JSON plus an HMAC so a client can neither forge nor edit one.
 */
import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { PAGE_TOKEN_TTL_MS } from "../../api/collections";
import { invalidField } from "../errors";
import type { SortKey } from "../store";

/** What a token says. */
export interface Cursor {
  /** Hash of the query (filters and order) the token belongs to. */
  q: string;
  /** Sort key of the last item already served. */
  k: SortKey;
  /** Items skipped with `skip` so far. */
  s: number;
  /** Issue time, ms since the epoch. */
  t: number;
}

/** A short stable hash of a canonical description of a query. */
export function queryHash(parts: unknown): string {
  return createHash("sha256").update(JSON.stringify(parts)).digest("base64url").slice(0, 22);
}

function mac(secret: Buffer, data: string): Buffer {
  return createHmac("sha256", secret).update(data).digest().subarray(0, 16);
}

/** Encodes and signs a cursor. */
export function encodeToken(c: Cursor, secret: Buffer): string {
  const data = Buffer.from(JSON.stringify(c)).toString("base64url");
  return `${data}.${mac(secret, data).toString("base64url")}`;
}

const malformed = () => invalidField("page_token", "is not a page token this server issued");

/**
 * Decodes a token for the query with hash `q`. A forged, edited or foreign token, or one from a
 * different query, is INVALID_ARGUMENT; an expired one yields undefined: the listing restarts.
 */
export function decodeToken(token: string, q: string, secret: Buffer, now: number): Cursor | undefined {
  const [data, sig, extra] = token.split(".");
  if (!data || !sig || extra !== undefined) throw malformed();
  const want = mac(secret, data);
  const got = Buffer.from(sig, "base64url");
  if (got.length !== want.length || !timingSafeEqual(got, want)) throw malformed();
  let c: Cursor;
  try {
    c = JSON.parse(Buffer.from(data, "base64url").toString("utf8"));
  } catch {
    throw malformed();
  }
  if (c.q !== q)
    throw invalidField("page_token", "belongs to a different query: filters and order_by must stay the same between pages");
  if (now - c.t > PAGE_TOKEN_TTL_MS) return undefined;
  return c;
}
