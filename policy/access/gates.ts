/**
 * The access gates: rules over the access a change gains (policy/access/diff.ts), not over one
 * resource. `irv review` evaluates them, since only it knows the access before the change; the
 * policy pack carries them so that their settings are valid in a `--policy-pack-config` file, and
 * records the proposed access for `irv review` (world-file.ts).
 */
import type { ConfigSchema, EnforcementLevel } from "../world";
import { isIamWrite, isWorkload, type AccessSubject } from "./org";

/** An access gate: like a rule (policy/world.ts), judged on gained access. */
export interface AccessGate {
  id: string;
  enforcementLevel: Exclude<EnforcementLevel, "disabled">;
  reason: string;
  fix: string;
  config: ConfigSchema;
}

const allow: ConfigSchema["properties"][string] = {
  type: "array",
  items: { type: "string" },
  description: "Resources whose grants the gate lets through: a logical name, URN or uid of the binding, invite or identity provider, or of the identity.",
  default: [],
};

export const ACCESS_GATES: readonly AccessGate[] = [
  {
    id: "irv-access-gate",
    enforcementLevel: "mandatory",
    reason: "A change must not grant anyone a capability the team guards on a subtree it guards without a second look.",
    fix: "Grant a lesser role, bind it lower, or list the binding in the gate's `allow`.",
    config: {
      properties: {
        capabilities: {
          type: "array",
          items: { type: "string" },
          description: "The guarded capabilities; `*.delete` stands for every delete.",
          default: ["*.delete", "role_bindings.create"],
        },
        groups: { type: "array", items: { type: "string" }, description: "The guarded subtrees: group uids or names (none: the gate is off).", default: [] },
        allow,
      },
    },
  },
  {
    id: "irv-pattern-identity-admin",
    enforcementLevel: "mandatory",
    reason:
      "An identity matched by a pattern stands for every token the pattern matches (any branch, pull request or repository of an owner): a role that can grant roles or delete hands that power to all of them.",
    fix: "Give the pattern identity a role without role grants and deletes, or match one exact subject for the identity that needs them (or list the binding in `allow`).",
    config: {
      properties: {
        capabilities: {
          type: "array",
          items: { type: "string" },
          description: "The capabilities a pattern identity must not gain; `*.delete` stands for every delete.",
          default: ["*.delete", "role_bindings.create"],
        },
        allow,
      },
    },
  },
  {
    id: "irv-workload-iam-write",
    enforcementLevel: "advisory",
    reason: "A workload identity (matched by claims, static keys or AWS) that can change IAM anywhere can widen its own access if its token leaks.",
    fix: "Give the workload a role without IAM writes, or list the binding in `allow` if its job is to manage IAM.",
    config: { properties: { allow } },
  },
];

/** The gate `id`, or undefined. */
export function gateById(id: string): AccessGate | undefined {
  return ACCESS_GATES.find((g) => g.id === id);
}

/** True when `capability` matches one of `patterns` (`*.delete` for every delete). */
export function matchesCapability(capability: string, patterns: readonly string[]): boolean {
  return patterns.some((p) => (p.startsWith("*.") ? capability.endsWith(p.slice(1)) : capability === p));
}

/** Whether `irv-workload-iam-write` concerns a gain of `capability` by `subject`. */
export function workloadIamWrite(subject: AccessSubject | undefined, capability: string): boolean {
  return !!subject && isWorkload(subject) && isIamWrite(capability);
}

/** Whether `irv-pattern-identity-admin` concerns a gain of `capability` by `subject`: a workload identity matched by a pattern gaining one of `patterns`. */
export function patternIdentityAdmin(subject: AccessSubject | undefined, capability: string, patterns: readonly string[]): boolean {
  return !!subject && isWorkload(subject) && subject.maybe !== undefined && matchesCapability(capability, patterns);
}
