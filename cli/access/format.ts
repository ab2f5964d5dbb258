/** `irv access` answers as a table for a terminal, JSON, or markdown for a comment. */
import { code, table } from "../format/markdown";
import type { AccessAnswer, CanIAnswer, Named, NamedGrant, WhatAnswer, WhoCanAnswer } from "./ask";

/** The output formats of `irv access`. */
export const ACCESS_FORMATS = ["table", "json", "markdown"] as const;
export type AccessFormat = (typeof ACCESS_FORMATS)[number];

/** A name with its uid beside it when they differ: `engineering (a1b2.../0123...)`. */
export function shown(n: Named): string {
  return n.uid && n.uid !== n.name ? `${n.name} (${n.uid})` : n.name;
}

const how = (g: NamedGrant) => (g.inherited ? "inherited" : "direct");
const verdict = { yes: "yes", no: "no", unknown: "cannot tell" } as const;

/** Renders an answer in `format`. */
export function formatAnswer(a: AccessAnswer, format: AccessFormat): string {
  if (format === "json") return JSON.stringify(a, null, 2);
  const md = format === "markdown";
  const lines = a.question === "can-i" ? canI(a, md) : a.question === "who-can" ? whoCan(a, md) : what(a, md);
  if (a.unseen.length) {
    lines.push("", md ? "**Not seen** (the answer leaves these out):" : "Not seen (the answer leaves these out):");
    for (const u of a.unseen) lines.push(`- ${u}`);
  }
  return lines.join("\n");
}

/** A plain-text table: columns padded to their widest cell. */
function grid(header: string[], rows: string[][]): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cols: string[]) =>
    cols
      .map((c, i) => c.padEnd(widths[i]))
      .join("  ")
      .trimEnd();
  return [line(header), ...rows.map(line)];
}

function rows(header: string[], body: string[][], md: boolean): string[] {
  return md
    ? [
        table(
          header,
          body.map((r) => r.map((c) => (c ? code(c) : ""))),
        ),
      ]
    : grid(header, body);
}

function canI(a: CanIAnswer, md: boolean): string[] {
  const q = `${shown(a.subject)} ${a.capability} on ${shown(a.group)}`;
  const out = [md ? `**${verdict[a.answer]}**: ${code(a.subject.name)} ${code(a.capability)} on ${code(a.group.name)}` : `${verdict[a.answer]}: ${q}`];
  if (a.subject.maybe) out.push(`${md ? "_Maybe_" : "maybe"}: the identity stands for ${a.subject.maybe}`);
  for (const g of a.grants) out.push(`  through binding ${g.binding.name} of role ${g.role.name} on ${g.at.name} (${how(g)})`);
  if (a.answer === "no") out.push("  no binding of this identity on the group or above it grants it");
  return out;
}

function whoCan(a: WhoCanAnswer, md: boolean): string[] {
  const head = `${a.grants.length} grant${a.grants.length === 1 ? "" : "s"} of ${a.capability} on ${shown(a.group)}`;
  if (a.grants.length === 0) return [md ? `**${head}**` : head];
  const body = a.grants.map((g) => [
    shown(g.subject),
    g.subject.maybe ? "maybe" : "",
    g.binding.name,
    g.role.name,
    shown(g.at),
    g.inherited ? "inherited" : "direct",
  ]);
  return [md ? `**${head}**` : head, "", ...rows(["IDENTITY", "MAYBE", "BINDING", "ROLE", "GRANTED ON", "HOW"], body, md)];
}

function what(a: WhatAnswer, md: boolean): string[] {
  const head = `${shown(a.subject)}: ${a.entries.length} binding${a.entries.length === 1 ? "" : "s"}`;
  const out = [md ? `**${head}**` : head];
  if (a.subject.maybe) out.push(`maybe: the identity stands for ${a.subject.maybe}`);
  if (a.entries.length === 0) return out;
  const caps = (e: WhatAnswer["entries"][number]) => (e.capabilities ? e.capabilities.join(",") : "(could not be read)");
  const body = a.entries.map((e) => [
    `${shown(e.group)}${e.below ? ` +${e.below} below` : ""}`,
    e.role.name,
    e.binding.name,
    `${caps(e)}${e.redundant ? " (held above too)" : ""}`,
  ]);
  return [...out, "", ...rows(["SUBTREE", "ROLE", "BINDING", "CAPABILITIES"], body, md)];
}
