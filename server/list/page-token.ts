/**
 * Page tokens: opaque, sealed keyset cursors. A token carries the sort key of the last item
 * served (not an offset, so inserts and deletes between pages neither skip nor repeat items),
 * a hash of the query it belongs to, the `skipped` total so far and when it was issued. It is
 * JSON sealed with AES-256-GCM under the server's page key: a client can neither forge nor edit
 * one, nor read it (a sort key may be an invitee's email or another private field).
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
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

const IV_BYTES = 12;
const TAG_BYTES = 16;

/** The AES-256 key of a page secret (any length: hashed to 32 bytes). */
function keyOf(secret: Buffer): Buffer {
  return createHash("sha256").update("irv page tokens\0").update(secret).digest();
}

/** Encodes and seals a cursor. */
export function encodeToken(c: Cursor, secret: Buffer): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", keyOf(secret), iv);
  const sealed = Buffer.concat([cipher.update(JSON.stringify(c), "utf8"), cipher.final()]);
  return Buffer.concat([iv, sealed, cipher.getAuthTag()]).toString("base64url");
}

/** The cursor JSON of a sealed token, or undefined when it was not sealed with this secret. */
function unseal(token: string, secret: Buffer): string | undefined {
  const raw = Buffer.from(token, "base64url");
  // Only the one spelling we issued: base64url would also read trailing junk bits.
  if (raw.length <= IV_BYTES + TAG_BYTES || raw.toString("base64url") !== token) return undefined;
  try {
    const decipher = createDecipheriv("aes-256-gcm", keyOf(secret), raw.subarray(0, IV_BYTES));
    decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)), decipher.final()]).toString("utf8");
  } catch {
    return undefined;
  }
}

const malformed = () => invalidField("page_token", "is not a page token this server issued");

/**
 * Decodes a token for the query with hash `q`. A forged, edited or foreign token, or one from a
 * different query, is INVALID_ARGUMENT; an expired one yields undefined: the listing restarts.
 */
export function decodeToken(token: string, q: string, secret: Buffer, now: number): Cursor | undefined {
  const json = unseal(token, secret);
  if (json === undefined) throw malformed();
  let c: Cursor;
  try {
    c = JSON.parse(json);
  } catch {
    throw malformed();
  }
  if (c.q !== q) throw invalidField("page_token", "belongs to a different query: filters and order_by must stay the same between pages");
  if (now - c.t > PAGE_TOKEN_TTL_MS) return undefined;
  return c;
}
