/**
 * Request body validation with the shared strict zod schemas (api/bodies.ts): every zod issue
 * becomes a BadRequest field violation named by its camelCase path.
 */
import type { z } from "zod";
import type { FieldViolation } from "../api/codes";
import { fieldIssues } from "../api/issues";
import { withoutNulls } from "../api/kinds";
import { UID } from "../api/uid";
import { invalidArgument, invalidField } from "./errors";

function violations(error: z.ZodError): FieldViolation[] {
  return fieldIssues(error).map((i) => ({ field: i.path.length ? i.path.map(String).join(".") : "body", description: i.missing ? "is required" : i.message }));
}

/** `v` without the members at `path` named `keys` (a copy along the path). */
function without(v: unknown, path: readonly PropertyKey[], keys: readonly string[]): unknown {
  if (typeof v !== "object" || v === null) return v;
  const copy = (Array.isArray(v) ? [...v] : { ...v }) as Record<PropertyKey, unknown>;
  if (path.length === 0) for (const k of keys) delete copy[k];
  else copy[path[0]] = without(copy[path[0]], path.slice(1), keys);
  return copy;
}

/**
 * Parses `body` with `schema`, or throws INVALID_ARGUMENT listing every failed field. Null
 * members are unset ones (protojson's reading); a null inside a list is still refused. Members the
 * schema does not know are discarded at any depth, as the platform's gateway discards them
 * (protojson's DiscardUnknown): the schemas stay strict for the provider's check, which names a
 * misspelt input at preview.
 */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown, prefix = ""): z.infer<S> {
  // A null member is an unset one, as protojson (and so the gateway) reads it: `"chart": null`
  // in a Terraform state's charts, `"description": null`.
  let input: unknown = withoutNulls(body ?? {});
  let r = schema.safeParse(input);
  // Each round removes every unknown member zod reported (a member inside one it removed shows
  // up on a later round only if its parent stays); bounded, as a body's nesting is.
  for (let round = 0; round < 8 && !r.success && r.error.issues.some((i) => i.code === "unrecognized_keys"); round++) {
    for (const i of r.error.issues) if (i.code === "unrecognized_keys") input = without(input, i.path, i.keys);
    r = schema.safeParse(input);
  }
  if (r.success) return r.data;
  const v = violations(r.error);
  throw invalidArgument(prefix ? v.map((x) => ({ ...x, field: x.field === "body" ? prefix : `${prefix}.${x.field}` })) : v);
}

/**
 * A uid from a path (already percent-decoded once by the router: `%2F` is `/`; decoding again
 * would make `%252F` a `/` too), or INVALID_ARGUMENT naming `field`.
 */
export function parseUid(raw: string, field = "uid"): string {
  if (!UID.test(raw)) throw invalidField(field, "must be a uid: 40 hex characters, then /-separated 16-hex segments");
  return raw;
}
