/**
 * Partial updates (PATCH), per the spec:
 * - without `updateMask`: only the fields present in the body change;
 * - with `updateMask` (or `update_mask`; comma-separated proto field names, dotted for nested
 *   fields: `claim_match`, `oidc.client_secret`, as the platform's gateway passes them on): only
 *   the listed fields change, other body fields are ignored, and a listed field absent from the
 *   body is cleared. `*` lists every updatable field: the body replaces the resource. An unknown
 *   path, or a field's JSON name where its proto name differs (`claimMatch`), is INVALID_ARGUMENT.
 * Other query parameters are ignored, as the gateway ignores them.
 * The patched value is then validated as a whole (with the create schema), so a clear that
 * leaves a required field empty is refused and nothing changes.
 */
import { z } from "zod";
import { isObject } from "../api/guards";
import { camelOf, snakeOf } from "../api/kinds";
import { invalidField } from "./errors";
import type { RawQuery } from "./list";

type Obj = Record<string, unknown>;

function unwrap(s: z.ZodType): z.ZodType {
  let cur: z.ZodType = s;
  while (cur instanceof z.ZodOptional || cur instanceof z.ZodDefault || cur instanceof z.ZodNullable) cur = (cur as z.ZodOptional<z.ZodType>).unwrap();
  return cur;
}

/**
 * The mask paths an update schema accepts: its fields, plus `field.sub` for each of the `nested`
 * object fields whose update body is partial (e.g. an IdP's `oidc`).
 */
export function maskPaths(schema: z.ZodObject, nested: string[] = []): Set<string> {
  const out = new Set<string>();
  for (const [k, v] of Object.entries(schema.shape)) {
    out.add(k);
    const inner = unwrap(v as z.ZodType);
    if (nested.includes(k) && inner instanceof z.ZodObject) for (const sub of Object.keys(inner.shape)) out.add(`${k}.${sub}`);
  }
  return out;
}

/** The part of a PATCH body the mask names: fields outside the mask are ignored, not validated. */
export function maskedBody(body: unknown, mask: string[] | undefined): unknown {
  if (!mask || !isObject(body)) return body;
  const heads = new Set(mask.map((p) => p.split(".")[0]));
  return Object.fromEntries(Object.entries(body).filter(([k]) => heads.has(k)));
}

/** A wire (JSON) path as the proto path a mask names it by: `oidc.clientSecret` -> `oidc.client_secret`. */
const protoPath = (p: string) => p.split(".").map(snakeOf).join(".");

/**
 * The update mask of a PATCH query (`updateMask` or `update_mask`, proto paths), as the wire
 * (JSON) paths of `allowed` the model applies; undefined when absent or empty.
 */
export function parseMask(query: RawQuery, allowed: Set<string>): string[] | undefined {
  const raw = query.updateMask ?? query.update_mask;
  if (raw === undefined) return undefined;
  if (Array.isArray(raw) || (query.updateMask !== undefined && query.update_mask !== undefined))
    throw invalidField("update_mask", "must be given once, as comma-separated field paths");
  const paths = raw
    .split(",")
    .map((p) => p.trim())
    .filter((p) => p !== "");
  // An empty mask is no mask (AIP-134): the fields present in the body change.
  if (paths.length === 0) return undefined;
  // Every updatable field: the body replaces the resource (absent fields are cleared).
  if (paths.length === 1 && paths[0] === "*") return [...allowed].filter((p) => !p.includes("."));
  const known = () => [...allowed].map(protoPath).join(", ");
  return paths.map((p) => {
    const wire = p.split(".").map(camelOf).join(".");
    if (allowed.has(wire) && protoPath(wire) === p) return wire;
    if (allowed.has(p)) throw invalidField("update_mask", `"${p}" is a JSON name: mask paths are proto field names ("${protoPath(p)}")`);
    throw invalidField("update_mask", `unknown field path "${p}"; updatable paths: ${known()}`);
  });
}

/**
 * The value after applying `body` to `current` under `mask`. `mergeKeys` name object fields that
 * merge (rather than replace) when patched without a mask.
 */
export function applyPatch(current: Obj, body: Obj, mask: string[] | undefined, mergeKeys: string[] = []): Obj {
  const next: Obj = structuredClone(current);
  if (!mask) {
    for (const [k, v] of Object.entries(body)) {
      if (v === undefined) continue;
      next[k] = mergeKeys.includes(k) && isObject(v) && isObject(next[k]) ? { ...next[k], ...v } : structuredClone(v);
    }
    return next;
  }
  for (const path of mask) {
    const [head, sub] = path.split(".");
    if (sub === undefined) {
      if (body[head] === undefined) delete next[head];
      else next[head] = structuredClone(body[head]);
      continue;
    }
    const from = isObject(body[head]) ? body[head][sub] : undefined;
    const target: Obj = isObject(next[head]) ? next[head] : {};
    if (from === undefined) delete target[sub];
    else target[sub] = structuredClone(from);
    next[head] = target;
  }
  return next;
}

/** Fields a v1 PATCH leaves alone when omitted: write-only secrets, which a client cannot echo back. */
const KEPT_WHEN_OMITTED = new Set(["oidc.clientSecret"]);

/**
 * The update mask that gives v1's PATCH rule (every updatable field is replaced, so an omitted
 * field is reset): each top-level path, or for objects the mask lists member by member, each
 * member, except write-only members the body omits.
 */
export function resetMask(paths: Set<string>, body: unknown): string[] {
  const nested = new Set([...paths].filter((p) => p.includes(".")).map((p) => p.split(".")[0]));
  const given = (p: string) => {
    const [head, sub] = p.split(".");
    const v = isObject(body) ? body[head] : undefined;
    return isObject(v) && v[sub] !== undefined;
  };
  return [...paths].filter((p) => (p.includes(".") ? !KEPT_WHEN_OMITTED.has(p) || given(p) : !nested.has(p)));
}
