import { withoutControls } from "../../api/text";
import { type Shown, showText, KNOWN_AFTER_APPLY, SECRET } from "../engine/shown";

/**
 * Text for a terminal, where names, values, map keys and server messages may come from a hostile
 * org: no raw ESC, BEL, CR, CSI, line separator or bidi character reaches it (each is shown as an
 * escape, `\u001b`), so nothing can move the cursor, rewrite a line or retitle the window.
 */
export function forTerminal(s: string): string {
  return withoutControls(s);
}

/** A shown value for a terminal: strings quoted as JSON, markers and other values as they read. */
export function quoted(v: Shown): string {
  return forTerminal(typeof v === "string" && v !== SECRET && v !== KNOWN_AFTER_APPLY ? JSON.stringify(v) : showText(v));
}

/** Whole output for a terminal: lines kept, every other unsafe character escaped (JSON stays JSON). */
export function terminalText(text: string): string {
  return text.split("\n").map(forTerminal).join("\n");
}
