import type { EngineEvent, Stack } from "@pulumi/pulumi/automation";
import { DYNAMIC_TYPE_PREFIX, definitionOfDisplayName, definitionOfTypeToken, replaceNames } from "../../api/kinds";
import { fieldChanges } from "../drift/detect";
import { checkSettings } from "../engine/settings";
import { StepCollector, type Step } from "../engine/steps";
import { SECRET, declaredFields, diffFields, secretPaths } from "../engine/values";
import { PolicyCollector, policyPackDir, withApiSettings } from "./policy";
import { accessChange, gateFindings, type GateOptions } from "./access";
import { accessDrift } from "../drift/access";
import { namesOf } from "./names";
import type { AccessModel } from "../../policy/access";
import { contentsOf } from "../stack";
import { ACCESS_WORLD_ENV } from "../../policy/access";
import { parsePolicyConfig } from "../../policy/config";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { ACTIONS, type ReviewAction, type ReviewChange, type ReviewReport } from "./report";

/** Options for `runReview`. */
export interface ReviewOptions {
  /** The stack to preview; its program (inline or the project's) is what is reviewed. */
  stack: Stack;
  /** Refresh from the live API before diffing, so the review is against reality. */
  refresh?: boolean;
  /** Called with each line of engine output; default: dropped. */
  onOutput?: (line: string) => void;
  /**
   * The IAM guardrails (policy/): on by default, run as the policy pack through the engine, each
   * finding listed beside the change it concerns. `false` turns them off; `configFile` is a
   * Pulumi `--policy-pack-config` JSON file.
   */
  policy?: false | { configFile?: string };
  /** Access gates given beside the config file's (`--gate`, `--allow`). */
  gates?: GateOptions;
  /** Hears what the review is doing, a line at each step and every 100 resources the preview reaches (`irv review --progress`). */
  onProgress?: (line: string) => void;
}

/** How many resources the preview reaches between two progress lines. */
const PROGRESS_EVERY = 100;

/** The steps of a resource the change leaves as it is. */
const UNCHANGED_OPS = new Set(["same", "refresh"]);

const ACTION_OF: Record<string, ReviewAction | undefined> = {
  create: "create",
  update: "update",
  replace: "replace",
  delete: "delete",
};

/**
 * Previews `stack` and groups what would change by create / update in place / replace /
 * delete, with field-level before and after and, for each replacement, the fields forcing it.
 */
export async function runReview({ stack, refresh, onOutput, policy = {}, gates, onProgress }: ReviewOptions): Promise<ReviewReport> {
  const started = Date.now();
  const say = (line: string) => onProgress?.(`irv review: ${line}`);
  let reached = 0;
  const progress = (e: EngineEvent) => {
    if (e.resOutputsEvent && ++reached % PROGRESS_EVERY === 0) say(`${reached} resources previewed`);
  };
  // The policy pack records the proposed access here (policy/access/world-file.ts).
  const worldDir = policy ? mkdtempSync(path.join(tmpdir(), "irv-access-")) : undefined;
  const worldFile = worldDir && path.join(worldDir, "world.json");
  const collector = new StepCollector();
  const policies = policy ? new PolicyCollector() : undefined;
  // A refresh without the program reads with the settings recorded at the last update: run the
  // program when they may have changed since, so the refresh asks the API they now name.
  if (refresh) say("reading the stack's state and config");
  const contents = refresh ? await contentsOf(stack) : undefined;
  const runProgram = contents ? checkSettings(contents).runProgram : false;
  say(`previewing stack ${stack.name}${refresh ? " after refreshing it" : ""}${policy ? ", with the IAM guardrails" : ""}`);
  const preview = () =>
    stack.preview({
      onEvent: (e) => (collector.onEvent(e), policies?.onEvent(e), progress(e)),
      onOutput,
      refresh,
      runProgram: runProgram || undefined,
      ...(policy ? { policyPacks: [policyPackDir()], policyPackConfigs: policy.configFile ? [policy.configFile] : undefined } : {}),
    });
  if (policies) {
    // A mandatory violation fails the preview: the review reports it rather than the failure
    // (any other error still fails the review).
    try {
      await withApiSettings(stack, () => preview(), { [ACCESS_WORLD_ENV]: worldFile! }).catch((e) => {
        if (!policies.failedByPolicy()) throw e;
      });
    } catch (e) {
      rmSync(worldDir!, { recursive: true, force: true });
      throw e;
    }
  } else await preview();
  const steps = collector.steps();
  say(`previewed ${steps.length} resources`);
  const changes: ReviewChange[] = [];
  let unchanged = 0;
  for (const step of steps) {
    const change = changeOf(step);
    if (change) changes.push(change);
    // With --refresh, a resource the program leaves as it is keeps its refresh step (see
    // StepCollector): unchanged too.
    else if (UNCHANGED_OPS.has(step.op)) unchanged++;
  }
  const counts = { create: 0, adopt: 0, update: 0, replace: 0, delete: 0 };
  for (const c of changes) counts[c.action]++;
  const order = (a: ReviewAction) => ACTIONS.findIndex((x) => x.action === a);
  changes.sort((a, b) => order(a.action) - order(b.action));
  const report: ReviewReport = { stack: stack.name, counts, unchanged, summary: summaryLine(counts, changes), changes, durationMs: 0 };
  const state = await stack.exportStack();
  const models: AccessModel[] = [];
  if (policies) {
    const findings = policies.findings();
    try {
      say("computing the access change");
      const access = await accessChange(stack, worldFile!, state);
      if (access) {
        models.push(access.before, access.after);
        report.access = access.change;
        const config = policy && policy.configFile ? parsePolicyConfig(JSON.parse(readFileSync(policy.configFile, "utf8"))) : {};
        findings.push(...gateFindings(access.change, access.after, config, gates));
      }
    } finally {
      rmSync(worldDir!, { recursive: true, force: true });
    }
    for (const c of changes) c.findings = findings.filter((f) => f.urn === c.urn);
    const mandatory = findings.filter((f) => f.enforcementLevel === "mandatory").length;
    report.policy = { mandatory, advisory: findings.length - mandatory, findings };
  }
  const names = namesOf(changes, state, models);
  if (Object.keys(names).length) report.names = names;
  if (contents) {
    say("looking for access made outside the stack");
    const outside = await accessDrift(contents);
    if (outside) report.outside = outside;
  }
  report.durationMs = Date.now() - started;
  return report;
}

/** The review entry of one step, or undefined when it changes nothing. */
function changeOf(step: Step): ReviewChange | undefined {
  const adoptUid = adoptUidOf(step);
  const action = adoptUid ? "adopt" : ACTION_OF[step.op];
  if (!action) return undefined;
  const before = action === "create" || action === "adopt" ? undefined : step.old?.inputs;
  const after = action === "delete" ? undefined : step.new?.inputs;
  // An irv resource's fields compare as its provider compares them (a reordered set is no change).
  const d = definitionOfTypeToken(step.type);
  const keys = declaredFields(before, after);
  let fields = action === "delete" ? [] : d && before ? fieldChanges(d, before, after, keys) : diffFields(before, after, keys);
  const replaceBecause =
    action === "replace"
      ? replaceReasons(
          step,
          fields.map((f) => f.path),
        )
      : [];
  // The engine masks secrets in events, so a changed secret looks unchanged. When nothing visible
  // explains an update, the secrets on both sides are what changed: list them, masked.
  if (action === "update" && fields.length === 0) {
    const later = new Set(secretPaths(after));
    fields = secretPaths(before)
      .filter((p) => later.has(p))
      .map((path) => ({ path, before: SECRET, after: SECRET }));
  }
  return {
    action,
    name: step.name,
    kind: step.kind,
    urn: step.urn,
    uid: adoptUid ?? (action === "create" ? "" : step.id),
    fields,
    replaceBecause,
    findings: [],
  };
}

/**
 * The uid a create takes over: the engine shows a create, but with `adoptUid` the provider's
 * create adopts the existing resource instead (irv resources only).
 */
function adoptUidOf(step: Step): string | undefined {
  const uid = step.op === "create" && step.type.startsWith(DYNAMIC_TYPE_PREFIX) ? step.new?.inputs?.adoptUid : undefined;
  return typeof uid === "string" && uid ? uid : undefined;
}

/**
 * Why a resource is replaced: the engine's keys (the provider's `replaces`, preferred), else the
 * fields of its kind's definition that force replacement and changed.
 */
function replaceReasons(step: Step, changed: string[]): string[] {
  if (step.replaceKeys.length) return [...step.replaceKeys].sort();
  const d = definitionOfDisplayName(step.kind);
  const known = d ? replaceNames(d) : [];
  return known.filter((k) => changed.some((p) => p === k || p.startsWith(`${k}.`)));
}

/** `3 to create, 1 to update, 1 to replace (parentUid), 0 to delete` (`2 to adopt` when any). */
export function summaryLine(counts: Record<ReviewAction, number>, changes: ReviewChange[]): string {
  const why = [...new Set(changes.flatMap((c) => c.replaceBecause))].sort();
  return [
    `${counts.create} to create`,
    ...(counts.adopt ? [`${counts.adopt} to adopt`] : []),
    `${counts.update} to update`,
    `${counts.replace} to replace${why.length ? ` (${why.join(", ")})` : ""}`,
    `${counts.delete} to delete`,
  ].join(", ");
}
