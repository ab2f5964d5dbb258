/**
 * Characters no text from the API may carry raw into anything `irv` or the provider writes:
 * controls (C0, DEL, C1: ESC, BEL, CR, the terminal's CSI), line and paragraph separators (a line
 * ending in JavaScript and in CommonMark), bidi overrides and isolates (text that displays
 * otherwise than it reads: "Trojan Source"), invisible joiners and the BOM, and lone surrogates.
 */
export const UNSAFE_CHARS =
  // eslint-disable-next-line no-control-regex -- control characters are what it replaces
  /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

const SHORT: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/** One unsafe character as a visible escape: `\n`, `\r`, `\t`, else `\uXXXX`. */
export function escapeChar(c: string): string {
  return SHORT[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;
}

/** True when `s` holds an unsafe character. */
export function hasUnsafeChars(s: string): boolean {
  UNSAFE_CHARS.lastIndex = 0;
  const found = UNSAFE_CHARS.test(s);
  UNSAFE_CHARS.lastIndex = 0;
  return found;
}

/**
 * `s` on one line with every unsafe character made a visible escape, and backslashes doubled so
 * an escape in the output always means one in the input: for terminals, messages and reports.
 */
export function visible(s: string): string {
  return s.replace(/\\/g, "\\\\").replace(UNSAFE_CHARS, escapeChar);
}

/** Like `visible`, but leaves backslashes alone: for messages where a doubled one would mislead. */
export function withoutControls(s: string): string {
  return s.replace(UNSAFE_CHARS, escapeChar);
}
