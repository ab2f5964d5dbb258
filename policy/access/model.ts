/**
 * The access model: who holds which capability on which group, and why. Indexed once (groups by
 * parent, bindings by group and by subject, roles' capabilities as sets), so each question costs
 * the depth of a group times the bindings on its ancestors, never a scan of all pairs.
 */
import { capabilityNamed } from "../../api/capabilities";
import { parentOf } from "../../api/uid";
import type { AccessBinding, AccessGroup, AccessRole, AccessSubject, Org } from "./org";

/** Deeper than any real hierarchy: a cycle in hostile data stops here. */
const MAX_DEPTH = 256;

/** One capability a subject holds on a group, and the binding that grants it. */
export interface Grant {
  subject: string;
  capability: string;
  /** The group asked about. */
  group: string;
  /** The group the binding is on: `group` itself (direct) or one of its ancestors (inherited). */
  at: string;
  inherited: boolean;
  binding: string;
  role: string;
}

/** A binding whose role's capabilities could not be read: it may grant anything. */
export interface UnknownGrant {
  subject: string;
  binding: string;
  role: string;
  at: string;
}

/** The answer of `canI`. */
export interface CanI {
  /** `unknown` when no seen binding grants it and a binding whose role could not be read might. */
  answer: "yes" | "no" | "unknown";
  grants: Grant[];
  unknown: UnknownGrant[];
}

/** What a subject holds on one group's subtree: through which bindings. */
export interface Holding {
  group: string;
  binding: string;
  role: string;
  /** The role's capabilities, or undefined when they could not be read. */
  capabilities?: readonly string[];
  /** True when an ancestor's binding already grants every one of these capabilities. */
  redundant: boolean;
}

/** The subtrees on which a subject holds one capability: minimal roots (none below another). */
export type Cover = Map<string, Map<string, string[]>>;

export class AccessModel {
  readonly groups = new Map<string, AccessGroup>();
  readonly roles = new Map<string, AccessRole>();
  readonly subjects = new Map<string, AccessSubject>();
  readonly bindings = new Map<string, AccessBinding>();
  readonly unseen: readonly string[];
  private readonly children = new Map<string, string[]>();
  private readonly byGroup = new Map<string, AccessBinding[]>();
  private readonly bySubject = new Map<string, AccessBinding[]>();
  private readonly caps = new Map<string, ReadonlySet<string> | undefined>();
  private sizes?: Map<string, number>;
  private readonly byName = new Map<string, Map<string, string[]>>();

  constructor(org: Org) {
    this.unseen = org.unseen;
    for (const g of org.groups) this.groups.set(g.key, g);
    for (const r of org.roles) {
      this.roles.set(r.key, r);
      // A role read from the API names its capabilities by the wire's enum (`CAP_IAM_GROUPS_LIST`).
      this.caps.set(r.key, r.capabilities ? new Set(r.capabilities.map((c) => capabilityNamed(c) ?? c)) : undefined);
    }
    for (const s of org.subjects) this.subjects.set(s.key, s);
    for (const b of org.bindings) {
      this.bindings.set(b.key, b);
      this.implicitGroup(b.group);
      push(this.byGroup, b.group, b);
      push(this.bySubject, b.subject, b);
    }
    for (const g of [...this.groups.values()]) if (g.parent) this.implicitGroup(g.parent);
    for (const g of this.groups.values()) if (g.parent) push(this.children, g.parent, g.key);
  }

  /** A group only known by its uid (the organization, a group outside what was listed): its parent from the uid. */
  private implicitGroup(key: string): void {
    for (let k: string | undefined = key, i = 0; k !== undefined && !this.groups.has(k) && i < MAX_DEPTH; i++) {
      const parent = parentOf(k);
      this.groups.set(k, { key: k, name: k, uid: k, parent });
      k = parent;
    }
  }

  /** The keys with this name among groups, roles, subjects or bindings. */
  named(kind: "group" | "role" | "subject" | "binding", name: string): string[] {
    let m = this.byName.get(kind);
    if (!m) {
      // Built on first use: a question names one thing, the index of every name is for the next.
      m = new Map<string, string[]>();
      const items = kind === "group" ? this.groups : kind === "role" ? this.roles : kind === "subject" ? this.subjects : this.bindings;
      for (const it of items.values()) push(m, it.name, it.key);
      this.byName.set(kind, m);
    }
    return m.get(name) ?? [];
  }

  /** `group` and its ancestors, nearest first. */
  ancestors(group: string): string[] {
    const out: string[] = [];
    for (let g: string | undefined = group; g !== undefined && out.length < MAX_DEPTH; g = this.groups.get(g)?.parent) {
      if (out.includes(g)) break;
      out.push(g);
    }
    return out;
  }

  /** The groups directly below `group`. */
  childrenOf(group: string): readonly string[] {
    return this.children.get(group) ?? [];
  }

  /** How many groups `group`'s subtree holds, itself included. */
  subtreeSize(group: string): number {
    if (!this.sizes) {
      // Deepest first: each group adds its size to its parent's once.
      const depth = new Map<string, number>();
      for (const g of this.groups.keys()) depth.set(g, this.ancestors(g).length);
      const sizes = new Map<string, number>();
      for (const g of [...this.groups.keys()].sort((a, b) => depth.get(b)! - depth.get(a)!)) {
        const n = (sizes.get(g) ?? 0) + 1;
        sizes.set(g, n);
        const p = this.groups.get(g)!.parent;
        if (p !== undefined && this.groups.has(p)) sizes.set(p, (sizes.get(p) ?? 0) + n);
      }
      this.sizes = sizes;
    }
    return this.sizes.get(group) ?? 1;
  }

  /** The capabilities of a role, or undefined when they could not be read. */
  capabilitiesOf(role: string): ReadonlySet<string> | undefined {
    return this.caps.get(role);
  }

  /** The bindings on `group` itself. */
  bindingsOn(group: string): readonly AccessBinding[] {
    return this.byGroup.get(group) ?? [];
  }

  /** The bindings of `subject`. */
  bindingsOf(subject: string): readonly AccessBinding[] {
    return this.bySubject.get(subject) ?? [];
  }

  /** Whether `subject` holds `capability` on `group`, and through which bindings. */
  canI(subject: string, capability: string, group: string): CanI {
    const grants: Grant[] = [];
    const unknown: UnknownGrant[] = [];
    for (const at of this.ancestors(group)) {
      for (const b of this.bindingsOn(at)) {
        if (b.subject !== subject) continue;
        const caps = this.caps.get(b.role);
        if (!caps) unknown.push({ subject, binding: b.key, role: b.role, at });
        else if (caps.has(capability)) grants.push({ subject, capability, group, at, inherited: at !== group, binding: b.key, role: b.role });
      }
    }
    return { answer: grants.length ? "yes" : unknown.length ? "unknown" : "no", grants, unknown };
  }

  /** Every subject holding `capability` on `group`, one grant per binding, and the bindings that might. */
  whoCan(capability: string, group: string): { grants: Grant[]; unknown: UnknownGrant[] } {
    const grants: Grant[] = [];
    const unknown: UnknownGrant[] = [];
    for (const at of this.ancestors(group)) {
      for (const b of this.bindingsOn(at)) {
        const caps = this.caps.get(b.role);
        if (!caps) unknown.push({ subject: b.subject, binding: b.key, role: b.role, at });
        else if (caps.has(capability)) grants.push({ subject: b.subject, capability, group, at, inherited: at !== group, binding: b.key, role: b.role });
      }
    }
    return { grants, unknown };
  }

  /** What `subject` holds, by the group each binding is on (shallowest first). */
  what(subject: string): Holding[] {
    const mine = this.bindingsOf(subject);
    const out = mine.map((b) => {
      const caps = this.caps.get(b.role);
      const above = mine.filter((o) => o !== b && o.group !== b.group && this.ancestors(b.group).includes(o.group));
      const redundant = !!caps && caps.size > 0 && [...caps].every((c) => above.some((o) => this.caps.get(o.role)?.has(c)));
      return { group: b.group, binding: b.key, role: b.role, capabilities: caps ? [...caps].sort() : undefined, redundant };
    });
    const depth = (g: string) => this.ancestors(g).length;
    return out.sort((a, b) => depth(a.group) - depth(b.group) || a.group.localeCompare(b.group) || a.binding.localeCompare(b.binding));
  }

  /**
   * The subtrees on which `subject` holds each capability: capability -> minimal subtree roots ->
   * the bindings on that root granting it. Bindings whose role could not be read are left out.
   */
  cover(subject: string): Cover {
    const out: Cover = new Map();
    for (const b of this.bindingsOf(subject)) {
      for (const c of this.caps.get(b.role) ?? []) {
        let roots = out.get(c);
        if (!roots) out.set(c, (roots = new Map()));
        const via = roots.get(b.group);
        if (via) via.push(b.key);
        else roots.set(b.group, [b.key]);
      }
    }
    for (const roots of out.values())
      for (const g of [...roots.keys()])
        if (
          this.ancestors(g)
            .slice(1)
            .some((a) => roots.has(a))
        )
          roots.delete(g);
    return out;
  }

  /** The bindings of `subject` whose role's capabilities could not be read. */
  unknownOf(subject: string): UnknownGrant[] {
    return this.bindingsOf(subject)
      .filter((b) => !this.caps.get(b.role))
      .map((b) => ({ subject, binding: b.key, role: b.role, at: b.group }));
  }
}

function push<K, V>(m: Map<K, V[]>, k: K, v: V): void {
  const list = m.get(k);
  if (list) list.push(v);
  else m.set(k, [v]);
}
