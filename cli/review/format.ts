import type { Finding } from "../../policy/world";
import { capped, cell, code, details, prose, table, type Section } from "../format/markdown";
import { forTerminal, quoted } from "../format/terminal";
import { outsideMarkdown, outsideText } from "../drift/format";
import { sentence, type AccessChange, type AccessEntry } from "./access";
import { ACTIONS, type ReviewChange, type ReviewReport } from "./report";

/** The output formats `irv review` can print. */
export const REVIEW_FORMATS = ["markdown", "json", "text"] as const;
/** One of `REVIEW_FORMATS`. */
export type ReviewFormat = (typeof REVIEW_FORMATS)[number];

/** Renders a review in `format`. */
export function formatReview(report: ReviewReport, format: ReviewFormat): string {
  return format === "json" ? JSON.stringify(report, null, 2) : format === "text" ? text(report) : markdown(report);
}

/** `Policy: 1 mandatory, 2 advisory findings`, or undefined when the policy is off. */
function policyLine(r: ReviewReport): string | undefined {
  if (!r.policy) return undefined;
  const { mandatory, advisory } = r.policy;
  if (mandatory + advisory === 0) return "Policy: no findings (IAM guardrails)";
  return `Policy: ${mandatory} mandatory, ${advisory} advisory finding${mandatory + advisory === 1 ? "" : "s"} (IAM guardrails)`;
}

/** The findings on resources the change leaves as they are (no entry to list them beside). */
function unchangedFindings(r: ReviewReport): Finding[] {
  const changed = new Set(r.changes.map((c) => c.urn));
  return (r.policy?.findings ?? []).filter((f) => !changed.has(f.urn));
}

function markdown(r: ReviewReport): string {
  const head = [`## Pulumi preview for stack ${code(r.stack)}`, "", `**${prose(r.summary)}** (${r.unchanged} unchanged)`];
  const policy = policyLine(r);
  if (policy) head.push("", r.policy!.mandatory ? `**${policy}**: a mandatory finding blocks this change.` : policy);
  // The access change and access made outside the stack come first, each bounded on its own.
  if (r.access) head.push("", ...accessMarkdown(r.access));
  head.push(...outsideMarkdown(r.outside));
  if (r.changes.length === 0) head.push("", "No changes: applying this would do nothing.");
  const sections: Section[] = [];
  for (const { action, title } of ACTIONS) {
    const group = r.changes.filter((c) => c.action === action);
    if (group.length) sections.push({ heading: [`### ${title} (${group.length})`], entries: group.map(entry), unit: "change" });
  }
  const rest = unchangedFindings(r);
  if (rest.length)
    sections.push({
      heading: [`### Policy findings on unchanged resources (${rest.length})`],
      entries: rest.map((f) => [`- ${code(f.name)} (${prose(f.kind)}): ${findingMarkdown(f)}`]),
      unit: "finding",
    });
  return capped(head, sections, [], "`irv review --format json` lists everything.");
}

/** A finding: its message is data (it quotes names and values); its fix is the rule's own markdown (policy/rules.ts). */
function findingMarkdown(f: Finding): string {
  return `**${prose(f.enforcementLevel)}** ${code(f.rule)}: ${prose(f.message)}. _Fix_: ${f.fix}`;
}

/** A change's entry, its policy findings quoted below it, one paragraph each. */
function entry(c: ReviewChange): string[] {
  const lines = entryBody(c);
  c.findings.forEach((f, i) => lines.push(i ? ">" : "", `> **Policy** ${findingMarkdown(f)}`));
  return lines;
}

function entryBody(c: ReviewChange): string[] {
  const head = `#### ${code(c.name)} (${prose(c.kind)})`;
  if (c.action === "delete") return [`${head}`, "", `uid ${code(c.uid)} will be deleted.`];
  const lines: string[] = [];
  if (c.action === "replace") {
    lines.push(
      `${head}: replaced because ${c.replaceBecause.map(code).join(", ") || "the provider requires it"} changed`,
      "",
      `> **Replacement**: uid ${code(c.uid)} is deleted and a new resource is created with a new uid. ` +
        "Anything outside this stack that refers to the old uid stops working.",
    );
  } else if (c.action === "adopt") {
    lines.push(
      `${head}: adopts uid ${code(c.uid)}`,
      "",
      "> **Adoption**: the existing resource is checked (it exists, under the declared parent) and updated to the values below; " +
        "nothing is created and its uid stays. `pulumi preview` lists it as a create.",
    );
  } else lines.push(c.uid ? `${head}, uid ${code(c.uid)}` : head);
  if (c.fields.length === 0) return [...lines, "", "_No field-level changes reported._"];
  lines.push("");
  if (c.action === "create" || c.action === "adopt") lines.push(table(["field", "value"], c.fields.map((f) => [code(f.path), cell(f.after)])));
  else if (c.action === "update") lines.push(table(["field", "before", "after"], c.fields.map((f) => [code(f.path), cell(f.before), cell(f.after)])));
  else {
    const forces = (path: string) => (c.replaceBecause.includes(path.split(".")[0]) ? "**forces replacement**" : "");
    lines.push(table(["field", "before", "after", ""], c.fields.map((f) => [code(f.path), cell(f.before), cell(f.after), forces(f.path)])));
  }
  return lines;
}

/** The sign of each action in text output. */
const SIGN = { create: "+", adopt: "=", update: "~", replace: "+-", delete: "-" } as const;

function text(r: ReviewReport): string {
  const lines = [`Stack ${forTerminal(r.stack)}: ${forTerminal(r.summary)} (${r.unchanged} unchanged)`];
  const policy = policyLine(r);
  if (policy) lines.push(policy);
  if (r.access) {
    lines.push(accessLine(r.access));
    for (const [verb, list] of [["gains", r.access.gained], ["loses", r.access.lost]] as const)
      for (const e of list) lines.push(`  ${verb === "gains" ? "+" : "-"} ${sentence(e, verb)}${e.subject.maybe ? ` (maybe: ${e.subject.maybe})` : ""}`);
    for (const u of [...r.access.unknown, ...r.access.unseen]) lines.push(`  ? ${u}`);
  }
  lines.push(...outsideText(r.outside));
  for (const c of r.changes) {
    const why = c.action === "replace" ? `: replaced because ${forTerminal(c.replaceBecause.join(", "))} changed` : "";
    lines.push("", `${SIGN[c.action]} ${c.action} ${forTerminal(c.name)} (${forTerminal(c.kind)}${c.uid ? `, uid ${forTerminal(c.uid)}` : ""})${why}`);
    for (const f of c.fields) {
      if (c.action === "create" || c.action === "adopt") lines.push(`    ${forTerminal(f.path)}: ${quoted(f.after)}`);
      else lines.push(`    ${forTerminal(f.path)}: ${quoted(f.before)} -> ${quoted(f.after)}`);
    }
    for (const f of c.findings) lines.push(`  ! ${findingText(f)}`);
  }
  const rest = unchangedFindings(r);
  if (rest.length) {
    lines.push("", "Policy findings on unchanged resources:");
    for (const f of rest) lines.push(`  ! ${forTerminal(f.name)} (${forTerminal(f.kind)}): ${findingText(f)}`);
  }
  return lines.join("\n");
}

function findingText(f: Finding): string {
  return forTerminal(`[${f.enforcementLevel}] ${f.rule}: ${f.message}. Fix: ${f.fix}`);
}

/** How many entries the markdown spells out, and in how many characters at most; the JSON output carries them all. */
const ACCESS_SHOWN = 100;
const ACCESS_CHARS = 20_000;

/** `Access: 3 grants gained by 2 identities, 1 lost by 1 identity`. */
function accessLine(a: AccessChange): string {
  const side = (list: AccessEntry[], verb: string) => {
    const who = new Set(list.map((e) => e.subject.key)).size;
    return `${list.length} grant${list.length === 1 ? "" : "s"} ${verb}${list.length ? ` by ${who} identit${who === 1 ? "y" : "ies"}` : ""}`;
  };
  if (!a.gained.length && !a.lost.length && !a.unknown.length) return "Access: no change in who can do what";
  return `Access: ${side(a.gained, "gained")}, ${side(a.lost, "lost")}${a.unknown.length ? `, ${a.unknown.length} unknown` : ""}`;
}

/** The access change: the counts first, then each identity's gains and losses collapsed, bounded in size. */
function accessMarkdown(a: AccessChange): string[] {
  const out = [`### Access change`, "", `**${accessLine(a)}**`];
  let budget = ACCESS_SHOWN;
  let chars = ACCESS_CHARS;
  for (const [verb, list] of [["gains", a.gained], ["loses", a.lost]] as const) {
    const bySubject = new Map<string, AccessEntry[]>();
    for (const e of list) bySubject.set(e.subject.key, [...(bySubject.get(e.subject.key) ?? []), e]);
    let left = list.length;
    for (const entries of bySubject.values()) {
      const s = entries[0].subject;
      const body: string[] = [];
      let shown = 0;
      for (const e of entries) {
        const line = `- ${sentence(e, verb, code)}`;
        if (budget <= 0 || line.length > chars) break;
        body.push(line);
        budget--, shown++, (chars -= line.length);
      }
      if (shown === 0) break;
      left -= shown;
      const caps = new Set(entries.flatMap((e) => e.capabilities)).size;
      if (shown < entries.length) body.push(`- and ${entries.length - shown} more`);
      if (s.maybe) body.unshift(`_Maybe_: ${code(s.name)} stands for ${code(s.maybe)}.`, "");
      out.push("", ...details(`${s.name}${s.uid ? ` (${s.uid})` : ""} ${verb} ${caps} capabilit${caps === 1 ? "y" : "ies"}${s.maybe ? " (maybe)" : ""}`, body));
    }
    if (left > 0) out.push("", `_${left} more grant${left === 1 ? "" : "s"} ${verb === "gains" ? "gained" : "lost"}: see \`--format json\`._`);
  }
  const notes = [...a.unknown, ...a.unseen];
  if (notes.length) out.push("", `**Not known** (${notes.length}):`, "", ...notes.slice(0, 20).map((n) => `- ${code(n.length > 300 ? `${n.slice(0, 300)}...` : n)}`), ...(notes.length > 20 ? [`- and ${notes.length - 20} more`] : []));
  return out;
}
