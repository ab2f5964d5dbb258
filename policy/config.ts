/** The guardrails' configuration: Pulumi's `--policy-pack-config` format, checked against the rules' settings. */
import { isStrings } from "../api/guards";
import { ACCESS_GATES, gateById } from "./access/gates";
import { RULES, ruleById } from "./rules";
import { ENFORCEMENT_LEVELS, type EnforcementLevel, type Rule } from "./world";

/** One rule's settings as a config file gives them: a level, or an object with a level and settings. */
export type RuleConfigEntry = EnforcementLevel | ({ enforcementLevel?: EnforcementLevel } & Record<string, unknown>);
/** A config file: rule ids (or `all`) to their settings. */
export type PolicyConfig = Record<string, RuleConfigEntry>;

/** A rule's effective level and settings under `config`. */
export interface Effective {
  enforcementLevel: EnforcementLevel;
  settings: Record<string, unknown>;
}

/** Checks a config file's content, throwing on an unknown rule, level or setting. */
export function parsePolicyConfig(raw: unknown, source = "policy config"): PolicyConfig {
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) throw new Error(`${source}: must be a JSON object of rule ids to settings`);
  const out: PolicyConfig = {};
  for (const [id, v] of Object.entries(raw as Record<string, unknown>)) {
    const rule: Pick<Rule, "config"> | undefined = ruleById(id) ?? gateById(id);
    if (!rule && id !== "all")
      throw new Error(`${source}: unknown rule ${JSON.stringify(id)} (the rules: ${[...RULES, ...ACCESS_GATES].map((r) => r.id).join(", ")})`);
    const entry = typeof v === "string" ? { enforcementLevel: v } : v;
    if (!entry || typeof entry !== "object" || Array.isArray(entry)) throw new Error(`${source}: ${id}: must be an enforcement level or an object`);
    const e = entry as Record<string, unknown>;
    if (e.enforcementLevel !== undefined && !ENFORCEMENT_LEVELS.includes(e.enforcementLevel as EnforcementLevel))
      throw new Error(`${source}: ${id}.enforcementLevel: must be one of ${ENFORCEMENT_LEVELS.join(", ")}`);
    for (const [k, val] of Object.entries(e)) {
      if (k === "enforcementLevel") continue;
      const prop = rule?.config?.properties[k];
      if (!prop) throw new Error(`${source}: ${id}: unknown setting ${JSON.stringify(k)}`);
      const ok =
        prop.type === "array"
          ? isStrings(val)
          : prop.type === "integer"
            ? Number.isInteger(val) && (prop.minimum === undefined || (val as number) >= prop.minimum)
            : typeof val === prop.type;
      if (!ok)
        throw new Error(
          `${source}: ${id}.${k}: must be ${prop.type === "array" ? "an array of strings" : `a${prop.type === "integer" ? "n integer" : ` ${prop.type}`}${prop.minimum !== undefined ? ` of at least ${prop.minimum}` : ""}`}`,
        );
    }
    out[id] = typeof v === "string" ? (v as EnforcementLevel) : e;
  }
  return out;
}

/** The level and settings of `rule` under `config`: the rule's entry, else `all`'s level, else its defaults. */
export function effective(rule: Pick<Rule, "id" | "config" | "enforcementLevel">, config: PolicyConfig = {}): Effective {
  const entry = (e: RuleConfigEntry | undefined) => (typeof e === "string" ? { enforcementLevel: e } : (e ?? {}));
  const own = entry(config[rule.id]);
  const all = entry(config.all);
  const settings: Record<string, unknown> = {};
  for (const [k, p] of Object.entries(rule.config?.properties ?? {})) settings[k] = own[k] ?? p.default;
  return { enforcementLevel: own.enforcementLevel ?? all.enforcementLevel ?? rule.enforcementLevel, settings };
}
