/**
 * What a CommonMark/GFM renderer makes of one line of a report, as far as tests of hostile text
 * need it: the code spans (backtick runs matched by length, as CommonMark does) and the text
 * outside them (backslash escapes applied), and, for a table row, its cells as GFM splits them
 * (at every `|` not escaped by a backslash).
 */
export interface Line {
  /** The text outside code spans, escapes applied. */
  text: string;
  /** The contents of the code spans. */
  spans: string[];
}

export function inline(line: string): Line {
  let text = "";
  const spans: string[] = [];
  for (let i = 0; i < line.length;) {
    const c = line[i];
    if (c === "\\" && i + 1 < line.length && /[!-/:-@[-`{-~]/.test(line[i + 1])) {
      text += line[i + 1];
      i += 2;
      continue;
    }
    if (c !== "`") {
      text += c;
      i++;
      continue;
    }
    const run = /^`+/.exec(line.slice(i))![0];
    // The closer is the next run of exactly the same length.
    const close = new RegExp(`(?<!\`)${run}(?!\`)`, "g");
    close.lastIndex = i + run.length;
    const m = close.exec(line);
    if (!m) {
      text += run;
      i += run.length;
      continue;
    }
    spans.push(line.slice(i + run.length, m.index));
    i = m.index + run.length;
  }
  return { text, spans };
}

/** A table row's cells, split where GFM splits them; undefined when `line` is not a row. */
export function cells(line: string): string[] | undefined {
  if (!line.startsWith("|")) return undefined;
  return line
    .slice(1, -1)
    .split(/(?<!\\)\|/)
    .map((c) => c.trim().replace(/\\\|/g, "|"));
}
