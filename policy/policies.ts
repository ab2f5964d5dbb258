/**
 * The policy pack's policies: one per rule of policy/rules.ts, judging the resources of both the
 * dynamic classes (`pulumi-nodejs:dynamic/irv:<Class>`) and the resource plugin
 * (`irv:iam:<Class>`), whichever language declared them. A rule about one resource alone is a
 * resource validation; a rule that follows a reference (a binding's identity and role, an
 * identity provider's default role, an invite's role) is a stack validation, which sees the other
 * resources of the stack through their property dependencies and looks the rest up through the
 * API (`IRV_API_URL` and `IRV_TOKEN` in the engine's environment).
 */
import type { PolicyResource, ReportViolation, ResourceValidationPolicy, StackValidationPolicy } from "@pulumi/policy";
import { definitionOf, type Kind } from "../api/kinds";
import { effective, type PolicyConfig } from "./config";
import { evaluate } from "./evaluate";
import { RULES } from "./rules";
import { UNKNOWN, isKnown, kindOfType, type Rule, type Subject, type World } from "./world";
import { lookUpRemote, type LookupCache } from "./lookup";
import { ACCESS_GATES, type AccessGate } from "./access/gates";
import { recordWorld } from "./access/world-file";

/** The API's answers, shared by the stack policies of one run of the pack. */
const cache: LookupCache = new Map();

/** The policy pack's name. */
export const PACK_NAME = "irv-iam-guardrails";

/**
 * A copy of policy props: the engine's unknown values (which @pulumi/policy's props throw
 * on when read) become `UNKNOWN`.
 */
export function copied(v: unknown): unknown {
  if (v === null || typeof v !== "object") return v;
  if (Array.isArray(v)) {
    const out: unknown[] = [];
    for (let i = 0; i < v.length; i++) out.push(read(() => v[i]));
    return out;
  }
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v)) out[k] = read(() => (v as Record<string, unknown>)[k]);
  return out;
}

function read(get: () => unknown): unknown {
  try {
    return copied(get());
  } catch (e) {
    if ((e as Error)?.constructor?.name === "UnknownValueError") return UNKNOWN;
    throw e;
  }
}

/** The subject of one irv resource, or undefined for any other type. */
function subjectOf(type: string, urn: string, name: string, props: unknown): Subject | undefined {
  const kind = kindOfType(type);
  if (!kind) return undefined;
  const inputs = copied(props) as Record<string, unknown>;
  // A uid not known yet names no resource: every such one would otherwise be the same.
  const uid = typeof inputs.uid === "string" && inputs.uid && isKnown(inputs.uid) ? inputs.uid : undefined;
  return { urn, name, kind, inputs, uid };
}

/** The world of a stack validation: every irv resource, references followed through property dependencies. */
export function worldOfStack(resources: readonly PolicyResource[]): World {
  const subjects = new Map<PolicyResource, Subject>();
  for (const r of resources) {
    const s = subjectOf(r.type, r.urn, r.name, r.props);
    if (s) subjects.set(r, s);
  }
  for (const [r, s] of subjects) {
    const deps: Record<string, Subject[]> = {};
    for (const [field, rs] of Object.entries(r.propertyDependencies ?? {}))
      deps[field] = rs.map((d) => subjects.get(d) ?? [...subjects.entries()].find(([k]) => k.urn === d.urn)?.[1]).filter((x): x is Subject => !!x);
    s.deps = deps;
  }
  return { subjects: [...subjects.values()] };
}

/** The config `args.getConfig()` gives, as the rules read it (the level is the engine's business). */
function configOf(rule: Rule, given: Record<string, unknown>): PolicyConfig {
  return { [rule.id]: { ...effective(rule).settings, ...given, enforcementLevel: "mandatory" } };
}

function report(rule: Rule, world: World, config: Record<string, unknown>, reportViolation: ReportViolation): void {
  for (const f of evaluate(world, configOf(rule, config), [rule])) reportViolation(`${f.message}. Fix: ${f.fix}`, f.urn);
}

/** The policy of one rule. */
export function policyOf(rule: Rule): ResourceValidationPolicy | StackValidationPolicy {
  const common = {
    name: rule.id,
    description: rule.reason,
    enforcementLevel: rule.enforcementLevel,
    configSchema: rule.config ? { properties: rule.config.properties as never } : undefined,
  };
  if (rule.scope === "resource") {
    return {
      ...common,
      validateResource: (args, reportViolation) => {
        const s = subjectOf(args.type, args.urn, args.name, args.props);
        if (s) report(rule, { subjects: [s] }, args.getConfig(), reportViolation);
      },
    };
  }
  return {
    ...common,
    validateStack: async (args, reportViolation) => {
      const world = worldOfStack(args.resources);
      if (!world.subjects.some((s) => rule.kinds.includes(s.kind))) return;
      world.remote = await lookUpRemote(world, {
        cache,
        onSkipped: (wanted) => {
          process.stderr.write(`${skippedLookups(rule, wanted)}\n`);
          world.unresolved = new Map(wanted.map((w) => [w.uid, NO_API]));
        },
      });
      report(rule, world, args.getConfig(), reportViolation);
    },
  };
}

/** Why the pack could not look a uid up: what a finding that cannot judge says, and how to let it judge. */
export const NO_API =
  "IRV_API_URL is not set in the engine's environment (a policy pack does not see the stack's config); set IRV_API_URL and IRV_TOKEN (or IRV_IDENTITY and IRV_IDENTITY_TOKEN) for pulumi preview, or run irv review, which hands the pack the stack's settings";

/**
 * What a rule judged without: the engine prints a policy pack's stderr, so the user learns that a
 * rule could not follow the program's references by uid, and why.
 */
export function skippedLookups(rule: Rule, wanted: readonly { kind: Kind; uid: string }[]): string {
  const kinds = [...new Set(wanted.map((w) => definitionOf(w.kind).label))].join(" or ");
  return (
    `${PACK_NAME}: ${rule.id} did not look up ${wanted.length} ${kinds} uid${wanted.length === 1 ? "" : "s"} the program names ` +
    `(${wanted.map((w) => w.uid).join(", ")}): IRV_API_URL is not set in the engine's environment, and a policy pack does not see the stack's config. ` +
    "What it cannot judge without them it reports as a finding; set IRV_API_URL and IRV_TOKEN to judge those too."
  );
}

/**
 * The policy of an access gate: judged by `irv review`, which knows the access before the change;
 * in the pack it records the proposed access for it (policy/access/world-file.ts) and reports nothing.
 */
export function gatePolicy(gate: AccessGate): StackValidationPolicy {
  return {
    name: gate.id,
    description: gate.reason,
    enforcementLevel: gate.enforcementLevel,
    configSchema: { properties: gate.config.properties as never },
    validateStack: (args) => recordWorld(worldOfStack(args.resources)),
  };
}

/** Every rule's policy, then the access gates'. */
export const policies = [...RULES.map(policyOf), ...ACCESS_GATES.map(gatePolicy)];
