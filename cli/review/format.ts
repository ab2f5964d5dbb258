import { cell, code, table } from "../format/markdown";
import { ACTIONS, type ReviewChange, type ReviewReport } from "./report";

/** The output formats `irv review` can print. */
export const REVIEW_FORMATS = ["markdown", "json"] as const;
/** One of `REVIEW_FORMATS`. */
export type ReviewFormat = (typeof REVIEW_FORMATS)[number];

/** Renders a review in `format`. */
export function formatReview(report: ReviewReport, format: ReviewFormat): string {
  return format === "json" ? JSON.stringify(report, null, 2) : markdown(report);
}

function markdown(r: ReviewReport): string {
  const out = [`## Pulumi preview for stack ${code(r.stack)}`, "", `**${r.summary}** (${r.unchanged} unchanged)`];
  if (r.changes.length === 0) out.push("", "No changes: applying this would do nothing.");
  for (const { action, title } of ACTIONS) {
    const group = r.changes.filter((c) => c.action === action);
    if (group.length === 0) continue;
    out.push("", `### ${title} (${group.length})`);
    for (const c of group) out.push("", ...entry(c));
  }
  out.push("");
  return out.join("\n");
}

function entry(c: ReviewChange): string[] {
  const head = `#### ${code(c.name)} (${c.kind})`;
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
