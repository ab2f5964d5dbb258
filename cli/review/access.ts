/**
 * The access change of a pending change: the access model of the stack's state before (its roles
 * and identities named by uid looked up through the API) against the proposed one the policy pack
 * recorded (policy/access/world-file.ts), as gained and lost grants in a reviewer's words, and the
 * access gates judged on what is gained.
 */
import { readFileSync } from "node:fs";
import type { Deployment, Stack } from "@pulumi/pulumi/automation";
import { displayNameOf, definitionOf } from "../../api/kinds";
import { effective, type PolicyConfig } from "../../policy/config";
import {
  ACCESS_GATES,
  AccessModel,
  diffAccess,
  isWorkload,
  itemsOfState,
  matchesCapability,
  orgOfItems,
  patternIdentityAdmin,
  workloadIamWrite,
  type AccessDelta,
  type AccessModel as Model,
  type ResourceItem,
  type StateResource,
} from "../../policy/access";
import type { Finding } from "../../policy/world";
import { knownOf, stackClient } from "../access/load";

/** One item named for a reviewer: its name, and its uid beside it when known. */
export interface AccessName {
  key: string;
  name: string;
  uid?: string;
}

/** Gained or lost grants of one subject through one binding on one subtree: one sentence. */
export interface AccessEntry {
  subject: AccessName & { maybe?: string; workload: boolean };
  capabilities: string[];
  group: AccessName;
  /** `group`'s path of names from the organization down (the organization by its uid when its name is not known). */
  path: string[];
  /** How many groups lie below `group`, which inherit what is granted on it. */
  below: number;
  /** Subtrees below `group` the change leaves as they are. */
  except: AccessName[];
  /** Groups concerned: the subtree less the exceptions. */
  groups: number;
  binding: AccessName & { kind: string };
  role: AccessName;
}

/** The access change of a review. */
export interface AccessChange {
  gained: AccessEntry[];
  lost: AccessEntry[];
  /** Grants whose role's capabilities could not be read, in a sentence each. */
  unknown: string[];
  /** What could not be seen. */
  unseen: string[];
  /** Every (subject, capability, subtree) tuple gained and lost, by key. */
  tuples: { gained: AccessDelta[]; lost: AccessDelta[] };
}

/** Gate settings given on the command line, beside the config file's. */
export interface GateOptions {
  /** `CAP[,CAP...]@GROUP`: guard these capabilities on the group's subtree. */
  gates?: { capabilities: string[]; group: string }[];
  /** Resources (or gate ids) let through. */
  allow?: string[];
}

/** The access model of a stack's state and the proposed items, and their change. */
export async function accessChange(
  stack: Stack,
  proposedFile: string,
  state?: Deployment,
): Promise<{ change: AccessChange; before: Model; after: Model } | undefined> {
  let proposed: ResourceItem[];
  try {
    proposed = JSON.parse(readFileSync(proposedFile, "utf8")) as ResourceItem[];
  } catch {
    return undefined;
  }
  state ??= await stack.exportStack();
  const recorded = itemsOfState((state.deployment?.resources ?? []) as StateResource[]);
  // The proposed items carry no uids: an existing resource's comes from the state, so references
  // by uid resolve to the same keys (URNs) on both sides.
  const uidOf = new Map(recorded.map((r) => [r.key, r.uid]));
  for (const p of proposed) p.uid ??= uidOf.get(p.key);
  const known = await knownOf([...recorded, ...proposed], await stackClient(stack).catch(() => undefined));
  const before = new AccessModel(orgOfItems(recorded, known));
  const namesAfter = new Map(known.names);
  for (const r of recorded)
    if (r.uid) namesAfter.set(r.uid, before.groups.get(r.key)?.name ?? before.roles.get(r.key)?.name ?? before.subjects.get(r.key)?.name ?? r.label);
  const after = new AccessModel(orgOfItems(proposed, { ...known, names: namesAfter }));
  const d = diffAccess(before, after);
  const entries = (deltas: AccessDelta[], m: Model) => group(deltas, m);
  const unknown = d.unknown.map(
    (u) =>
      `${nameIn(after, "subject", u.subject).name} gets role ${nameIn(after, "role", u.role).name} on ${nameIn(after, "group", u.at).name} through ${nameIn(after, "binding", u.binding).name}, whose capabilities could not be read`,
  );
  return {
    change: {
      gained: entries(d.gained, after),
      lost: entries(d.lost, before),
      unknown,
      unseen: [...new Set([...before.unseen, ...after.unseen])],
      tuples: { gained: d.gained, lost: d.lost },
    },
    before,
    after,
  };
}

function nameIn(m: Model, kind: "group" | "role" | "subject" | "binding", key: string): AccessName {
  const it = kind === "group" ? m.groups.get(key) : kind === "role" ? m.roles.get(key) : kind === "subject" ? m.subjects.get(key) : m.bindings.get(key);
  return { key, name: it?.name ?? key, ...(it?.uid ? { uid: it.uid } : {}) };
}

/** Deltas folded into one entry per (subject, binding, subtree, exceptions): the capabilities listed together. */
function group(deltas: AccessDelta[], m: Model): AccessEntry[] {
  const out = new Map<string, AccessEntry>();
  for (const d of deltas) {
    for (const b of d.bindings) {
      const id = [d.subject, b, d.group, ...d.except].join("\n");
      const hit = out.get(id);
      if (hit) {
        hit.capabilities.push(d.capability);
        continue;
      }
      const binding = m.bindings.get(b)!;
      const subject = m.subjects.get(d.subject);
      out.set(id, {
        subject: { ...nameIn(m, "subject", d.subject), ...(subject?.maybe ? { maybe: subject.maybe } : {}), workload: !!subject && isWorkload(subject) },
        capabilities: [d.capability],
        group: nameIn(m, "group", d.group),
        path: m
          .ancestors(d.group)
          .reverse()
          .map((g) => m.groups.get(g)?.name ?? g),
        below: m.subtreeSize(d.group) - 1,
        except: d.except.map((e) => nameIn(m, "group", e)),
        groups: d.groups,
        binding: { ...nameIn(m, "binding", b), kind: displayNameOf(definitionOf(binding.source)) },
        role: nameIn(m, "role", binding.role),
      });
      break;
    }
  }
  for (const e of out.values()) e.capabilities.sort();
  return [...out.values()].sort((a, b) => a.subject.name.localeCompare(b.subject.name) || a.group.name.localeCompare(b.group.name));
}

/** The sentence of one entry: "`ci-deploy` gains `role_bindings.create` on `engineering` and its 13 groups below, through ...". */
export function sentence(e: AccessEntry, verb: "gains" | "loses", q: (s: string) => string = (s) => s): string {
  const below = e.groups - 1;
  const groups = (n: number) => `${n} group${n === 1 ? "" : "s"}`;
  const where = e.except.length
    ? `${q(e.group.name)}${below > 0 ? ` and ${groups(below)} below it` : ""} (not ${e.except.map((x) => q(x.name)).join(", ")} and below, held already)`
    : `${q(e.group.name)}${below > 0 ? ` and its ${groups(below)} below` : ""}`;
  return `${q(e.subject.name)} ${verb} ${e.capabilities.map(q).join(", ")} on ${where}, through the ${e.binding.kind === "iam.RoleBinding" ? "binding" : e.binding.kind === "iam.GroupInvite" ? "invite" : "identity provider"} ${q(e.binding.name)} of role ${q(e.role.name)}`;
}

/** List setting `name` of a gate's settings: its names (policy/config.ts refuses a list setting that holds anything else). */
function names(settings: Record<string, unknown>, name: string): string[] {
  const v = settings[name];
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
}

/** The access gates' findings on what `change` gains, under `config` and the command line's gates. */
export function gateFindings(change: AccessChange, after: Model, config: PolicyConfig, o: GateOptions = {}): Finding[] {
  const out: Finding[] = [];
  const allowed = (e: AccessEntry, list: readonly string[]) =>
    [e.binding, e.subject].some((n) => list.includes(n.name) || list.includes(n.key) || (n.uid !== undefined && list.includes(n.uid)));
  const resolve = (g: string) => (after.groups.has(g) ? [g] : [...after.groups.values()].filter((x) => x.uid === g || x.name === g).map((x) => x.key));
  const touches = (e: AccessEntry, root: string) => {
    const up = after.ancestors(e.group.key);
    if (up.includes(root)) return true;
    const down = after.ancestors(root);
    return down.includes(e.group.key) && !e.except.some((x) => down.includes(x.key));
  };
  const finding = (id: string, level: Finding["enforcementLevel"], e: AccessEntry, capabilities: string[], fix: string): Finding => ({
    rule: id,
    enforcementLevel: level,
    urn: e.binding.key.startsWith("urn:") ? e.binding.key : "",
    name: e.binding.name,
    kind: e.binding.kind,
    message: sentence({ ...e, capabilities }, "gains"),
    fix,
  });
  for (const gate of ACCESS_GATES) {
    const { enforcementLevel, settings } = effective(gate, config);
    if (enforcementLevel === "disabled" || o.allow?.includes(gate.id)) continue;
    const allow = [...names(settings, "allow"), ...(o.allow ?? [])];
    for (const e of change.gained) {
      if (allowed(e, allow)) continue;
      if (gate.id === "irv-workload-iam-write") {
        const subject = after.subjects.get(e.subject.key);
        const caps = e.capabilities.filter((c) => workloadIamWrite(subject, c));
        if (caps.length) out.push(finding(gate.id, enforcementLevel, e, caps, gate.fix));
        continue;
      }
      if (gate.id === "irv-pattern-identity-admin") {
        const subject = after.subjects.get(e.subject.key);
        const caps = e.capabilities.filter((c) => patternIdentityAdmin(subject, c, names(settings, "capabilities")));
        if (caps.length)
          out.push({
            ...finding(gate.id, enforcementLevel, e, caps, gate.fix),
            message: `${sentence({ ...e, capabilities: caps }, "gains")}, and ${e.subject.name} stands for ${e.subject.maybe}`,
          });
        continue;
      }
      const guards = [
        { capabilities: names(settings, "capabilities"), groups: names(settings, "groups") },
        ...(o.gates ?? []).map((g) => ({ capabilities: g.capabilities, groups: [g.group] })),
      ];
      const caps = new Set<string>();
      for (const g of guards)
        if (g.groups.flatMap(resolve).some((root) => touches(e, root))) for (const c of e.capabilities) if (matchesCapability(c, g.capabilities)) caps.add(c);
      if (caps.size) out.push(finding(gate.id, enforcementLevel, e, [...caps].sort(), gate.fix));
    }
  }
  return out;
}
