/**
 * What GitHub shows of a report posted as a comment: the markdown rendered as GitHub-flavoured
 * markdown (with `marked`, GFM on), then the text a reader sees without expanding anything, each
 * collapsed `<details>` reduced to its `<summary>`.
 */
import { marked } from "marked";

/** `markdown` rendered to HTML as GitHub-flavoured markdown. */
export function renderGfm(markdown: string): string {
  return marked.parse(markdown, { gfm: true, async: false });
}

/** The text of `html`, entities decoded, one line per block. */
export function textOf(html: string): string {
  return html
    .replace(/<\/t[dh]>\s*/g, " | ")
    .replace(/<\/(p|li|tr|h\d|summary|pre|details)>|<br\s*\/?>/g, "\n")
    .replace(/<[^>]+>/g, "")
    .replace(/&(#\d+|quot|amp|lt|gt|#39);/g, (_, e: string) =>
      e.startsWith("#") ? String.fromCharCode(Number(e.slice(1))) : ({ quot: '"', amp: "&", lt: "<", gt: ">" } as Record<string, string>)[e],
    )
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean)
    .join("\n");
}

/** What a reader sees of rendered `html` without expanding anything: every `<details>` reduced to its summary. */
export function visibleText(html: string): string {
  return textOf(html.replace(/<details>\s*<summary>([\s\S]*?)<\/summary>[\s\S]*?<\/details>/g, "<p>$1</p>"));
}

/** What is behind the collapsed sections of rendered `html`. */
export function collapsedText(html: string): string {
  return [...html.matchAll(/<details>\s*<summary>[\s\S]*?<\/summary>([\s\S]*?)<\/details>/g)].map((m) => textOf(m[1])).join("\n");
}
