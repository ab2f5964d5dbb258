/**
 * Value helpers for check and diff: preview's unknown sentinel, normalisation that makes
 * API defaults compare equal to omitted inputs, and stripping `undefined` from outputs (the
 * provider host rejects it: "Unexpected struct type").
 */

import { unknownValue } from "../sentinels";
import type { Rec } from "./spec";

/** The value preview sends for an input that is not known yet (the engine's unknown sentinel). */
export const UNKNOWN: string = unknownValue;

/** True when `v` is, or contains, preview's unknown sentinel. */
export function containsUnknown(v: unknown): boolean {
  if (v === UNKNOWN) return true;
  if (Array.isArray(v)) return v.some(containsUnknown);
  if (v && typeof v === "object") return Object.values(v).some(containsUnknown);
  return false;
}

/** True when the value at `path` in `obj`, or any value on the way to it, is unknown. */
export function unknownAlong(obj: unknown, path: readonly PropertyKey[]): boolean {
  let cur: unknown = obj;
  if (cur === UNKNOWN) return true;
  for (const key of path) {
    if (cur === null || typeof cur !== "object") return false;
    cur = (cur as Record<PropertyKey, unknown>)[key];
    if (cur === UNKNOWN) return true;
  }
  return false;
}

/** A block's values (or any object): what a diff looks into member by member. */
export const isRecord = (v: unknown): v is Rec => typeof v === "object" && v !== null;

/** True for values that mean "not set": undefined, null, "", [] and {}. */
export function isEmpty(v: unknown): boolean {
  if (v === undefined || v === null || v === "") return true;
  if (Array.isArray(v)) return v.length === 0;
  if (typeof v === "object") return Object.values(v).every((x) => x === undefined);
  return false;
}

/** An RFC 3339 timestamp, as protojson writes one (0 to 9 fractional digits). */
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/;

/**
 * A canonical form for comparison: empty members dropped, members in key order. Members at their
 * proto zero value (`false`, an enum's `*_UNSPECIFIED`), which the platform's gateway writes for
 * what was never set, count as empty; timestamps compare as instants (`...00Z` is `...00.000Z`).
 * Lists keep their order: which of a kind's lists are sets is its definition's to say, and a diff
 * compares a field's values in the form `canonicalOf` (api/kinds/order.ts) gives them first.
 */
export function normalize(v: unknown): unknown {
  if (typeof v === "string" && TIMESTAMP.test(v)) return new Date(v).toISOString();
  if (Array.isArray(v)) return v.map(normalize);
  if (v && typeof v === "object") {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) {
      const x = normalize((v as Record<string, unknown>)[k]);
      if (!isEmpty(x) && x !== false && !(typeof x === "string" && x.endsWith("_UNSPECIFIED"))) out[k] = x;
    }
    return out;
  }
  return v;
}

/** Deep equality of normalised values. */
export function same(a: unknown, b: unknown): boolean {
  // The common case in a diff with no change, and in a refresh: the very same value.
  if (a === b) return true;
  const canon = (v: unknown) => {
    const n = normalize(v);
    return isEmpty(n) ? undefined : JSON.stringify(n);
  };
  return canon(a) === canon(b);
}

/**
 * `v` without the members that mean "not set" (`""`, `[]`, `{}`, null), at any depth: what the
 * API fills in for an omitted optional field, which a program that omits it must not see.
 */
export function withoutEmpty<T>(v: T): T {
  if (Array.isArray(v)) return v.map(withoutEmpty) as T;
  if (v && typeof v === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) if (!isEmpty(normalize(x))) out[k] = withoutEmpty(x);
    return out as T;
  }
  return v;
}

/** `v` without `undefined` anywhere (members dropped, array slots become null). */
export function clean<T>(v: T): T {
  if (Array.isArray(v)) return v.map((x) => (x === undefined ? null : clean(x))) as T;
  if (v && typeof v === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) if (x !== undefined) out[k] = clean(x);
    return out as T;
  }
  return v;
}
