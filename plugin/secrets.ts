/**
 * Secrets as the engine sends them to a provider that accepts secrets: an object carrying
 * Pulumi's secret signature around the value, at any depth (YAML sends `oidc` as a plain object
 * whose `clientSecret` is secret). The kinds' check and diff expect plain values, so inputs are
 * unwrapped on the way in; on the way out, the kind's secret values (`code`, `oidc.clientSecret`)
 * and whatever arrived secret are wrapped again at their paths, so that state keeps them secret
 * whatever language the program is in and however much of a block it marked.
 */
import { specialSecretSig, specialSigKey } from "../provider/sentinels";
import type { Rec } from "../provider/resources/spec";
import { isRecord } from "../provider/resources/values";

/** True for a wrapped secret. */
export function isSecret(v: unknown): v is { value: unknown } {
  return isRecord(v) && v[specialSigKey] === specialSecretSig;
}

/** True for an object that is not a list: a record of members. */
const isMembers = (v: unknown): v is Rec => isRecord(v) && !Array.isArray(v);

/**
 * `v` with every wrapped secret replaced by its value, at any depth. What holds no secret is
 * returned as it is, not copied (a refresh unwraps thousands of records that hold none): treat
 * the result as read-only.
 */
export function unwrapSecrets(v: unknown): unknown {
  if (isSecret(v)) return unwrapSecrets(v.value);
  if (Array.isArray(v)) {
    let out: unknown[] | undefined;
    v.forEach((x, i) => {
      const y = unwrapSecrets(x);
      if (y !== x) (out ??= [...v])[i] = y;
    });
    return out ?? v;
  }
  return isRecord(v) ? unwrapMembers(v) : v;
}

/** Record `v` with every wrapped secret among its members replaced by its value, at any depth (see unwrapSecrets). */
export function unwrapMembers(v: Rec): Rec {
  let out: Rec | undefined;
  for (const [k, x] of Object.entries(v)) {
    const y = unwrapSecrets(x);
    if (y !== x) (out ??= { ...v })[k] = y;
  }
  return out ?? v;
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
export function wrappedSecretPaths(v: unknown, at: Path = [], found: Path[] = []): Path[] {
  if (isSecret(v)) found.push(at);
  else if (Array.isArray(v)) {
    if (at.length && v.some((x) => wrappedSecretPaths(x).length)) found.push(at);
  } else if (v && typeof v === "object") for (const [k, x] of Object.entries(v)) if (x && typeof x === "object") wrappedSecretPaths(x, [...at, k], found);
  return found;
}

/** `v` with the value at `path` wrapped; a value absent, null or already inside a secret stays as it is. */
function wrapAt(v: unknown, path: Path): unknown {
  if (v === undefined || v === null) return v;
  if (isMembers(v)) return wrapIn(v, path);
  return path.length === 0 && !isSecret(v) ? secret(v) : v;
}

/** Record `v` with the value at `path` wrapped (at `[]`, the record itself), as `wrapAt`. */
function wrapIn(v: Rec, path: Path): Rec {
  if (isSecret(v)) return v;
  if (path.length === 0) return secret(v);
  if (!(path[0] in v)) return v;
  return { ...v, [path[0]]: wrapAt(v[path[0]], path.slice(1)) };
}

/** `props` with the values at `paths` wrapped as secrets (an earlier path wins over one inside it). */
export function wrapSecrets(props: Rec, paths: readonly Path[]): Rec {
  return paths.reduce<Rec>(wrapIn, props);
}
