/**
 * Request body validation with the shared strict zod schemas (api/bodies.ts): every zod issue
 * becomes a BadRequest field violation named by its camelCase path.
 */
import type { z } from "zod";
import type { FieldViolation } from "../api/codes";
import { fieldIssues } from "../api/issues";
import { UID } from "../api/uid";
import { invalidArgument, invalidField } from "./errors";

function violations(error: z.ZodError): FieldViolation[] {
  return fieldIssues(error).map((i) => ({ field: i.path.length ? i.path.map(String).join(".") : "body", description: i.missing ? "is required" : i.message }));
}

/** Parses `body` with `schema`, or throws INVALID_ARGUMENT listing every failed field. */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown, prefix = ""): z.infer<S> {
  const r = schema.safeParse(body ?? {});
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
