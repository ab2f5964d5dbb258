import type { Stack } from "@pulumi/pulumi/automation";
import { checkSettings } from "../engine/settings";
import { nameSecretMembers } from "./secrets";
import { accessDrift, type AccessDriftOptions } from "./access";
import { StepCollector, type Step } from "../engine/steps";
import { SECRET, declaredFields, diffFields, secretPaths } from "../engine/values";
import type { DriftedResource, DriftReport, FieldDrift } from "./report";

/** Options for `runDrift`. */
export interface DriftOptions {
  /** The stack to check: its state is compared with what the provider reads live. */
  stack: Stack;
  /** Called with each line of engine output (e.g. to stream it to stderr); default: dropped. */
  onOutput?: (line: string) => void;
  /** Drift of access: what grants access in the managed groups but is not in the stack; `false` skips it. */
  access?: AccessDriftOptions | false;
}

/**
 * Refreshes `stack` in preview mode (the stack's state is not written) and reports, per
 * resource, what differs between the recorded state and the live API: changed fields with both
 * values, and resources deleted outside Pulumi. Secrets are masked. When `irv:*` settings changed
 * since the last update, the program is run so that the provider reads with the current ones.
 */
export async function runDrift({ stack, onOutput, access = {} }: DriftOptions): Promise<DriftReport> {
  const started = Date.now();
  const collector = new StepCollector();
  // Exported once, before the refresh (which, in preview mode, writes nothing): the settings, the
  // report's order, the secret blocks and the access check all read it. Secrets decrypted in
  // memory, read, dropped.
  const state = await stack.exportStack();
  const settings = await checkSettings(stack, state);
  await stack.previewRefresh({ onEvent: collector.onEvent, onOutput, runProgram: settings.runProgram || undefined });
  const resources: DriftedResource[] = [];
  let inSync = 0;
  for (const step of collector.steps()) {
    const drifted = driftOf(step);
    if (drifted) resources.push(drifted);
    else inSync++;
  }
  // The engine refreshes in parallel, so steps arrive in any order: report in the state's order
  // (parents before what they hold), the same on every run.
  const position = new Map(((state.deployment?.resources ?? []) as { urn: string }[]).map((r, i) => [r.urn, i]));
  resources.sort((a, b) => (position.get(a.urn) ?? position.size) - (position.get(b.urn) ?? position.size));
  await nameSecretMembers(stack, resources, state);
  const accessReport = access ? await accessDrift(stack, access, state) : undefined;
  return {
    stack: stack.name,
    inSync: resources.length === 0 && !accessReport?.unmanaged.length,
    ...(accessReport ? { access: accessReport } : {}),
    checked: inSync + resources.length,
    changed: resources.filter((r) => r.status === "changed").length,
    deleted: resources.filter((r) => r.status === "deleted").length,
    resources,
    settingsChanged: settings.changed,
    durationMs: Date.now() - started,
  };
}

/** The drift of one refresh step, or undefined when the resource matches its recorded state. */
function driftOf(step: Step): DriftedResource | undefined {
  const base = { name: step.name, kind: step.kind, type: step.type, urn: step.urn, uid: step.id };
  if (step.op === "delete" || (step.old && !step.new)) return { ...base, status: "deleted", fields: [] };
  if (step.op !== "update" || !step.old || !step.new) return undefined;
  const keys = declaredFields(step.old.inputs, step.new.inputs);
  // The provider's read returns live inputs, so inputs compare like for like. A provider that
  // returns none leaves the inputs as recorded: then only the outputs show the drift.
  let changes = diffFields(step.old.inputs, step.new.inputs, keys);
  if (changes.length === 0) changes = diffFields(step.old.outputs, step.new.outputs, keys);
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
