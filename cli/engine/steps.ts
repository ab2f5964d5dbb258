import type { EngineEvent, OpType, StepEventMetadata, StepEventStateMetadata } from "@pulumi/pulumi/automation";
import { displayNameOf, definitionOfTypeToken } from "../../api/kinds";

/** A resource's state on one side of a step: what a report compares. */
export type StepState = Pick<StepEventStateMetadata, "inputs" | "outputs">;

/**
 * One resource's step in an engine operation, reduced to what a report needs: the logical
 * name, the kind (`iam.Group`), the operation, the state before and after, and the fields the
 * engine says force a replacement.
 */
export interface Step {
  urn: string;
  /** The resource's logical name in the program (the last URN segment). */
  name: string;
  /** The Pulumi type token, e.g. `pulumi-nodejs:dynamic/irv:Group`. */
  type: string;
  /** A readable kind, e.g. `iam.Group`. */
  kind: string;
  op: string;
  /** The provider id (for irv resources: the uid), from the old state or else the new. */
  id: string;
  old?: StepState;
  new?: StepState;
  /** Fields that force a replacement, as the engine reports them (`keys`). */
  replaceKeys: string[];
}

/** One step as the engine announced it (before folding): a replacement shows as its halves. */
export interface ReportedStep {
  op: OpType;
  type: string;
  name: string;
  /**
   * Input keys that changed, when the provider names them (dynamic providers report only
   * "changed" and the replacing keys, so for them this stays empty).
   */
  diffs: string[];
  /** Keys that forced a replacement. */
  keys: string[];
}

/**
 * Operations a replacement is made of. The engine reports a logical `replace` plus its
 * `create-replacement` and `delete-replaced` halves; a report shows one replacement.
 */
const REPLACE_PARTS = new Set(["replace", "create-replacement", "delete-replaced", "discard-replaced"]);

/**
 * The display name of a type token: a dynamic irv class's is its kind's
 * (`pulumi-nodejs:dynamic/irv:Group` -> `iam.Group`, api/kinds `displayNameOf`); any other is
 * read from the token (`irv:iam:Group` -> `irv.iam.Group`).
 */
export function displayNameOfType(type: string): string {
  // One label per kind, whichever way the stack runs it (dynamic classes or the plugin).
  const kind = definitionOfTypeToken(type);
  if (kind) return displayNameOf(kind);
  const dyn = /^pulumi-nodejs:dynamic(?:\/([^:]+))?:(.+)$/.exec(type);
  if (dyn) {
    return dyn[1] ? `${dyn[1]}.${dyn[2]}` : dyn[2] === "Resource" ? "dynamic resource" : dyn[2];
  }
  const [pkg, mod, name] = type.split(":");
  const module = mod?.split("/")[0];
  return name ? `${pkg}.${module === "index" ? "" : `${module}.`}${name}` : type;
}

/** The logical name in a URN (its last segment). */
export function nameOf(urn: string): string {
  return urn.slice(urn.lastIndexOf("::") + 2);
}

/** True for the stack itself and provider resources: not resources anyone reviews. */
function isInfrastructure(type: string): boolean {
  return type === "pulumi:pulumi:Stack" || type.startsWith("pulumi:providers:");
}

/**
 * Collects the resource steps of one engine operation from its events. Pass `collector.onEvent`
 * as the operation's `onEvent`, then read `collector.steps()`: one step per resource, with a
 * replacement's halves folded into one `replace`.
 */
export class StepCollector {
  private readonly byUrn = new Map<string, Step>();
  private readonly diagnostics: string[] = [];
  /** Every step as the engine announced it, in order (its pre-events, the stack excluded). */
  readonly reported: ReportedStep[] = [];

  /** The `onEvent` callback for an Automation API operation. */
  readonly onEvent = (event: EngineEvent): void => {
    const pre = event.resourcePreEvent?.metadata;
    if (pre && !isInfrastructure(pre.type))
      this.reported.push({ op: pre.op, type: pre.type, name: nameOf(pre.urn), diffs: pre.diffs ?? [], keys: pre.keys ?? [] });
    const meta = event.resOutputsEvent?.metadata ?? pre;
    if (meta) return this.add(meta);
    const diag = event.diagnosticEvent;
    if (diag && diag.severity === "error") this.diagnostics.push(diag.message.trim());
  };

  private add(meta: StepEventMetadata) {
    if (isInfrastructure(meta.type)) return;
    const prior = this.byUrn.get(meta.urn);
    // A refresh that runs the program (`runProgram`) reports the refresh's steps, then the
    // program's registrations as `same`: those must not hide what the refresh found.
    if (meta.op === "same" && prior && prior.op !== "same") return;
    const old = meta.old ?? undefined;
    const next = meta.new ?? undefined;
    // A replacement arrives as halves (create-replacement, replace, delete-replaced): fold them
    // into one step with the original's old state, the replacement's new state and every key
    // that forces it. Otherwise the latest event (the outcome after the pre-event) wins.
    const replace = REPLACE_PARTS.has(meta.op) || prior?.op === "replace";
    this.byUrn.set(meta.urn, {
      urn: meta.urn,
      name: nameOf(meta.urn),
      type: meta.type,
      kind: displayNameOfType(meta.type),
      op: replace ? "replace" : meta.op,
      id: old?.id || next?.id || prior?.id || "",
      old: replace ? (prior?.old ?? old) : old,
      new: replace ? (next ?? prior?.new) : next,
      replaceKeys: [...new Set([...(prior?.replaceKeys ?? []), ...(meta.keys ?? [])])],
    });
  }

  /** Every resource step seen, in the order the engine first reported each resource. */
  steps(): Step[] {
    return [...this.byUrn.values()];
  }

  /** Error diagnostics the engine reported (provider errors), for the error message. */
  errors(): string[] {
    return [...this.diagnostics];
  }
}
