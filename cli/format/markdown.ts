import { visible } from "../../api/text";
import { type Shown, showText } from "../engine/shown";

/**
 * Markdown for reports posted as an issue or pull request comment, where every value, name and
 * map key may come from a hostile org or program. Each lands as one single-line code span its
 * content cannot close: CR, LF, controls, line separators and bidi characters are shown as escapes
 * (`\n`, `\u202e`; backslashes doubled, so an escape always means one), and the fence is one
 * backtick longer than the longest run inside, so `<!--`, `</details>`, `@someone` and `#123` stay
 * literal code. Table cells escape every `|` (with backslashes doubled, no `\|` in a value can
 * unescape it), so a value cannot split a row. Every line of output is one the formatter wrote.
 */

/** The most a GitHub comment holds; reports are cut to it (`capped`). */
export const COMMENT_LIMIT = 65_536;

/** The most of one value a report shows: longer ones are cut, saying how much is left out. */
export const VALUE_LIMIT = 1_000;

/** `s` as an inline code span its content cannot close or break onto a second line. */
export function code(s: string): string {
  const [head, cut] = shorten(s);
  const text = visible(head);
  if (text === "") return '`""`';
  const fence = "`".repeat(Math.max(0, ...(text.match(/`+/g) ?? []).map((r) => r.length)) + 1);
  // A span that starts or ends with a backtick, or starts and ends with a space, needs a space
  // either side: CommonMark strips exactly one from each end.
  const pad = /^[` ]|[` ]$/.test(text) ? " " : "";
  return `${fence}${pad}${text}${pad}${fence}${cut ? ` …(${cut} more characters)` : ""}`;
}

/** `s` cut to `VALUE_LIMIT` code points, and how many were left out. */
function shorten(s: string): [string, number] {
  if (s.length <= VALUE_LIMIT) return [s, 0];
  const points = [...s];
  return points.length <= VALUE_LIMIT ? [s, 0] : [points.slice(0, VALUE_LIMIT).join(""), points.length - VALUE_LIMIT];
}

/** A value as a code span in a table cell, `_none_` when absent. */
export function cell(v: Shown): string {
  if (v === undefined || v === null) return "_none_";
  return code(showText(v));
}

/**
 * Text the formatter did not write itself (a policy finding's message, a kind read from state) as
 * markdown prose: on one line, markdown punctuation escaped, and `@mentions` and `#123` kept in
 * code so they notify and link nobody.
 */
export function prose(s: string): string {
  return s
    .split(/([@#]\S+)/)
    .map((part, i) => (i % 2 ? code(part) : visible(part).replace(/[\\`*_[\]<>!&~|]/g, "\\$&")))
    .join("");
}

/** A markdown table: a header row, the separator, one row per entry; `|` escaped in every cell. */
export function table(header: string[], rows: string[][]): string {
  const line = (cols: string[]) => `| ${cols.map((c) => c.replace(/\|/g, "\\|")).join(" | ")} |`;
  return [line(header), line(header.map(() => "---")), ...rows.map(line)].join("\n");
}

/** A part of a capped report: optional heading lines, then entries (each a list of lines) counted as `unit`. */
export interface Section {
  heading?: string[];
  entries: string[][];
  /** What an entry is, singular: `change`, `finding`, `resource`. */
  unit: string;
}

/**
 * `head`, then as many whole entries of `sections` as fit, then `tail`, in at most `limit`
 * characters. When entries are left out, the last line says how many and `seeAll` (how to see them).
 */
export function capped(head: string[], sections: Section[], tail: string[], seeAll: string, limit = COMMENT_LIMIT): string {
  const out = [...head];
  let size = out.join("\n").length;
  const leftOut = new Map<string, number>();
  // Room kept for the tail and the note on what is left out.
  const reserve = tail.join("\n").length + 200 + seeAll.length;
  let full = false;
  for (const s of sections) {
    let headed = !s.heading;
    for (const e of s.entries) {
      const lines = headed ? ["", ...e] : ["", ...s.heading!, "", ...e];
      const add = lines.join("\n").length + 1;
      if (full || size + add + reserve > limit) {
        full = true;
        leftOut.set(s.unit, (leftOut.get(s.unit) ?? 0) + 1);
        continue;
      }
      out.push(...lines);
      size += add;
      headed = true;
    }
  }
  out.push(...tail);
  if (leftOut.size) {
    const counts = [...leftOut].map(([unit, n]) => `${n.toLocaleString("en-US")} ${unit}${n === 1 ? "" : "s"}`).join(", ");
    out.push("", `_Left out to keep this comment under ${limit.toLocaleString("en-US")} characters: ${counts}. ${seeAll}_`);
  }
  out.push("");
  return out.join("\n");
}

/** A collapsed section: `summary` shown, `body` (markdown) behind it. */
export function details(summary: string, body: string[]): string[] {
  return ["<details>", `<summary>${summary.replace(/[<>&]/g, (c) => `&#${c.charCodeAt(0)};`)}</summary>`, "", ...body, "", "</details>"];
}
