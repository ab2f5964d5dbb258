import { capped, cell, code, prose, table } from "../format/markdown";
import { forTerminal, quoted } from "../format/terminal";
import type { AccessDrift, UnmanagedItem } from "./access";
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
  const outside = r.access?.unmanaged.length ?? 0;
  const also = outside ? `${outside} item${outside === 1 ? "" : "s"} granting access made outside the stack` : "";
  const expected = r.access?.expected ? ` (${r.access.expected} expected)` : "";
  if (r.inSync)
    return `No drift: all ${r.checked} resources match the live API${r.access ? `, and nothing ${expected ? "unexpected " : ""}grants access in the managed groups outside the stack${expected}` : ""}.`;
  const n = r.resources.length;
  if (n === 0)
    return `${also[0].toUpperCase()}${also.slice(1)}${expected ? `, besides ${r.access!.expected} expected` : ""} (the ${r.checked} resources match the live API).`;
  return `${n} of ${r.checked} resource${r.checked === 1 ? "" : "s"} differ${n === 1 ? "s" : ""} from the live API: ${counts(r)}${also ? `; ${also}${expected ? `, besides ${r.access!.expected} expected` : ""}` : ""}.`;
}

/** An item's name, when it has one of its own: a role binding's or an invite's "name" is its uid, shown once already. */
const ownName = (u: UnmanagedItem): string | undefined => (u.name && u.name !== u.uid ? u.name : undefined);

const OUTSIDE_STEPS =
  "Access made outside the stack stays until it is deleted: delete it, bring it into the program (`irv export`), or declare it expected (`irv-drift:expectedAccess`, `--expect`).";

/** How many items granting access outside the stack the markdown spells out; the JSON has them all. */
const UNMANAGED_SHOWN = 50;

/** Access made outside the stack, for a terminal. */
export function outsideText(a: AccessDrift | undefined): string[] {
  if (!a?.unmanaged.length) return [];
  const lines = ["", `Made outside the stack in ${a.watched.groups.join(", ")} (${a.unmanaged.length}):`];
  for (const u of a.unmanaged) {
    const name = ownName(u);
    lines.push(`+ ${name ? `${forTerminal(name)} (${u.kind}, uid ${u.uid})` : `${u.kind} ${u.uid}`} in ${forTerminal(u.group)}`);
    for (const g of u.grants) lines.push(`    ${forTerminal(g)}`);
  }
  lines.push("", OUTSIDE_STEPS.replace(/`/g, ""));
  return lines;
}

/** Access made outside the stack, as markdown. */
export function outsideMarkdown(a: AccessDrift | undefined): string[] {
  if (!a?.unmanaged.length) return [];
  const shown = a.unmanaged.slice(0, UNMANAGED_SHOWN);
  const out = [
    "",
    `### Access granted outside the stack (${a.unmanaged.length})`,
    "",
    `In the managed groups ${a.watched.groups.map(code).join(", ")}; declare expected ones in the stack config \`irv-drift:expectedAccess\` or with \`--expect\`.`,
    "",
  ];
  out.push(
    table(
      ["kind", "name", "uid", "group", "grants"],
      shown.map((u) => [
        u.kind,
        ownName(u) === undefined ? "—" : code(u.name),
        code(u.uid),
        code(u.group),
        u.grants.length
          ? [...u.grants.slice(0, 5).map((g) => code(g)), ...(u.grants.length > 5 ? [`and ${u.grants.length - 5} more`] : [])].join("<br>")
          : "_nothing yet_",
      ]),
    ),
  );
  if (a.unmanaged.length > shown.length) out.push("", `_${a.unmanaged.length - shown.length} more: see \`--format json\`._`);
  out.push("", OUTSIDE_STEPS);
  return out;
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
  const lines = [`Stack ${forTerminal(r.stack)}: ${driftSummary(r)}`];
  if (r.settingsChanged?.length)
    lines.push(forTerminal(`Checked with the current ${r.settingsChanged.join(", ")} (changed since the last pulumi up, which recorded the old value).`));
  for (const res of r.resources) {
    lines.push("");
    const what = `${forTerminal(res.name)} (${forTerminal(res.kind)}, uid ${forTerminal(res.uid)})`;
    if (res.status === "deleted") {
      lines.push(`- ${what}: deleted outside Pulumi`);
      continue;
    }
    lines.push(`~ ${what}`);
    for (const f of res.fields) lines.push(`    ${forTerminal(f.path)}: ${quoted(f.recorded)} (recorded) -> ${quoted(f.live)} (live)`);
  }
  lines.push(...outsideText(r.access));
  // The refresh/up advice is for resources that differ; access made outside the stack has its own.
  if (r.resources.length) lines.push("", NEXT_STEPS.replace(/`/g, ""));
  return lines.join("\n");
}

function markdown(r: DriftReport): string {
  const note = settingsNote(r);
  if (r.inSync) return `## No drift in stack ${code(r.stack)}\n\n${driftSummary(r)}\n${note ? `\n${note}\n` : ""}`;
  const head = [`## Drift detected in stack ${code(r.stack)}`, "", `**${driftSummary(r)}**`];
  if (note) head.push("", note);
  // Access made outside the stack is one entry, bounded on its own (outsideMarkdown).
  const outside = outsideMarkdown(r.access).slice(1);
  const sections = [
    { entries: r.resources.map(section), unit: "resource" },
    { entries: outside.length ? [outside] : [], unit: "section on access made outside the stack" },
  ];
  return capped(head, sections, r.resources.length ? ["", "---", "", `To reconcile: ${NEXT_STEPS}`] : [], "`irv drift --format json` lists them all.");
}

function section(res: DriftedResource): string[] {
  const title = `### ${code(res.name)} (${prose(res.kind)})`;
  if (res.status === "deleted") return [`${title}: deleted outside Pulumi`, "", `uid ${code(res.uid)} no longer exists in the live API.`];
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
