/**
 * The IAM guardrails: every rule once, with its id, default enforcement level, one-line reason and
 * fix hint. The policy pack (`policy/pack.ts`, through `policy/policies.ts`) and `irv review
 * --policy` (cli/review) both evaluate these, over a `World`: the program's irv resources, each
 * with its inputs and what its reference fields point at, plus the roles and identities the
 * program names by uid, looked up through the API. Which fields are references, which kind each
 * refers to and what an identity's relationship types are come from the kinds' definitions
 * (api/kinds); nothing here repeats a kind's field list.
 */
import { RE2JS } from "re2js";
import { BUILTIN_ROLES } from "../api/capabilities";
import { INVITE_DEFAULT_TTL_SECONDS, DURATION } from "../api/kinds/groupInvites";
import { RELATIONSHIP_TYPES } from "../api/kinds/identities";
import { KINDS, kindOfTypeToken, type FieldDefinition, type Kind, type KindDefinition } from "../api/kinds";
import { ROOT_UID, parentOf } from "../api/uid";

/** How a rule's finding is enforced: Pulumi's enforcement levels. */
export type EnforcementLevel = "advisory" | "mandatory" | "disabled";
export const ENFORCEMENT_LEVELS: readonly EnforcementLevel[] = ["advisory", "mandatory", "disabled"];

/** A value the engine does not know yet (preview): the engine's sentinel, or `UNKNOWN`. */
export const UNKNOWN: unique symbol = Symbol("unknown");
const UNKNOWN_SENTINEL = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** True when `v` is known (not an unknown-at-preview value). */
export function isKnown(v: unknown): boolean {
  return v !== UNKNOWN && v !== UNKNOWN_SENTINEL;
}

/** One irv resource of the program, as the rules see it. */
export interface Subject {
  /** Its URN (the finding names it). */
  urn: string;
  /** Its logical name. */
  name: string;
  kind: Kind;
  /** Its inputs; unknown values are `UNKNOWN` or the engine's sentinel. */
  inputs: Record<string, unknown>;
  /** Its uid, once it exists. */
  uid?: string;
  /** For a reference field whose value is not known yet: the resources it depends on. */
  deps?: Record<string, Subject[]>;
}

/** A role or identity the program names by uid, as the API returns it. */
export interface RemoteItem {
  kind: "roles" | "identities";
  uid: string;
  item: Record<string, unknown>;
}

/** What the rules judge: the program's irv resources and the items they name by uid. */
export interface World {
  subjects: Subject[];
  /** Roles and identities looked up by uid (absent: not looked up, or not found). */
  remote?: Map<string, RemoteItem>;
  /** Now, ms since the epoch (invite lifetimes). */
  now?: number;
}

/** One finding: a rule a resource breaks. */
export interface Finding {
  rule: string;
  enforcementLevel: Exclude<EnforcementLevel, "disabled">;
  urn: string;
  name: string;
  /** The resource's kind, `iam.Group`. */
  kind: string;
  /** What is wrong with this resource, in a sentence. */
  message: string;
  /** How to fix it. */
  fix: string;
}

/** The JSON schema of one rule's settings (Pulumi's policy config schema: properties with defaults). */
export interface ConfigSchema {
  properties: Record<string, { type: "integer" | "boolean" | "array" | "string"; description: string; default: unknown; items?: { type: "string" }; minimum?: number }>;
}

/** One rule. */
export interface Rule {
  /** Its id: the policy's name in the pack and in config files. */
  id: string;
  /** The enforcement level it has unless configured. */
  enforcementLevel: Exclude<EnforcementLevel, "disabled">;
  /** The kinds it judges. */
  kinds: readonly Kind[];
  /** Why it matters, in one line. */
  reason: string;
  /** How to fix a violation, in one line. */
  fix: string;
  /** Whether it needs the other resources of the stack (stack validation) or one resource alone. */
  scope: "resource" | "stack";
  /** Its settings, beyond the enforcement level. */
  config?: ConfigSchema;
  /** The violations of `s`, one message each (none: compliant, or not judgeable yet). */
  check(s: Subject, w: Lookup, config: Record<string, unknown>): string[];
}

// ---------------------------------------------------------------------------------------------
// Facts derived from the kinds' definitions.

const byKind = new Map<string, KindDefinition>((KINDS as readonly KindDefinition[]).map((d) => [d.kind, d]));

/** The display name of a kind: `iam.Role`. */
export function kindLabel(kind: Kind): string {
  return `iam.${byKind.get(kind)!.className}`;
}

/** The fields of `kind` that name a resource of `target` by uid (`refersTo`), parent included. */
function refFields(kind: Kind, target: string): string[] {
  const d = byKind.get(kind)!;
  return Object.entries(d.fields as Record<string, FieldDefinition>)
    .filter(([, f]) => f.refersTo === target)
    .map(([k]) => k);
}

/** The parent field of `kind`. */
function parentField(kind: Kind): string {
  return byKind.get(kind)!.parentField;
}

/** The subject of a URN's type token, or undefined when it is not an irv resource. */
export function kindOfType(type: string): Kind | undefined {
  return kindOfTypeToken(type)?.kind;
}

// ---------------------------------------------------------------------------------------------
// References.

/** A role as the rules see it: its name and capabilities when known, and whether the program declares it (a custom role). */
export interface RoleFacts {
  name?: string;
  capabilities?: string[];
  declared: boolean;
}

/** What a reference field points at: a resource of the program, an item looked up, or just a uid. */
export interface Ref {
  subject?: Subject;
  remote?: RemoteItem;
  uid?: string;
}

/** Resolves references over a world. */
export class Lookup {
  readonly now: number;
  private readonly byUid = new Map<string, Subject>();
  constructor(readonly world: World) {
    this.now = world.now ?? Date.now();
    for (const s of world.subjects) if (s.uid) this.byUid.set(s.uid, s);
  }

  /** What `s`'s field `field` (referring to `target`) points at, or undefined when it cannot be told. */
  ref(s: Subject, field: string, target: Kind): Ref | undefined {
    const v = s.inputs[field];
    if (typeof v === "string" && isKnown(v) && v !== "") {
      const subject = this.byUid.get(v);
      if (subject && subject.kind === target) return { subject, uid: v };
      const remote = this.world.remote?.get(v);
      return { uid: v, remote: remote?.kind === target ? remote : undefined };
    }
    if (v === undefined || v === null || v === "") return undefined;
    const dep = s.deps?.[field]?.find((d) => d.kind === target);
    return dep ? { subject: dep, uid: dep.uid } : undefined;
  }

  /** The role `r` points at: its name and capabilities, when known. */
  role(r: Ref | undefined): RoleFacts | undefined {
    if (!r) return undefined;
    const from = r.subject?.inputs ?? r.remote?.item;
    if (!from) return undefined;
    const caps = from.capabilities;
    return {
      name: typeof from.name === "string" && isKnown(from.name) ? from.name : undefined,
      capabilities: Array.isArray(caps) && caps.every((c) => typeof c === "string" && isKnown(c)) ? (caps as string[]) : undefined,
      declared: r.subject !== undefined,
    };
  }

  /**
   * The chain of groups from `r` up to the organization: each a resource of the program or a
   * uid. Undefined entries end it where it cannot be told.
   */
  chain(r: Ref | undefined): Ref[] {
    const out: Ref[] = [];
    let cur = r;
    for (let i = 0; cur && i < 64; i++) {
      out.push(cur);
      if (cur.subject && !cur.uid) cur = this.ref(cur.subject, parentField("groups"), "groups");
      else if (cur.uid) {
        const p = parentOf(cur.uid);
        cur = p ? (this.byUid.get(p) ? { subject: this.byUid.get(p), uid: p } : { uid: p }) : undefined;
      } else cur = undefined;
    }
    return out;
  }

  /** The group the identity `r` lives in: from its resource, or from its uid (a uid's parent is its group). */
  identityGroup(r: Ref | undefined): Ref | undefined {
    if (!r) return undefined;
    if (r.subject) return this.ref(r.subject, parentField("identities"), "groups");
    return r.uid && parentOf(r.uid) ? { uid: parentOf(r.uid) } : undefined;
  }
}

/** True when refs `a` and `b` name the same group. */
function same(a: Ref, b: Ref): boolean {
  return (a.subject !== undefined && a.subject === b.subject) || (a.uid !== undefined && a.uid === b.uid);
}

// ---------------------------------------------------------------------------------------------
// Helpers the rules share.

const str = (v: unknown): string | undefined => (typeof v === "string" && isKnown(v) ? v : undefined);
const obj = (v: unknown): Record<string, unknown> | undefined =>
  v && typeof v === "object" && !Array.isArray(v) && isKnown(v) ? (v as Record<string, unknown>) : undefined;

/** The capabilities of a role that make it dangerous to hand out: any delete, or granting roles. */
function dangerous(caps: readonly string[], patterns: readonly string[]): string[] {
  return caps.filter((c) => patterns.some((p) => (p.startsWith("*.") ? c.endsWith(p.slice(1)) : c === p)));
}

/** Why the role `role` is dangerous to hand out (owner, or the capabilities matching `patterns`), or undefined. */
function dangerOf(role: RoleFacts | undefined, patterns: readonly string[]): string | undefined {
  if (!role) return undefined;
  if (role.name === "owner" && !role.declared) return "the built-in role owner";
  const caps = dangerous(role.capabilities ?? [], patterns);
  return caps.length ? `role ${role.name ?? "(unnamed)"}, which holds ${caps.join(", ")}` : undefined;
}

/** Read-only capabilities: lists and pulls. */
function readOnly(caps: readonly string[]): boolean {
  return caps.every((c) => c.endsWith(".list") || c === "registry.pull");
}

/** Well-known CI issuers and a subject of theirs that belongs to nobody's organization. */
export const CI_ISSUERS: readonly { issuer: string; name: string; foreignSubjects: readonly string[] }[] = [
  {
    issuer: "https://token.actions.githubusercontent.com",
    name: "GitHub Actions",
    foreignSubjects: ["repo:irv-policy-probe/any-repo:ref:refs/heads/main", "repo:irv-policy-probe/any-repo:pull_request"],
  },
  { issuer: "https://gitlab.com", name: "GitLab CI", foreignSubjects: ["project_path:irv-policy-probe/any-project:ref_type:branch:ref:main"] },
  { issuer: "https://app.terraform.io", name: "HCP Terraform", foreignSubjects: ["organization:irv-policy-probe:project:any:workspace:any:run_phase:apply"] },
  { issuer: "https://oidc.circleci.com/org/00000000-0000-0000-0000-000000000000", name: "CircleCI", foreignSubjects: ["org/irv-policy-probe/project/any/user/any"] },
  { issuer: "https://agent.buildkite.com", name: "Buildkite", foreignSubjects: ["organization:irv-policy-probe:pipeline:any:ref:refs/heads/main:commit:0:step:any"] },
];

/** Whether the RE2 `pattern` matches all of `s` (as the platform matches patterns); false when it does not compile. */
function fullMatch(pattern: string, s: string): boolean {
  try {
    return RE2JS.compile(`^(?:${pattern})$`).matcher(s).matches();
  } catch {
    return false;
  }
}

/** What is too broad about the claim match `cm`, one sentence each. */
function broadness(cm: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const key of ["issuerPattern", "subjectPattern"]) {
    const p = str(cm[key]);
    if (p === undefined) continue;
    if (!p.startsWith("^") || !p.endsWith("$")) out.push(`claimMatch.${key} ${JSON.stringify(p)} is not anchored (write it as ^...$)`);
    if (/^\^?(\(\?:)?\.[*+]/.test(p)) out.push(`claimMatch.${key} ${JSON.stringify(p)} starts with .*, so it matches any prefix`);
  }
  const sp = str(cm.subjectPattern);
  if (sp !== undefined) {
    const issuer = str(cm.issuer);
    const ip = str(cm.issuerPattern);
    for (const ci of CI_ISSUERS) {
      const trusts = issuer === ci.issuer || (ip !== undefined && fullMatch(ip, ci.issuer));
      if (trusts && ci.foreignSubjects.some((s) => fullMatch(sp, s)))
        out.push(`claimMatch.subjectPattern ${JSON.stringify(sp)} matches subjects of every ${ci.name} user (it matches ${JSON.stringify(ci.foreignSubjects.find((s) => fullMatch(sp, s)))})`);
    }
  }
  return out;
}

/** Whether an issuer URL is https. */
const https = (u: string) => /^https:\/\//i.test(u);
/** Whether an issuer pattern admits only https issuers (it starts with a literal `https://`). */
const httpsPattern = (p: string) => /^\^?(\(\?:)?https:(\\?\/){2}/i.test(p);

/** The invite's lifetime in seconds, when known. */
function lifetimeSeconds(inputs: Record<string, unknown>, now: number): number | undefined {
  const exp = str(inputs.expirationTime);
  if (exp !== undefined) return (Date.parse(exp) - now) / 1000;
  const ttl = str(inputs.ttl);
  if (ttl !== undefined) return DURATION.test(ttl) ? parseFloat(ttl) : undefined;
  if (inputs.ttl === undefined && inputs.expirationTime === undefined) return INVITE_DEFAULT_TTL_SECONDS;
  return undefined;
}

/** The capability patterns that make a role an administrator's, by default. */
export const DANGEROUS_CAPABILITIES = ["*.delete", "role_bindings.create"];

const dangerousConfig: ConfigSchema["properties"] = {
  capabilities: {
    type: "array",
    items: { type: "string" },
    description: "Capabilities that make a role dangerous to hand out; `*.delete` stands for every delete.",
    default: DANGEROUS_CAPABILITIES,
  },
};

// ---------------------------------------------------------------------------------------------
// The rules.

export const RULES: readonly Rule[] = [
  {
    id: "irv-workload-identity-admin-at-root",
    enforcementLevel: "mandatory",
    kinds: ["roleBindings"],
    scope: "stack",
    reason: "A workload identity bound at the organization's root to owner, or to a role that can delete or grant roles, can take over the whole organization if its token leaks.",
    fix: "Bind the identity in the group it works on, to a custom role with only the capabilities its job needs.",
    config: { properties: dangerousConfig },
    check(s, w, c) {
      const group = str(s.inputs[parentField(s.kind)]);
      if (group === undefined || !ROOT_UID.test(group)) return [];
      const identity = w.ref(s, refFields(s.kind, "identities")[0], "identities");
      const item = identity?.subject?.inputs ?? identity?.remote?.item;
      // An identity named by a uid that was not looked up is still a workload identity: every
      // identity takes one of the relationship types.
      if (item && !RELATIONSHIP_TYPES.some((t) => item[t] !== undefined && item[t] !== null && item[t] !== "")) return [];
      const role = w.role(w.ref(s, refFields(s.kind, "roles")[0], "roles"));
      const danger = dangerOf(role, c.capabilities as string[]);
      return danger ? [`binds a workload identity to ${danger} at the organization's root`] : [];
    },
  },
  {
    id: "irv-claim-match-too-broad",
    enforcementLevel: "mandatory",
    kinds: ["identities"],
    scope: "resource",
    reason: "A claimMatch pattern that matches too much lets tokens of other repositories, branches or organizations assume the identity.",
    fix: "Anchor the pattern (^...$), start it with a literal prefix such as your organization, or give the exact `subject`.",
    check(s) {
      const cm = obj(s.inputs.claimMatch);
      return cm ? broadness(cm) : [];
    },
  },
  {
    id: "irv-issuer-not-https",
    enforcementLevel: "mandatory",
    kinds: ["identities", "identityProviders"],
    scope: "resource",
    reason: "Tokens from an issuer that is not https can be forged by anyone on the network path to it.",
    fix: "Use the issuer's https URL (an issuerPattern must start with a literal https://).",
    check(s) {
      const out: string[] = [];
      const blocks = s.kind === "identities" ? ["claimMatch", "staticKeys"] : ["oidc"];
      for (const b of blocks) {
        const block = obj(s.inputs[b]);
        const issuer = str(block?.issuer);
        if (issuer !== undefined && !https(issuer)) out.push(`${b}.issuer ${JSON.stringify(issuer)} is not https`);
        const ip = str(block?.issuerPattern);
        if (ip !== undefined && !httpsPattern(ip)) out.push(`${b}.issuerPattern ${JSON.stringify(ip)} does not start with https://`);
      }
      return out;
    },
  },
  {
    id: "irv-invite-owner-role",
    enforcementLevel: "mandatory",
    kinds: ["groupInvites"],
    scope: "stack",
    reason: "Whoever holds an invite code joins with its role: an owner invite hands out the group to anyone who sees the code.",
    fix: "Invite with a lesser role (viewer, a custom role) and grant more once the person has joined.",
    check(s, w) {
      const role = w.role(w.ref(s, refFields(s.kind, "roles")[0], "roles"));
      return role?.name === "owner" && !role.declared ? ["invites with the built-in role owner"] : [];
    },
  },
  {
    id: "irv-invite-lifetime",
    enforcementLevel: "mandatory",
    kinds: ["groupInvites"],
    scope: "resource",
    reason: "A long-lived invite code stays usable long after it was meant to be used.",
    fix: "Give a shorter `ttl` (or an earlier `expirationTime`).",
    config: { properties: { maxDays: { type: "integer", minimum: 1, description: "The longest an invite may live, in days.", default: 7 } } },
    check(s, w, c) {
      const secs = lifetimeSeconds(s.inputs, w.now);
      const max = Number(c.maxDays) * 86_400;
      return secs !== undefined && secs > max ? [`lives ${Math.round((secs / 86_400) * 10) / 10} days, more than ${c.maxDays}`] : [];
    },
  },
  {
    id: "irv-invite-single-use",
    enforcementLevel: "mandatory",
    kinds: ["groupInvites"],
    scope: "resource",
    reason: "An invite that is not single-use lets everyone who sees its code join.",
    fix: "Set `singleUse: true`.",
    check(s) {
      return isKnown(s.inputs.singleUse) && s.inputs.singleUse !== true ? ["is not single-use"] : [];
    },
  },
  {
    id: "irv-identity-provider-default-role",
    enforcementLevel: "mandatory",
    kinds: ["identityProviders"],
    scope: "stack",
    reason: "Everyone who signs in through the identity provider gets its default role: one that can grant roles or delete gives that power to every user.",
    fix: "Make the default role read-only (viewer) and grant more to the people who need it.",
    config: { properties: dangerousConfig },
    check(s, w, c) {
      const danger = dangerOf(w.role(w.ref(s, refFields(s.kind, "roles")[0], "roles")), c.capabilities as string[]);
      return danger ? [`gives every user who signs in ${danger}`] : [];
    },
  },
  {
    id: "irv-binding-above-identity-group",
    enforcementLevel: "mandatory",
    kinds: ["roleBindings"],
    scope: "stack",
    reason: "Binding an identity in a group above its own gives it power over its own group's parents and siblings: the API allows it, and it is the path to escalation.",
    fix: "Bind the identity in its own group or below, or move the identity up to the group it must act on.",
    config: {
      properties: {
        allowReadOnly: { type: "boolean", description: "Allow such a binding when the role only lists and pulls (an auditor reading the organization).", default: true },
      },
    },
    check(s, w, c) {
      const identityGroup = w.identityGroup(w.ref(s, refFields(s.kind, "identities")[0], "identities"));
      const bindingGroup = w.ref(s, parentField(s.kind), "groups");
      if (!identityGroup || !bindingGroup) return [];
      const chain = w.chain(identityGroup);
      if (same(chain[0], bindingGroup) || !chain.slice(1).some((g) => same(g, bindingGroup))) return [];
      const role = w.role(w.ref(s, refFields(s.kind, "roles")[0], "roles"));
      if (c.allowReadOnly && role?.capabilities && readOnly(role.capabilities)) return [];
      return [`binds the identity in a group above its own${role?.name ? ` (role ${role.name})` : ""}`];
    },
  },
  {
    id: "irv-role-builtin-name",
    enforcementLevel: "mandatory",
    kinds: ["roles"],
    scope: "resource",
    reason: "A custom role named like a built-in role is mistaken for it in bindings, reviews and audits.",
    fix: "Give the custom role a name of its own.",
    check(s) {
      const name = str(s.inputs.name);
      return name !== undefined && Object.hasOwn(BUILTIN_ROLES, name) ? [`is named ${JSON.stringify(name)}, like a built-in role`] : [];
    },
  },
  {
    id: "irv-missing-description",
    enforcementLevel: "advisory",
    kinds: ["identities", "roles"],
    scope: "resource",
    reason: "Without a description, nobody reviewing the organization can tell what an identity or role is for.",
    fix: "Add a `description` that says who or what uses it.",
    check(s) {
      const d = s.inputs.description;
      return isKnown(d) && (typeof d !== "string" || d.trim() === "") ? ["has no description"] : [];
    },
  },
];

/** The rule `id`, or undefined. */
export function ruleById(id: string): Rule | undefined {
  return RULES.find((r) => r.id === id);
}

// ---------------------------------------------------------------------------------------------
// Configuration: Pulumi's `--policy-pack-config` format.

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
    const rule = ruleById(id);
    if (!rule && id !== "all") throw new Error(`${source}: unknown rule ${JSON.stringify(id)} (the rules: ${RULES.map((r) => r.id).join(", ")})`);
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
        prop.type === "array" ? Array.isArray(val) && val.every((x) => typeof x === "string")
        : prop.type === "integer" ? Number.isInteger(val) && (prop.minimum === undefined || (val as number) >= prop.minimum)
        : typeof val === prop.type;
      if (!ok) throw new Error(`${source}: ${id}.${k}: must be ${prop.type === "array" ? "an array of strings" : `a${prop.type === "integer" ? "n integer" : ` ${prop.type}`}${prop.minimum !== undefined ? ` of at least ${prop.minimum}` : ""}`}`);
    }
    out[id] = typeof v === "string" ? (v as EnforcementLevel) : (e as RuleConfigEntry);
  }
  return out;
}

/** The level and settings of `rule` under `config`: the rule's entry, else `all`'s level, else its defaults. */
export function effective(rule: Rule, config: PolicyConfig = {}): Effective {
  const entry = (e: RuleConfigEntry | undefined) => (typeof e === "string" ? { enforcementLevel: e } : (e ?? {}));
  const own = entry(config[rule.id]);
  const all = entry(config.all);
  const settings: Record<string, unknown> = {};
  for (const [k, p] of Object.entries(rule.config?.properties ?? {})) settings[k] = own[k] ?? p.default;
  return { enforcementLevel: own.enforcementLevel ?? all.enforcementLevel ?? rule.enforcementLevel, settings };
}

// ---------------------------------------------------------------------------------------------
// Evaluation.

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
 * resources of the program. Look them up through the API and put them in `world.remote`.
 */
export function uidsToLookUp(world: World): { kind: "roles" | "identities"; uid: string }[] {
  const own = new Set(world.subjects.map((s) => s.uid).filter(Boolean));
  const out = new Map<string, { kind: "roles" | "identities"; uid: string }>();
  for (const s of world.subjects) {
    for (const target of ["roles", "identities"] as const) {
      for (const f of refFields(s.kind, target)) {
        const v = str(s.inputs[f]);
        if (v && !own.has(v)) out.set(v, { kind: target, uid: v });
      }
    }
  }
  return [...out.values()];
}
