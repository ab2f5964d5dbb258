/**
 * Secrets as the engine sends them to a provider that accepts secrets: an object carrying
 * Pulumi's secret signature around the value. The kinds' check and diff expect plain values, so
 * inputs are unwrapped on the way in, and the kind's secret fields are wrapped again on the way
 * out, so that state keeps them secret whatever language the program is in.
 */
import { specialSecretSig, specialSigKey } from "../provider/sentinels";

type Rec = Record<string, unknown>;

/** True for a wrapped secret. */
export function isSecret(v: unknown): v is { value: unknown } {
  return !!v && typeof v === "object" && (v as Rec)[specialSigKey] === specialSecretSig;
}

/** `v` with every wrapped secret replaced by its value, at any depth. */
export function unwrapSecrets(v: unknown): unknown {
  if (isSecret(v)) return unwrapSecrets(v.value);
  if (Array.isArray(v)) return v.map(unwrapSecrets);
  if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, unwrapSecrets(x)]));
  return v;
}

/** A wrapped secret of `value`. */
export function secret(value: unknown): Rec {
  return { [specialSigKey]: specialSecretSig, value };
}

/** `props` with the members named in `names` wrapped as secrets (absent or null ones stay as they are). */
export function wrapSecrets(props: Rec, names: readonly string[]): Rec {
  const out = { ...props };
  for (const n of names) if (out[n] !== undefined && out[n] !== null && !isSecret(out[n])) out[n] = secret(out[n]);
  return out;
}
