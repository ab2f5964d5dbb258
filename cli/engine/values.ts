/**
 * Values as the engine reports them in step events, and how `irv` shows them: secrets masked,
 * unknowns named, nested objects flattened into dotted field paths so a table row names exactly
 * the field that differs.
 */
import { KINDS, secretPaths as declaredSecretPaths } from "../../api/kinds";
import { SECRET_SETTINGS } from "../../client/config";
import { specialSecretSig, specialSigKey, unknownValue } from "../../provider/sentinels";
import { KNOWN_AFTER_APPLY, SECRET, type Shown } from "./shown";

export { KNOWN_AFTER_APPLY, SECRET, showText, type Shown } from "./shown";

/** The engine's marker for a value not known during preview. */
export const UNKNOWN: string = unknownValue;

/** Names a value is secret by in any tool's properties, beyond what the definitions and settings say. */
const GENERIC_SECRET_NAMES = ["secret", "password"];

/**
 * Field names whose values are secret whatever the state says: the kinds' secret fields and
 * members (an invite's `code`, an identity provider's `clientSecret`), the secret settings
 * (`token`, `identityToken`), and generic names. Matched against the last segment of a field path.
 */
export const SECRET_FIELD_NAMES: ReadonlySet<string> = new Set([
  ...KINDS.flatMap((d) => declaredSecretPaths(d).map((p) => p[p.length - 1])),
  ...SECRET_SETTINGS,
  ...GENERIC_SECRET_NAMES,
]);

/**
 * Fields `irv` never reports: the serialized provider, the SDK's hidden timeouts, the adoption
 * input, the uid (the resource's id), and timestamps the
 * API moves on every write (their change is not a change anyone made to the resource).
 */
export const IGNORED_FIELDS: ReadonlySet<string> = new Set(["__provider", "__timeouts", "adoptUid", "uid", "createTime", "updateTime", "lastSeenTime"]);

/**
 * A value of a decrypted state export (`stack.exportStack()`) with its secret envelope
 * (`{<sig>, plaintext: "<json>"}`) opened. For comparisons in memory only: never print it.
 */
export function openedSecret(v: unknown): unknown {
  if (v && typeof v === "object" && specialSigKey in v && "plaintext" in v) return JSON.parse(String((v as { plaintext: unknown }).plaintext));
  return v;
}

/** `v` with every secret envelope of a decrypted state export opened, at any depth (see openedSecret). */
export function openedSecrets(v: unknown): unknown {
  const x = openedSecret(v);
  if (Array.isArray(x)) return x.map(openedSecrets);
  if (x && typeof x === "object") return Object.fromEntries(Object.entries(x).map(([k, y]) => [k, openedSecrets(y)]));
  return x;
}

/** True when `v` is a secret as the engine serializes it in events. */
export function isSecretValue(v: unknown): boolean {
  return typeof v === "object" && v !== null && (v as Record<string, unknown>)[specialSigKey] === specialSecretSig;
}

/** True when the field at `path` holds a secret by name (`oidc.clientSecret`, `token`, ...). */
export function isSecretPath(path: string): boolean {
  return SECRET_FIELD_NAMES.has(path.slice(path.lastIndexOf(".") + 1));
}

/**
 * Flattens an engine property map into `path -> value`: objects recurse (`claimMatch.subject`),
 * arrays and scalars are leaves, secrets become `SECRET` whatever their shape.
 */
export function flatten(value: unknown, prefix = ""): Map<string, Shown> {
  const out = new Map<string, Shown>();
  const walk = (v: unknown, path: string) => {
    if (path && isSecretPath(path)) {
      if (v !== undefined && v !== null && v !== "") out.set(path, SECRET);
      return;
    }
    if (isSecretValue(v)) return void out.set(path, SECRET);
    if (v === UNKNOWN) return void out.set(path, KNOWN_AFTER_APPLY);
    if (Array.isArray(v))
      return void out.set(
        path,
        v.map((x) => leaf(x)),
      );
    if (typeof v === "object" && v !== null) {
      const entries = Object.entries(v);
      if (entries.length === 0 && path) out.set(path, undefined);
      for (const [k, x] of entries) walk(x, path ? `${path}.${k}` : k);
      return;
    }
    out.set(path, v as Shown);
  };
  walk(value, prefix);
  return out;
}

function leaf(v: unknown): Shown {
  if (isSecretValue(v)) return SECRET;
  if (v === UNKNOWN) return KNOWN_AFTER_APPLY;
  if (typeof v === "object" && v !== null) return JSON.stringify(v);
  return v as Shown;
}

/** One field that differs: its dotted path, and its value on each side (undefined = absent). */
export interface FieldChange {
  path: string;
  before: Shown;
  after: Shown;
}

/** True when two shown values are the same (an absent value equals an empty string or list). */
function same(a: Shown, b: Shown): boolean {
  const empty = (x: Shown) => x === undefined || x === null || x === "" || (Array.isArray(x) && x.length === 0);
  if (empty(a) && empty(b)) return true;
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * The fields that differ between two property maps, restricted to top-level `keys` when given,
 * in path order. Ignored fields (`IGNORED_FIELDS`) are skipped. Two secrets compare equal: the
 * engine never shows their plaintext, so a changed secret cannot be told from an unchanged one.
 */
export function diffFields(before: object | undefined, after: object | undefined, keys?: Iterable<string>): FieldChange[] {
  const only = keys ? new Set(keys) : undefined;
  const a = flatten(before ?? {});
  const b = flatten(after ?? {});
  const paths = [...new Set([...a.keys(), ...b.keys()])].sort();
  const changes: FieldChange[] = [];
  for (const path of paths) {
    const top = path.split(".")[0];
    if (IGNORED_FIELDS.has(top) || (only && !only.has(top))) continue;
    const x = a.get(path);
    const y = b.get(path);
    if (!same(x, y)) changes.push({ path, before: x, after: y });
  }
  return changes;
}

/** The top-level property names a resource declares, less the ones `irv` ignores. */
export function declaredFields(...maps: (object | undefined)[]): string[] {
  const keys = new Set<string>();
  for (const m of maps) for (const k of Object.keys(m ?? {})) if (!IGNORED_FIELDS.has(k)) keys.add(k);
  return [...keys].sort();
}

/** The field paths of `obj` that hold secrets (masked, so their change cannot be seen). */
export function secretPaths(obj: object | undefined): string[] {
  return [...flatten(obj ?? {})].filter(([p, v]) => v === SECRET && !IGNORED_FIELDS.has(p.split(".")[0])).map(([p]) => p);
}
