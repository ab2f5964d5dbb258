/** Evaluating the IAM guardrails over a world, and what of it must be looked up through the API first. */
import { builtinRoleOf } from "../api/builtin-roles";
import { str } from "./checks";
import { effective, type PolicyConfig } from "./config";
import { RULES } from "./rules";
import { Lookup, kindLabel, refFields, type Finding, type Rule, type World } from "./world";

/** Every finding of `rules` (default all) over `world` under `config`, in the order of the resources. */
export function evaluate(world: World, config: PolicyConfig = {}, rules: readonly Rule[] = RULES): Finding[] {
  const lookup = new Lookup(world);
  const out: Finding[] = [];
  for (const s of world.subjects) {
    for (const rule of rules) {
      if (!rule.kinds.includes(s.kind)) continue;
      const { enforcementLevel, settings } = effective(rule, config);
      if (enforcementLevel === "disabled") continue;
      for (const message of rule.check(s, lookup, settings))
        out.push({ rule: rule.id, enforcementLevel, urn: s.urn, name: s.name, kind: kindLabel(s.kind), message, fix: rule.fix });
    }
  }
  return out;
}

/**
 * The uids `world`'s resources name that rules need looked up: roles and identities that are not
 * resources of the program, nor built-in roles. Look them up through the API and put them in `world.remote`.
 */
export function uidsToLookUp(world: World): { kind: "roles" | "identities"; uid: string }[] {
  const own = new Set(world.subjects.map((s) => s.uid).filter(Boolean));
  const out = new Map<string, { kind: "roles" | "identities"; uid: string }>();
  for (const s of world.subjects) {
    for (const target of ["roles", "identities"] as const) {
      for (const f of refFields(s.kind, target)) {
        const v = str(s.inputs[f]);
        // A built-in role is known by its uid, with no API to ask (api/builtin-roles.ts).
        if (v && !own.has(v) && !(target === "roles" && builtinRoleOf(v))) out.set(v, { kind: target, uid: v });
      }
    }
  }
  return [...out.values()];
}
