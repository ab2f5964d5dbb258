import type { z } from "zod";

/** One failed field of a zod parse: its path (as the schema names it) and what is wrong. */
export interface FieldIssue {
  path: PropertyKey[];
  message: string;
  /** The field is absent (zod says "received undefined"). */
  missing: boolean;
}

/**
 * The fields a zod error names, one issue per field: a strict object's unknown keys, which zod
 * reports together at the object's path, become one "is not a known field" each. The server
 * (BadRequest violations) and the provider's `check` (failures) both read these.
 */
export function fieldIssues(error: z.ZodError): FieldIssue[] {
  const out: FieldIssue[] = [];
  for (const issue of error.issues) {
    if (issue.code === "unrecognized_keys") {
      for (const k of issue.keys) out.push({ path: [...issue.path, k], message: "is not a known field", missing: false });
      continue;
    }
    const missing = issue.code === "invalid_type" && /received undefined/.test(issue.message);
    out.push({ path: issue.path, message: issue.message, missing });
  }
  return out;
}
