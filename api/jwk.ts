/**
 * What of a staticKeys key set can verify a token: public keys of a usable kind. A key that can
 * never verify (an RSA modulus under 2048 bits, which jose refuses; a symmetric `oct` key, secret
 * or empty; an unknown curve) is stored as the API stores anything, and skipped at the exchange.
 */
import { createPublicKey } from "node:crypto";

/** The longest `issuerKeys` document accepted (a 4096-bit RSA key is under 1 KiB). */
export const ISSUER_KEYS_MAX_CHARS = 64 * 1024;
/** The most keys one `issuerKeys` document may hold. */
export const ISSUER_KEYS_MAX = 32;
/** The shortest RSA modulus a token may be verified with (jose refuses shorter ones). */
export const RSA_MIN_BITS = 2048;

const CURVES: Record<string, string[]> = { EC: ["P-256", "P-384", "P-521"], OKP: ["Ed25519", "Ed448"] };
const ALGS: Record<string, RegExp> = { RSA: /^(RS|PS)(256|384|512)$/, EC: /^ES(256|384|512)$/, OKP: /^(EdDSA|Ed25519)$/ };

/** Why `key` (one entry of a JWKS `keys` array) cannot verify tokens, or undefined when it can. */
export function publicJwkProblem(key: unknown): string | undefined {
  if (typeof key !== "object" || key === null || Array.isArray(key)) return "must be a JSON object";
  const k = key as Record<string, unknown>;
  const kty = k.kty;
  if (kty === "oct") return 'is a symmetric ("oct") key: give the issuer\'s public keys (RSA, EC or OKP)';
  if (kty !== "RSA" && kty !== "EC" && kty !== "OKP") return 'must have "kty" RSA, EC or OKP';
  if (kty in CURVES && !(typeof k.crv === "string" && CURVES[kty].includes(k.crv))) return `must have "crv" ${CURVES[kty].join(", ")}`;
  if (k.alg !== undefined && !(typeof k.alg === "string" && ALGS[kty].test(k.alg))) return `has an "alg" that does not fit a ${kty} key`;
  if (k.use !== undefined && k.use !== "sig") return 'must have "use" sig (or none)';
  if (k.kid !== undefined && typeof k.kid !== "string") return '"kid" must be a string';
  let bits: number | undefined;
  try {
    bits = createPublicKey({ key: k as never, format: "jwk" }).asymmetricKeyDetails?.modulusLength;
  } catch {
    return "is not a valid public key";
  }
  if (kty === "RSA" && (bits ?? 0) < RSA_MIN_BITS) return `is an RSA key of ${bits} bits: at least ${RSA_MIN_BITS} are needed`;
  return undefined;
}
