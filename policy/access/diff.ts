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
  const subjects = new Set([...after.subjects.keys(), ...before.subjects.keys()]);
  for (const b of after.bindings.values()) subjects.add(b.subject);
  for (const b of before.bindings.values()) subjects.add(b.subject);
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
