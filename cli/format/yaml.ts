import { escapeChar, UNSAFE_CHARS } from "../../api/text";

/**
 * `s` as a YAML double-quoted scalar on one line: JSON's escapes are YAML's too, and every
 * unsafe character (YAML also breaks lines at NEL, U+2028 and U+2029) is a `\u` escape, so no
 * text can end the scalar or add a key. A lone surrogate, which YAML cannot hold, becomes U+FFFD.
 */
export function yamlString(s: string): string {
  return JSON.stringify(s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "\ufffd")).replace(UNSAFE_CHARS, escapeChar);
}
