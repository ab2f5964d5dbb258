import { createDecipheriv, pbkdf2 } from "node:crypto";
import { readFileSync } from "node:fs";
import * as path from "node:path";

/**
 * Pulumi's passphrase secrets provider, decrypting only: a stack's `encryptionsalt` (and its
 * state's `secrets_providers.state.salt`) is `v1:<base64 salt>:<"pulumi" encrypted>`, the key
 * PBKDF2-SHA256 of the passphrase over the salt at 1,000,000 iterations, 32 bytes, and every
 * secret `v1:<base64 12-byte nonce>:<base64 ciphertext and 16-byte tag>` in AES-256-GCM. The
 * derivation is the whole cost (a quarter of a second of CPU), so it runs once per salt per
 * process, off the main thread. Neither the passphrase nor a plaintext goes into an error.
 */

const ITERATIONS = 1_000_000;
const KEY_BYTES = 32;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

/** Decrypts a `v1:` ciphertext of one secrets-provider state to its plaintext. */
export type Decrypt = (ciphertext: string) => string;

/**
 * The passphrase as the pulumi CLI reads it: PULUMI_CONFIG_PASSPHRASE when set (even empty), else
 * the file PULUMI_CONFIG_PASSPHRASE_FILE names, trimmed; undefined when neither is set.
 */
export function passphraseOf(env: NodeJS.ProcessEnv): string | undefined {
  if (env.PULUMI_CONFIG_PASSPHRASE !== undefined) return env.PULUMI_CONFIG_PASSPHRASE;
  const file = env.PULUMI_CONFIG_PASSPHRASE_FILE;
  if (!file) return undefined;
  try {
    return readFileSync(path.resolve(file), "utf8").trim();
  } catch (e) {
    throw new Error(`cannot read PULUMI_CONFIG_PASSPHRASE_FILE (${(e as NodeJS.ErrnoException).code ?? "unreadable"})`);
  }
}

const keys = new Map<string, { phrase: string; key: Promise<Buffer> }>();

/**
 * The decrypter of a passphrase provider's state `salt`, after checking the passphrase against
 * it; rejects with "incorrect passphrase" when it does not open the salt's check value.
 */
export async function passphraseDecrypter(salt: string, phrase: string, stack: string): Promise<Decrypt> {
  const parts = salt.split(":");
  if (parts.length < 3 || parts[0] !== "v1") throw new Error(`stack ${stack}: its passphrase salt is not in a format irv knows`);
  let cached = keys.get(salt);
  if (!cached || cached.phrase !== phrase) {
    const saltBytes = Buffer.from(parts[1], "base64");
    const key = new Promise<Buffer>((resolve, reject) =>
      pbkdf2(phrase, saltBytes, ITERATIONS, KEY_BYTES, "sha256", (err, k) => (err ? reject(err) : resolve(k))),
    );
    cached = { phrase, key };
    keys.set(salt, cached);
  }
  const key = await cached.key;
  const decrypt: Decrypt = (ciphertext) => decryptWith(key, ciphertext);
  let check: string | undefined;
  try {
    check = decrypt(parts.slice(2).join(":"));
  } catch {
    // a wrong key fails the tag check
  }
  if (check !== "pulumi") {
    keys.delete(salt);
    throw new Error(`incorrect passphrase for stack ${stack}: set PULUMI_CONFIG_PASSPHRASE (or PULUMI_CONFIG_PASSPHRASE_FILE) to the stack's passphrase`);
  }
  return decrypt;
}

function decryptWith(key: Buffer, ciphertext: string): string {
  const parts = ciphertext.split(":");
  if (parts.length !== 3 || parts[0] !== "v1") throw new Error("a secret is not a v1 ciphertext");
  const nonce = Buffer.from(parts[1], "base64");
  const sealed = Buffer.from(parts[2], "base64");
  if (nonce.length !== NONCE_BYTES || sealed.length < TAG_BYTES) throw new Error("a secret's ciphertext is malformed");
  const decipher = createDecipheriv("aes-256-gcm", key, nonce);
  decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
  return Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - TAG_BYTES)), decipher.final()]).toString("utf8");
}
