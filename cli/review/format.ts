import type { Finding } from "../../policy/world";
import { capped, cell, code, details, prose, table, type Section } from "../format/markdown";
import { forTerminal, quoted } from "../format/terminal";
import { outsideMarkdown, outsideText } from "../drift/format";
import { ROOT_UID } from "../../api/uid";
import { definitionOfDisplayName, type KindDefinition } from "../../api/kinds";
import type { Shown } from "../engine/values";
import { namedUid } from "./names";
import { isIamWrite } from "../../policy/access";
import { readOnly } from "../../policy/checks";
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
    if (group.length) sections.push({ heading: [`### ${title} (${group.length})`], entries: group.map((c) => entry(c, r.names ?? {})), unit: "change" });
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
function entry(c: ReviewChange, names: Readonly<Record<string, string>>): string[] {
  const lines = entryBody(c, names);
  c.findings.forEach((f, i) => lines.push(i ? ">" : "", `> **Policy** ${findingMarkdown(f)}`));
  return lines;
}

function entryBody(c: ReviewChange, names: Readonly<Record<string, string>>): string[] {
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
  const value = withNames(c, names, code, cell);
  if (c.action === "create" || c.action === "adopt")
    lines.push(
      table(
        ["field", "value"],
        c.fields.map((f) => [code(f.path), value(f.path, f.after)]),
      ),
    );
  else if (c.action === "update")
    lines.push(
      table(
        ["field", "before", "after"],
        c.fields.map((f) => [code(f.path), value(f.path, f.before), value(f.path, f.after)]),
      ),
    );
  else {
    const forces = (path: string) => (c.replaceBecause.includes(path.split(".")[0]) ? "**forces replacement**" : "");
    lines.push(
      table(
        ["field", "before", "after", ""],
        c.fields.map((f) => [code(f.path), value(f.path, f.before), value(f.path, f.after), forces(f.path)]),
      ),
    );
  }
  return lines;
}

/**
 * How a field's value of change `c` shows, `show` for the value itself: a uid with its name beside
 * it (a role's, or the path of group names down to a group), each name through `quote`.
 */
function withNames(c: ReviewChange, names: Readonly<Record<string, string>>, quote: (s: string) => string, show: (v: Shown) => string) {
  const d = definitionOfDisplayName(c.kind) as KindDefinition | undefined;
  return (path: string, v: Shown): string => {
    const named = typeof v === "string" ? namedUid(v, names, quote, d?.fields[path]?.refersTo === "groups") : undefined;
    return named ? `${show(v)} (${named})` : show(v);
  };
}

/** The sign of each action in text output. */
const SIGN = { create: "+", adopt: "=", update: "~", replace: "+-", delete: "-" } as const;

function text(r: ReviewReport): string {
  const lines = [`Stack ${forTerminal(r.stack)}: ${forTerminal(r.summary)} (${r.unchanged} unchanged)`];
  const policy = policyLine(r);
  if (policy) lines.push(policy);
  if (r.access) {
    lines.push(accessLine(r.access));
    for (const [verb, list] of [
      ["gains", r.access.gained],
      ["loses", r.access.lost],
    ] as const)
      for (const e of list) lines.push(`  ${verb === "gains" ? "+" : "-"} ${sentence(e, verb)}${e.subject.maybe ? ` (maybe: ${e.subject.maybe})` : ""}`);
    for (const u of [...r.access.unknown, ...r.access.unseen]) lines.push(`  ? ${u}`);
  }
  lines.push(...outsideText(r.outside));
  for (const c of r.changes) {
    const why = c.action === "replace" ? `: replaced because ${forTerminal(c.replaceBecause.join(", "))} changed` : "";
    lines.push("", `${SIGN[c.action]} ${c.action} ${forTerminal(c.name)} (${forTerminal(c.kind)}${c.uid ? `, uid ${forTerminal(c.uid)}` : ""})${why}`);
    const value = withNames(c, r.names ?? {}, forTerminal, quoted);
    for (const f of c.fields) {
      if (c.action === "create" || c.action === "adopt") lines.push(`    ${forTerminal(f.path)}: ${value(f.path, f.after)}`);
      else lines.push(`    ${forTerminal(f.path)}: ${value(f.path, f.before)} -> ${value(f.path, f.after)}`);
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

/** How many grant lines the markdown spells out; `--format json` carries them all. */
const GRANTS_SHOWN = 50;

/** One grant gained or lost: a subject, through one binding (or invite, identity provider), of one role on one group. */
interface GrantLine {
  entries: AccessEntry[];
  capabilities: string[];
}

/** The entries of `list` by grant (subject and binding), in order. */
function grantsOf(list: AccessEntry[]): GrantLine[] {
  const by = new Map<string, GrantLine>();
  for (const e of list) {
    const key = `${e.subject.key}\n${e.binding.key}`;
    const g = by.get(key) ?? { entries: [], capabilities: [] };
    g.entries.push(e);
    g.capabilities.push(...e.capabilities);
    by.set(key, g);
  }
  return [...by.values()].map((g) => ({ ...g, capabilities: [...new Set(g.capabilities)].sort() }));
}

/** How dangerous a set of capabilities is to hand out, most first: its level and why, in a few words. */
export function dangerLevelOf(capabilities: readonly string[]): { level: "critical" | "high" | "medium" | "low"; why: string } {
  const deletes = capabilities.filter((c) => c.endsWith(".delete")).length;
  const n = (k: number, what: string) => `${k} ${what}${k === 1 ? "" : "s"}`;
  if (capabilities.includes("role_bindings.create"))
    return { level: "critical", why: `grants roles (itself any role)${deletes ? `, ${n(deletes, "delete")}` : ""}` };
  const iam = capabilities.filter(isIamWrite).length;
  if (iam || deletes) return { level: "high", why: [iam ? n(iam, "IAM write") : "", deletes ? n(deletes, "delete") : ""].filter(Boolean).join(", ") };
  if (!readOnly(capabilities)) return { level: "medium", why: "writes beyond reads" };
  return { level: "low", why: "reads only" };
}

/** A group's path of names, the organization (a bare 40-hex uid) named as such. */
function pathOf(e: AccessEntry): string {
  return e.path.map((n) => (ROOT_UID.test(n) ? "organization" : code(n))).join(" / ");
}

/**
 * One grant in one line, what a reviewer must see without expanding anything: who (and whom a
 * pattern identity stands for) gains or loses which role, on which group by its path of names,
 * inherited by how many groups below, and how dangerous that is.
 */
function grantLine(g: GrantLine, verb: "gains" | "loses"): string {
  const e = g.entries[0];
  const d = dangerLevelOf(g.capabilities);
  const who = `${code(e.subject.name)}${e.subject.maybe ? ` (stands for ${code(e.subject.maybe)})` : ""}`;
  const via = e.binding.kind === "iam.RoleBinding" ? "binding" : e.binding.kind === "iam.GroupInvite" ? "invite" : "identity provider";
  const below = e.below ? `, inherited by ${e.below} group${e.below === 1 ? "" : "s"} below` : "";
  const held = g.entries.flatMap((x) => x.except);
  const except = held.length ? ` (part of it held already on ${[...new Set(held.map((x) => x.name))].map(code).join(", ")})` : "";
  return `**${d.level}** ${who} ${verb} role ${code(e.role.name)} on ${pathOf(e)}${below}${except}, through the ${via} ${code(e.binding.name)}: ${g.capabilities.length} capabilit${g.capabilities.length === 1 ? "y" : "ies"}, ${d.why}`;
}

/** The access change: the counts, one line per grant gained or lost, then each grant's capabilities collapsed, bounded in size. */
function accessMarkdown(a: AccessChange): string[] {
  const out = [`### Access change`, "", `**${accessLine(a)}**`];
  for (const [verb, list] of [
    ["gains", a.gained],
    ["loses", a.lost],
  ] as const) {
    const grants = grantsOf(list);
    if (grants.length === 0) continue;
    out.push("", ...grants.slice(0, GRANTS_SHOWN).map((g) => `- ${grantLine(g, verb)}`));
    if (grants.length > GRANTS_SHOWN)
      out.push(
        `- _${grants.length - GRANTS_SHOWN} more grant${grants.length - GRANTS_SHOWN === 1 ? "" : "s"} ${verb === "gains" ? "gained" : "lost"}: see \`--format json\`._`,
      );
  }
  // The capabilities behind each line, for whoever wants them: collapsed, bounded.
  let budget = ACCESS_SHOWN;
  let chars = ACCESS_CHARS;
  const body: string[] = [];
  let left = 0;
  for (const [verb, list] of [
    ["gains", a.gained],
    ["loses", a.lost],
  ] as const)
    for (const e of list) {
      const line = `- ${sentence(e, verb, code)}${e.subject.uid ? ` (${code(e.subject.name)} is ${code(e.subject.uid)})` : ""}`;
      if (budget <= 0 || line.length > chars) {
        left++;
        continue;
      }
      body.push(line);
      (budget--, (chars -= line.length));
    }
  if (left) body.push(`- _${left} more: see \`--format json\`._`);
  if (body.length) out.push("", ...details(`The capabilities of each grant (${a.gained.length + a.lost.length})`, body));
  const notes = [...a.unknown, ...a.unseen];
  if (notes.length)
    out.push(
      "",
      `**Not known** (${notes.length}):`,
      "",
      ...notes.slice(0, 20).map((n) => `- ${code(n.length > 300 ? `${n.slice(0, 300)}...` : n)}`),
      ...(notes.length > 20 ? [`- and ${notes.length - 20} more`] : []),
    );
  return out;
}
