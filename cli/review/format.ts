import type { Finding } from "../../policy/world";
import { capped, cell, code, prose, table, type Section } from "../format/markdown";
import { plain, quoted } from "../format/terminal";
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
  const lines = [`Stack ${plain(r.stack)}: ${plain(r.summary)} (${r.unchanged} unchanged)`];
  const policy = policyLine(r);
  if (policy) lines.push(policy);
  for (const c of r.changes) {
    const why = c.action === "replace" ? `: replaced because ${plain(c.replaceBecause.join(", "))} changed` : "";
    lines.push("", `${SIGN[c.action]} ${c.action} ${plain(c.name)} (${plain(c.kind)}${c.uid ? `, uid ${plain(c.uid)}` : ""})${why}`);
    for (const f of c.fields) {
      if (c.action === "create" || c.action === "adopt") lines.push(`    ${plain(f.path)}: ${quoted(f.after)}`);
      else lines.push(`    ${plain(f.path)}: ${quoted(f.before)} -> ${quoted(f.after)}`);
    }
    for (const f of c.findings) lines.push(`  ! ${findingText(f)}`);
  }
  const rest = unchangedFindings(r);
  if (rest.length) {
    lines.push("", "Policy findings on unchanged resources:");
    for (const f of rest) lines.push(`  ! ${plain(f.name)} (${plain(f.kind)}): ${findingText(f)}`);
  }
  return lines.join("\n");
}

function findingText(f: Finding): string {
  return plain(`[${f.enforcementLevel}] ${f.rule}: ${f.message}. Fix: ${f.fix}`);
}
