import type { Stack } from "@pulumi/pulumi/automation";
import { SETTINGS } from "../../client/config";
import { checkSettings } from "../engine/settings";
import { contentsOf, type StackContents } from "../stack";
import { needsEngine, readSteps } from "./direct";
import { nameSecretMembers } from "./secrets";
import { accessDrift, type AccessDriftOptions } from "./access";
import { StepCollector, type Step } from "../engine/steps";
import {
  SECRET,
  declaredFields,
  diffFields,
  flatten,
  isSecretPath,
  isSecretValue,
  secretPaths,
  IGNORED_FIELDS,
  UNKNOWN,
  type FieldChange,
} from "../engine/values";
import { canonicalOf, definitionOfTypeToken, type FieldDefinition, type KindDefinition } from "../../api/kinds";
import { containsUnknown, isRecord, same } from "../../provider/resources/values";
import type { DriftedResource, DriftReport, FieldDrift } from "./report";

/** Options for `runDrift`. */
export interface DriftOptions {
  /**
   * The stack to check: its state is compared with what the provider reads live. A function
   * opening it is called only when the engine must refresh (with `contents` read already).
   */
  stack: Stack | (() => Promise<Stack>);
  /** The stack's name, state and config, when the caller has read them already (../stack.ts readStack). */
  contents?: StackContents;
  /** Called with each line of engine output (e.g. to stream it to stderr); default: dropped. */
  onOutput?: (line: string) => void;
  /** Drift of access: what grants access in the managed groups but is not in the stack; `false` skips it. */
  access?: AccessDriftOptions | false;
  /** Read through the engine's refresh even where irv can read the resources itself (./direct.ts). */
  engine?: boolean;
}

/**
 * Reports, per resource, what differs between the stack's recorded state and the live API:
 * changed fields with both values, and resources deleted outside Pulumi; the stack's state is not
 * changed. Secrets are masked. irv reads the resources itself, through the kinds' providers, in
 * pages and with the `irv:*` settings in force now (./direct.ts), where the engine's refresh would
 * read them the same way; otherwise (or with `engine`) the stack is refreshed in preview mode,
 * and when settings changed since the last update, or an explicit provider takes them from the
 * program, the program is run so that the provider reads with the current ones.
 */
export async function runDrift({ stack, contents, onOutput, access = {}, engine = false }: DriftOptions): Promise<DriftReport> {
  const started = Date.now();
  const open = typeof stack === "function" ? stack : async () => stack;
  // Read once: the settings, the reads, the report's order, the secret blocks and the access
  // check all use them. Secrets decrypted in memory, read, dropped.
  contents ??= await contentsOf(await open());
  const { state } = contents;
  const settings = checkSettings(contents);
  // Settings changed since the last update need no engine: irv reads with the current ones, as
  // the program would give a default provider. An explicit provider's come from the program.
  const why = engine ? "asked for (--engine)" : needsEngine(state);
  // Access made outside the stack is listed while the resources are read.
  const accessing = access ? accessDrift(contents, access) : Promise.resolve(undefined);
  accessing.catch(() => undefined); // awaited below
  let steps: Step[];
  if (why) {
    const collector = new StepCollector();
    await (await open()).previewRefresh({ onEvent: collector.onEvent, onOutput, runProgram: settings.runProgram || undefined });
    steps = collector.steps();
  } else {
    steps = await readSteps(state, settingsOf(contents));
  }
  const resources: DriftedResource[] = [];
  let inSync = 0;
  for (const step of steps) {
    const drifted = driftOf(step);
    if (drifted) resources.push(drifted);
    else inSync++;
  }
  // The engine refreshes in parallel, so steps arrive in any order: report in the state's order
  // (parents before what they hold), the same on every run.
  const position = new Map(((state.deployment?.resources ?? []) as { urn: string }[]).map((r, i) => [r.urn, i]));
  resources.sort((a, b) => (position.get(a.urn) ?? position.size) - (position.get(b.urn) ?? position.size));
  await nameSecretMembers(resources, contents);
  const accessReport = await accessing;
  return {
    stack: contents.name,
    inSync: resources.length === 0 && !accessReport?.unmanaged.length,
    ...(accessReport ? { access: accessReport } : {}),
    checked: inSync + resources.length,
    changed: resources.filter((r) => r.status === "changed").length,
    deleted: resources.filter((r) => r.status === "deleted").length,
    resources,
    settingsChanged: settings.changed,
    readBy: why ? { engine: true, why } : { engine: false },
    durationMs: Date.now() - started,
  };
}

/**
 * The settings as the engine would hand them to the provider: the stack's config, then the
 * stack's environment (a workspace's variables included).
 */
export function settingsOf({ config, env }: Pick<StackContents, "config" | "env">): (key: string) => string | undefined {
  const variable = new Map<string, string>(Object.values(SETTINGS).map((s) => [s.key, s.env]));
  return (key) => config[key]?.value ?? env[variable.get(key) ?? ""];
}

/** The drift of one refresh step, or undefined when the resource matches its recorded state. */
export function driftOf(step: Step): DriftedResource | undefined {
  const base = { name: step.name, kind: step.kind, type: step.type, urn: step.urn, uid: step.id };
  if (step.op === "delete" || (step.old && !step.new)) return { ...base, status: "deleted", fields: [] };
  if (step.op !== "update" || !step.old || !step.new) return undefined;
  const keys = declaredFields(step.old.inputs, step.new.inputs);
  const d = definitionOfTypeToken(step.type);
  // An irv resource's fields compare as its provider's diff compares them (sets in any order, ...).
  const compare = (a: object | undefined, b: object | undefined) => (d ? fieldChanges(d, a, b, keys) : diffFields(a, b, keys));
  // The provider's read returns live inputs, so inputs compare like for like. A provider that
  // returns none leaves the inputs as recorded: then only the outputs show the drift.
  let changes = compare(step.old.inputs, step.new.inputs);
  if (changes.length === 0) changes = compare(step.old.outputs, step.new.outputs);
  let fields: FieldDrift[] = changes
    // A write-only secret (an IdP client secret) is never read back: absence live is not drift.
    .filter((c) => !(c.before === SECRET && c.after === undefined))
    .map((c) => ({ path: c.path, recorded: c.before, live: c.after }));
  if (fields.length === 0 && step.old.outputs?.updateTime !== step.new.outputs?.updateTime) {
    // Something was written, and nothing visible differs: the engine masks secrets in events
    // (an identity provider's whole \`oidc\` block is secret), so the difference is in a secret.
    // Report the secret fields, masked, rather than miss the drift.
    const live = new Set(secretPaths(step.new.inputs));
    fields = secretPaths(step.old.inputs)
      .filter((p) => live.has(p))
      .map((path) => ({ path, recorded: SECRET, live: SECRET }));
  }
  // Otherwise only timestamps or hydrated copies of other resources moved: not this resource's drift.
  return fields.length ? { ...base, status: "changed", fields } : undefined;
}

/**
 * The fields among `keys` that differ between two property maps of a resource of kind `d`, leaf by
 * leaf (`claimMatch.subject`), compared as the kind's provider compares them in its diff: each
 * field in its canonical form (a set in any order is the same set, api/kinds/order.ts), then the
 * provider's sameness (an empty value is an absent one, timestamps are instants). So `irv drift`
 * reports exactly what the engine's refresh, which asks the provider's diff, reports.
 */
export function fieldChanges(d: KindDefinition, before: object | undefined, after: object | undefined, keys: Iterable<string>): FieldChange[] {
  const changes: FieldChange[] = [];
  for (const key of [...keys].sort()) {
    if (IGNORED_FIELDS.has(key)) continue;
    const f = d.fields[key] as FieldDefinition | undefined;
    // An omitted input means its default, as in the provider's diff (`singleUse` false).
    const value = (m: object | undefined) => (m as Record<string, unknown> | undefined)?.[key] ?? f?.default;
    // What the API computes when omitted is no opinion: a field (a repo's README), or a block's
    // member (a sync's expiration), recorded without it takes the live one.
    if (f?.computedWhenOmitted && value(before) === undefined) continue;
    let recorded = value(before);
    const live = value(after);
    if (f?.computedMembers && isRecord(recorded) && isRecord(live))
      recorded = { ...Object.fromEntries(f.computedMembers.filter((m) => live[m] !== undefined).map((m) => [m, live[m]])), ...recorded };
    // A value the program spells as the wire does not (`APPLICATION`) compares in the wire's spelling.
    const canon = (v: unknown) => canonicalOf(d, key, f?.codec && v !== undefined && !containsUnknown(v) ? f.codec.fromWire(f.codec.toWire(v)) : v);
    const a = leaves(canon(recorded), key);
    const b = leaves(canon(live), key);
    for (const path of [...new Set([...a.keys(), ...b.keys()])].sort()) {
      const x = a.get(path);
      const y = b.get(path);
      const shown = (v: unknown) => flatten(v, path).get(path);
      // A secret compares as the engine shows it (masked), anything else as the provider compares it.
      // (As a member, the way the provider meets it: a proto zero value, `false`, is an absent one.)
      const differs =
        isSecretPath(path) || isSecretValue(x) || isSecretValue(y) ? JSON.stringify(shown(x)) !== JSON.stringify(shown(y)) : !same({ v: x }, { v: y });
      if (differs) changes.push({ path, before: shown(x), after: shown(y) });
    }
  }
  return changes;
}

/** `v`'s leaves by dotted path, as `flatten` walks it (objects recurse; lists, secrets and scalars are leaves), raw. */
function leaves(v: unknown, path: string, out = new Map<string, unknown>()): Map<string, unknown> {
  if (v === undefined) return out;
  if ((path && isSecretPath(path)) || isSecretValue(v) || v === UNKNOWN || Array.isArray(v) || v === null || typeof v !== "object") return out.set(path, v);
  const entries = Object.entries(v);
  if (entries.length === 0) out.set(path, undefined);
  for (const [k, x] of entries) leaves(x, `${path}.${k}`, out);
  return out;
}
