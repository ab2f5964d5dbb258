import { hasUnsafeChars, visible, withoutControls } from "../../api/text";

const PLAIN_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;

/**
 * `s` as one POSIX shell word: as it is when it holds only safe characters, else single-quoted.
 * Text with a line break or another unsafe character is refused: quoted or not, it would show as
 * a second line of the command.
 */
export function shellWord(s: string): string {
  if (PLAIN_WORD.test(s)) return s;
  if (hasUnsafeChars(s)) throw new Error(`refusing to write ${JSON.stringify(visible(s))} into a shell command: it holds control characters`);
  return `'${s.replace(/'/g, "'\\''")}'`;
}

/** `s` for a `#` comment at the end of a shell line: on that one line, unsafe characters escaped. */
export function shellComment(s: string): string {
  return withoutControls(s);
}
