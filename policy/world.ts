/**
 * What the IAM guardrails judge (policy/rules.ts): a `World` of the program's irv resources, each
 * with its inputs and what its reference fields point at, plus the roles and identities the
 * program names by uid, looked up through the API; the shape of a rule and of its findings; and
 * how references resolve over a world. Which fields are references and which kind each refers to
 * come from the kinds' definitions (api/kinds).
 */
import { definitionOf, definitionOfTypeToken, displayNameOf, fieldEntries, type Kind } from "../api/kinds";
import { isStrings } from "../api/guards";
import { parentOf } from "../api/uid";
import { builtinRoleOf } from "../api/builtin-roles";
import { unknownValue } from "../provider/sentinels";

/** How a rule's finding is enforced: Pulumi's enforcement levels. */
export type EnforcementLevel = "advisory" | "mandatory" | "disabled";
export const ENFORCEMENT_LEVELS: readonly EnforcementLevel[] = ["advisory", "mandatory", "disabled"];

/**
 * A value the engine does not know yet (preview): the engine's sentinel, the same `UNKNOWN` as the
 * provider's and `irv`'s. The pack reads an unknown input as this too (see policies.ts).
 */
export const UNKNOWN: string = unknownValue;

/** True when `v` is known (not an unknown-at-preview value). */
export function isKnown(v: unknown): boolean {
  return v !== UNKNOWN;
}

/** One irv resource of the program, as the rules see it. */
export interface Subject {
  /** Its URN (the finding names it). */
  urn: string;
  /** Its logical name. */
  name: string;
  kind: Kind;
  /** Its inputs; a value not known yet is `UNKNOWN`. */
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
  /**
   * Uids the rules needed looked up but that could not be (no API in the engine's environment),
   * with why: a rule that cannot judge a resource without them says so instead of passing it.
   */
  unresolved?: Map<string, string>;
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
  properties: Record<
    string,
    { type: "integer" | "boolean" | "array" | "string"; description: string; default: unknown; items?: { type: "string" }; minimum?: number }
  >;
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

/** The display name of a kind: `iam.Role`. */
export function kindLabel(kind: Kind): string {
  return displayNameOf(definitionOf(kind));
}

/** The fields of `kind` that name a resource of `target` by uid (`refersTo`), parent included. */
export function refFields(kind: Kind, target: string): string[] {
  return fieldEntries(definitionOf(kind).fields)
    .filter(([, f]) => f.refersTo === target)
    .map(([k]) => k);
}

/** The parent field of `kind`. */
export function parentField(kind: Kind): string {
  return definitionOf(kind).parentField;
}

/** The subject of a URN's type token, or undefined when it is not an irv resource. */
export function kindOfType(type: string): Kind | undefined {
  return definitionOfTypeToken(type)?.kind;
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

  /** The role `r` points at: its name and capabilities, when known (a built-in role's always: api/builtin-roles.ts). */
  role(r: Ref | undefined): RoleFacts | undefined {
    if (!r) return undefined;
    const from = r.subject?.inputs ?? r.remote?.item ?? (r.uid ? builtinRoleOf(r.uid) : undefined);
    if (!from) return undefined;
    const caps = from.capabilities;
    return {
      name: typeof from.name === "string" && isKnown(from.name) ? from.name : undefined,
      capabilities: isStrings(caps) && caps.every(isKnown) ? caps : undefined,
      declared: r.subject !== undefined,
    };
  }

  /** Why what `r` points at could not be looked up, when a rule needed it and it could not be. */
  unresolved(r: Ref | undefined): string | undefined {
    return r && !r.subject && !r.remote && r.uid ? this.world.unresolved?.get(r.uid) : undefined;
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
export function sameRef(a: Ref, b: Ref): boolean {
  return (a.subject !== undefined && a.subject === b.subject) || (a.uid !== undefined && a.uid === b.uid);
}
