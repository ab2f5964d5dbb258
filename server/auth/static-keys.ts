/**
 * staticKeys key sets, parsed once per version of the block: records are replaced, never changed,
 * on write, so a parse is kept for as long as its staticKeys object lives. What cannot verify a
 * token (a string that is no JWKS document, a key publicJwkProblem refuses) is skipped: the API
 * stores it, as the platform does, and it vouches for nobody.
 */
import { createPublicKey, type KeyObject } from "node:crypto";
import { publicJwkProblem } from "../../api/jwk";
import type { ServerWork } from "../work";

/** One public key of a staticKeys identity. */
export interface StaticKey {
  /** The same for the same key, kid and alg in any identity: keys are pooled by it. */
  id: string;
  kid?: string;
  alg?: string;
  kty: string;
  key: KeyObject;
}

const parsed = new WeakMap<object, StaticKey[]>();

function parse(issuerKeys: string, work: ServerWork): StaticKey[] {
  work.exchangeKeySetBytesParsed += issuerKeys.length;
  let keys: unknown;
  try {
    keys = (JSON.parse(issuerKeys) as { keys?: unknown }).keys;
  } catch {
    return [];
  }
  const out: StaticKey[] = [];
  for (const jwk of Array.isArray(keys) ? keys : []) {
    // A key that can never verify (the API stores whatever it is given) is no key here.
    if (publicJwkProblem(jwk)) continue;
    try {
      const key = createPublicKey({ key: jwk, format: "jwk" });
      const kid = typeof jwk.kid === "string" ? jwk.kid : undefined;
      const alg = typeof jwk.alg === "string" ? jwk.alg : undefined;
      const id = JSON.stringify([kid ?? null, alg ?? null, key.export({ format: "jwk" })]);
      out.push({ id, kid, alg, kty: String(jwk.kty), key });
    } catch {
      // Not a public key: it can verify nothing.
    }
  }
  return out;
}

/**
 * The parsed keys of a staticKeys identity (record), parsed on first use. Kept by its staticKeys
 * block, which a record rewritten only for its lastSeenTime shares with the one before.
 */
export function staticKeysOf(record: { staticKeys?: { issuerKeys: string } }, work: ServerWork): StaticKey[] {
  const sk = record.staticKeys;
  if (!sk) return [];
  let keys = parsed.get(sk);
  if (!keys) parsed.set(sk, (keys = parse(sk.issuerKeys, work)));
  return keys;
}
