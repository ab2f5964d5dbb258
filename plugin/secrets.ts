/**
 * Secrets as the engine sends them to a provider that accepts secrets: an object carrying
 * Pulumi's secret signature around the value, at any depth (YAML sends `oidc` as a plain object
 * whose `clientSecret` is secret). The kinds' check and diff expect plain values, so inputs are
 * unwrapped on the way in; on the way out, the kind's secret values (`code`, `oidc.clientSecret`)
 * and whatever arrived secret are wrapped again at their paths, so that state keeps them secret
 * whatever language the program is in and however much of a block it marked.
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

/** A value's place: the member names from the top (`["oidc", "clientSecret"]`). */
export type Path = readonly string[];

/**
 * The paths at which `v` holds a wrapped secret. A secret anywhere in a list marks the whole list:
 * a list's order on the way out need not be the order that came in.
 */
export function secretPathsOf(v: unknown, at: Path = []): Path[] {
  if (isSecret(v)) return [at];
  if (Array.isArray(v)) return at.length && v.some((x) => secretPathsOf(x).length) ? [at] : [];
  if (v && typeof v === "object") return Object.entries(v).flatMap(([k, x]) => secretPathsOf(x, [...at, k]));
  return [];
}

/** `v` with the value at `path` wrapped; a value absent, null or already inside a secret stays as it is. */
function wrapAt(v: unknown, path: Path): unknown {
  if (v === undefined || v === null || isSecret(v)) return v;
  if (path.length === 0) return secret(v);
  if (typeof v !== "object" || Array.isArray(v) || !(path[0] in v)) return v;
  return { ...(v as Rec), [path[0]]: wrapAt((v as Rec)[path[0]], path.slice(1)) };
}

/** `props` with the values at `paths` wrapped as secrets (an earlier path wins over one inside it). */
export function wrapSecrets(props: Rec, paths: readonly Path[]): Rec {
  return paths.reduce<Rec>((out, p) => wrapAt(out, p) as Rec, props);
}
