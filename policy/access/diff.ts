/**
 * The access a change grants and takes away: for every subject and capability, the subtrees it
 * holds it on before and after, compared as sets of groups (a new group below a subtree already
 * held is no new access; a binding moved from a group to its parent gains the rest of the parent's
 * subtree).
 */
import type { AccessModel, Cover, UnknownGrant } from "./model";

/** One capability a subject gains or loses on a group's subtree, except the subtrees it keeps. */
export interface AccessDelta {
  subject: string;
  capability: string;
  /** The subtree's root. */
  group: string;
  /** Subtrees below `group` where nothing changes (held before and after). */
  except: string[];
  /** How many groups the change concerns: the subtree less the exceptions. */
  groups: number;
  /** The bindings on `group` that grant it after (gained) or granted it before (lost). */
  bindings: string[];
}

/** The access change between two models of the same organization (keys shared). */
export interface AccessDiff {
  gained: AccessDelta[];
  lost: AccessDelta[];
  /** Bindings new in `after` (or with a new role) whose role's capabilities could not be read. */
  unknown: UnknownGrant[];
}

/** What `after` grants that `before` does not, and the reverse. */
export function diffAccess(before: AccessModel, after: AccessModel): AccessDiff {
  const subjects = affected(before, after);
  const gained: AccessDelta[] = [];
  const lost: AccessDelta[] = [];
  const unknown: UnknownGrant[] = [];
  for (const s of subjects) {
    const was = before.cover(s);
    const is = after.cover(s);
    gained.push(...gains(s, is, was, after));
    lost.push(...gains(s, was, is, before));
    for (const u of after.unknownOf(s)) {
      const old = before.bindings.get(u.binding);
      if (!old || old.role !== u.role || old.group !== u.at || old.subject !== u.subject) unknown.push(u);
    }
  }
  return { gained, lost, unknown };
}

/** What `is` covers that `was` does not, over the groups of `model` (the side `is` belongs to). */
function gains(subject: string, is: Cover, was: Cover, model: AccessModel): AccessDelta[] {
  const out: AccessDelta[] = [];
  for (const [capability, roots] of is) {
    const old = was.get(capability);
    for (const [group, bindings] of roots) {
      if (old && model.ancestors(group).some((a) => old.has(a))) continue;
      const except = old ? [...old.keys()].filter((g) => g !== group && model.ancestors(g).includes(group)).sort() : [];
      const groups = model.subtreeSize(group) - except.reduce((n, g) => n + (model.groups.has(g) ? model.subtreeSize(g) : 0), 0);
      if (groups <= 0) continue;
      out.push({ subject, capability, group, except, groups, bindings: [...bindings].sort() });
    }
  }
  return out;
}

/** Whether two capability sets (undefined: not readable) differ. */
function sameCaps(a: ReadonlySet<string> | undefined, b: ReadonlySet<string> | undefined): boolean {
  if (!a || !b) return a === b;
  return a.size === b.size && [...a].every((c) => b.has(c));
}

/**
 * The subjects whose access may differ: those of a binding added, removed or changed, of a binding
 * to a role whose capabilities changed, or of a binding on a group above one that moved. Every
 * other subject holds the same bindings of the same roles on the same subtrees.
 */
function affected(before: AccessModel, after: AccessModel): Set<string> {
  const out = new Set<string>();
  const roles = new Set([...before.roles.keys(), ...after.roles.keys()]);
  const changedRoles = new Set([...roles].filter((r) => !sameCaps(before.capabilitiesOf(r), after.capabilitiesOf(r))));
  for (const [one, other] of [
    [before, after],
    [after, before],
  ] as const) {
    for (const b of one.bindings.values()) {
      const o = other.bindings.get(b.key);
      if (!o || o.subject !== b.subject || o.group !== b.group || o.role !== b.role || changedRoles.has(b.role)) out.add(b.subject);
    }
    for (const g of one.groups.values()) {
      const o = other.groups.get(g.key);
      if (!o || o.parent === g.parent) continue;
      for (const m of [one, other]) for (const a of m.ancestors(g.key)) for (const b of m.bindingsOn(a)) out.add(b.subject);
    }
  }
  return out;
}
