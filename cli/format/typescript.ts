import { escapeChar, UNSAFE_CHARS } from "../../api/text";

/**
 * Server text in generated TypeScript. It lands only as a string literal or inside a comment,
 * and only through these: line terminators (LF, CR, U+2028, U+2029), other controls and bidi
 * characters are `\u` escapes, so no text ends a `//` comment, starts a line of code, or
 * displays otherwise than it compiles ("Trojan Source").
 */

/** `s` as a TypeScript string literal: JSON's quoting, every unsafe character escaped. */
export function tsString(s: string): string {
  return JSON.stringify(s).replace(UNSAFE_CHARS, escapeChar);
}

/** `s` quoted for a `//` or `/* *\/` comment: a string literal whose `*\/` cannot close the comment. */
export function tsCommentText(s: string): string {
  return tsString(s).replace(/\*\//g, "*\\/");
}
