import { type Shown, showText } from "../engine/values";

/**
 * Markdown pieces for reports meant to be posted as an issue or pull request comment: values in
 * table cells escaped so a `|` or a newline in a description cannot break the table.
 */

/** A value as an inline code span in a table cell, `_none_` when absent. */
export function cell(v: Shown): string {
  if (v === undefined || v === null) return "_none_";
  const text = showText(v).replace(/\|/g, "\\|").replace(/\r?\n/g, "<br>");
  if (text === "") return '`""`';
  // A code span cannot hold its own delimiter; fall back to plain escaped text.
  return text.includes("`") ? text.replace(/([`*_[\]<>])/g, "\\$1") : `\`${text}\``;
}

/** A markdown table: a header row, the separator, one row per entry. */
export function table(header: string[], rows: string[][]): string {
  const line = (cols: string[]) => `| ${cols.join(" | ")} |`;
  return [line(header), line(header.map(() => "---")), ...rows.map(line)].join("\n");
}

/** Inline code for a name or a uid. */
export function code(s: string): string {
  return s.includes("`") ? `\`\` ${s} \`\`` : `\`${s}\``;
}

/** A collapsed section: `summary` shown, `body` (markdown) behind it. */
export function details(summary: string, body: string[]): string[] {
  return ["<details>", `<summary>${summary.replace(/[<>&]/g, (c) => `&#${c.charCodeAt(0)};`)}</summary>`, "", ...body, "", "</details>"];
}
