/** Query parameters that carry a v1 request's boolean members (`prevent_existing`, `exclude_dates`). */
import { invalidField } from "../../errors";
import type { RawQuery } from "../../list";
import { jsonName, parseBool } from "../../list/query";

/**
 * The boolean members `names` (proto names) of `query`, by proto name, given by proto or JSON name;
 * any other parameter is refused (`why`), as is a value other than one `true` or `false`.
 */
export function booleanParams(query: RawQuery, names: readonly string[], why: string): Record<string, boolean> {
  const out: Record<string, boolean> = {};
  for (const [k, v] of Object.entries(query)) {
    const name = names.find((n) => n === k || jsonName(n) === k);
    if (name === undefined) throw invalidField(k, why);
    const b = typeof v === "string" ? parseBool(v) : undefined;
    if (b === undefined) throw invalidField(k, 'must be "true" or "false", given once');
    out[name] = b;
  }
  return out;
}
