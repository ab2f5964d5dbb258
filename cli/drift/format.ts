import { capped, cell, code, prose, table } from "../format/markdown";
import { plain, quoted } from "../format/terminal";
import type { DriftedResource, DriftReport } from "./report";

/** The output formats `irv drift` can print. */
export const DRIFT_FORMATS = ["text", "markdown", "json"] as const;
/** One of `DRIFT_FORMATS`. */
export type DriftFormat = (typeof DRIFT_FORMATS)[number];

/** Renders a drift report in `format`. */
export function formatDrift(report: DriftReport, format: DriftFormat): string {
  if (format === "json") return JSON.stringify(report, null, 2);
  return format === "markdown" ? markdown(report) : text(report);
}

function counts(r: DriftReport): string {
  const parts = [];
  if (r.changed) parts.push(`${r.changed} changed`);
  if (r.deleted) parts.push(`${r.deleted} deleted outside Pulumi`);
  return parts.join(", ");
}

/** The one-line summary, e.g. `2 of 7 resources differ from the live API: 1 changed, 1 deleted outside Pulumi`. */
export function driftSummary(r: DriftReport): string {
  if (r.inSync) return `No drift: all ${r.checked} resources match the live API.`;
  const n = r.resources.length;
  return `${n} of ${r.checked} resource${r.checked === 1 ? "" : "s"} differ${n === 1 ? "s" : ""} from the live API: ${counts(r)}.`;
}

// A plain `pulumi up` compares the program with the state, not with the API: after hand edits it
// sees no change. Refreshing first makes the edits part of the diff, so the update reverts them.
// test/e2e/drift-reconcile.test.ts runs both commands as printed.
const NEXT_STEPS =
  "`pulumi refresh` accepts the live values into the stack; `pulumi up --refresh` puts the declared values back (and recreates deleted resources).";

/** Says which settings changed since the last update, so the reader knows which API was asked. */
function settingsNote(r: DriftReport): string | undefined {
  if (!r.settingsChanged?.length) return undefined;
  return `Checked with the current ${r.settingsChanged.map(code).join(", ")} (changed since the last \`pulumi up\`, which recorded the old value).`;
}

function text(r: DriftReport): string {
  const lines = [`Stack ${plain(r.stack)}: ${driftSummary(r)}`];
  if (r.settingsChanged?.length) lines.push(plain(`Checked with the current ${r.settingsChanged.join(", ")} (changed since the last pulumi up, which recorded the old value).`));
  for (const res of r.resources) {
    lines.push("");
    const what = `${plain(res.name)} (${plain(res.kind)}, uid ${plain(res.uid)})`;
    if (res.status === "deleted") {
      lines.push(`- ${what}: deleted outside Pulumi`);
      continue;
    }
    lines.push(`~ ${what}`);
    for (const f of res.fields) lines.push(`    ${plain(f.path)}: ${quoted(f.recorded)} (recorded) -> ${quoted(f.live)} (live)`);
  }
  if (!r.inSync) lines.push("", NEXT_STEPS.replace(/`/g, ""));
  return lines.join("\n");
}

function markdown(r: DriftReport): string {
  const note = settingsNote(r);
  if (r.inSync) return `## No drift in stack ${code(r.stack)}\n\n${driftSummary(r)}\n${note ? `\n${note}\n` : ""}`;
  const head = [`## Drift detected in stack ${code(r.stack)}`, "", `**${driftSummary(r)}**`];
  if (note) head.push("", note);
  const sections = [{ entries: r.resources.map(section), unit: "resource" }];
  return capped(head, sections, ["", "---", "", `To reconcile: ${NEXT_STEPS}`], "`irv drift --format json` lists them all.");
}

function section(res: DriftedResource): string[] {
  const title = `### ${code(res.name)} (${prose(res.kind)})`;
  if (res.status === "deleted")
    return [`${title}: deleted outside Pulumi`, "", `uid ${code(res.uid)} no longer exists in the live API.`];
  return [
    `${title}: ${res.fields.length} field${res.fields.length === 1 ? "" : "s"} changed`,
    "",
    `uid ${code(res.uid)}`,
    "",
    table(
      ["field", "recorded in stack", "live"],
      res.fields.map((f) => [code(f.path), cell(f.recorded), cell(f.live)]),
    ),
  ];
}
