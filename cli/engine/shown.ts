/**
 * How `irv` shows a value: the markers for secrets and values known only after apply, and plain
 * text. Apart from values.ts, which derives the secret field names from the kinds' definitions
 * (and so loads zod), so that output formatting, and `irv <command> --help`, loads none of that.
 */

/** What every secret value is shown as. */
export const SECRET = "[secret]";

/** What a value the engine will only know after apply is shown as. */
export const KNOWN_AFTER_APPLY = "(known after apply)";

/** A leaf value as it is reported: masked when secret, `KNOWN_AFTER_APPLY` when not yet known. */
export type Shown = string | number | boolean | null | undefined | Shown[];

/** A shown value as plain text: `(none)` for absent, lists comma-separated, strings as they are. */
export function showText(v: Shown): string {
  if (v === undefined || v === null) return "(none)";
  if (Array.isArray(v)) return `[${v.map((x) => showText(x)).join(", ")}]`;
  return String(v);
}
