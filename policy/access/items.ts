/**
 * An organization from resource items, wherever they come from (a stack's state, the policy pack's
 * view of a proposed change, the API's lists): each item's reference fields resolve to keys, and
 * the roles, identities and groups they name but that are not among the items are filled in from
 * what is known of them (hydrated names, the built-in roles) or said to be unseen.
 */
import { BUILTIN_ROLES } from "../../api/capabilities";
import { builtinRoleOf } from "../../api/builtin-roles";
import { isStrings } from "../../api/guards";
import type { Kind } from "../../api/kinds";
import { relationshipTypeOf } from "../../api/kinds/identities";
import { ROOT_UID } from "../../api/uid";
import { isKnown, parentField, refFields } from "../world";
import type { AccessBinding, AccessSubject, Org } from "./org";

/** One resource: its kind, key (uid, or URN before it exists), logical name and fields. */
export interface ResourceItem {
  kind: Kind;
  key: string;
  /** The name to show: a stack resource's logical name; for API items, their `name` field or uid. */
  label: string;
  uid?: string;
  fields: Record<string, unknown>;
  /** For a reference whose value is not known yet: the keys of the items it depends on. */
  deps?: Record<string, string[]>;
}

/** What is known of items outside the list: names by uid (hydrated in bindings), roles read elsewhere. */
export interface Known {
  names?: Map<string, string>;
  roles?: Map<string, { name?: string; capabilities?: readonly string[] }>;
}

const str = (v: unknown): string | undefined => (typeof v === "string" && v !== "" && isKnown(v) ? v : undefined);

/** A name as it may be printed: control characters (a terminal's escape sequences, line breaks) replaced. */
export function printable(name: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what it replaces
  return name.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, "\ufffd");
}

/** Names hydrated in role bindings (their `identity`, `group` and `role` objects), by uid. */
export function hydratedNames(items: Iterable<ResourceItem>, into = new Map<string, string>()): Map<string, string> {
  for (const it of items) {
    if (it.kind !== "roleBindings") continue;
    for (const k of ["identity", "group", "role"]) {
      const o = it.fields[k] as { uid?: unknown; name?: unknown } | undefined;
      if (o && typeof o.uid === "string" && typeof o.name === "string" && o.name) into.set(o.uid, printable(o.name));
    }
  }
  return into;
}

/** The role a built-in name stands for, when `uid` is a root uid (custom roles live in groups). */
function builtin(uid: string, name: string | undefined): readonly string[] | undefined {
  const known = builtinRoleOf(uid);
  if (known) return known.capabilities;
  return name !== undefined && ROOT_UID.test(uid) && Object.hasOwn(BUILTIN_ROLES, name) ? BUILTIN_ROLES[name].capabilities : undefined;
}

/** The organization the items describe. */
export function orgOfItems(items: readonly ResourceItem[], known: Known = {}): Org {
  const names = hydratedNames(items, new Map(known.names));
  const byUid = new Map<string, ResourceItem>();
  for (const it of items) if (it.uid) byUid.set(it.uid, it);
  const keys = new Set(items.map((i) => i.key));
  const ref = (it: ResourceItem, field: string): string | undefined => {
    const v = str(it.fields[field]);
    if (v !== undefined) return byUid.get(v)?.key ?? v;
    return it.deps?.[field]?.find((k) => keys.has(k));
  };
  const org: Org = { groups: [], roles: [], subjects: [], bindings: [], unseen: [] };
  const roleKeys = new Set<string>();
  const subjectKeys = new Set<string>();
  /** A grant of the role item `it` names (by its field that refers to roles) to `subject`, on its parent group. */
  const grant = (it: ResourceItem, source: AccessBinding["source"], subject: string | undefined) => {
    const group = ref(it, parentField(it.kind));
    const role = ref(it, refFields(it.kind, "roles")[0]);
    if (group && subject && role) org.bindings.push({ key: it.key, name: printable(it.label), uid: it.uid, source, group, subject, role });
  };
  for (const it of items) {
    const f = it.fields;
    const name = printable(str(f.name) ?? it.label);
    switch (it.kind) {
      case "groups":
        org.groups.push({ key: it.key, name, uid: it.uid, parent: ref(it, parentField("groups")) });
        break;
      case "roles":
        roleKeys.add(it.key);
        org.roles.push({
          key: it.key,
          name,
          uid: it.uid,
          capabilities: isStrings(f.capabilities) && f.capabilities.every((c) => str(c)) ? f.capabilities : undefined,
        });
        break;
      case "identities":
        subjectKeys.add(it.key);
        org.subjects.push({ key: it.key, name, uid: it.uid, ...identityType(f) });
        break;
      case "roleBindings":
        grant(it, "roleBindings", ref(it, refFields("roleBindings", "identities")[0]));
        break;
      case "groupInvites":
        org.subjects.push({ key: it.key, name, uid: it.uid, type: "invite", maybe: "whoever redeems the invite's code" });
        subjectKeys.add(it.key);
        grant(it, "groupInvites", it.key);
        break;
      case "identityProviders":
        org.subjects.push({ key: it.key, name, uid: it.uid, type: "identityProvider", maybe: "every user who signs in through the identity provider" });
        subjectKeys.add(it.key);
        grant(it, "identityProviders", it.key);
        break;
      default:
        break;
    }
  }
  // What the bindings name but the items do not hold.
  const groupKeys = new Set(org.groups.map((g) => g.key));
  for (const b of org.bindings) {
    if (!roleKeys.has(b.role)) {
      roleKeys.add(b.role);
      const read = known.roles?.get(b.role);
      const name = read?.name ?? names.get(b.role) ?? builtinRoleOf(b.role)?.name;
      const capabilities = read?.capabilities ?? builtin(b.role, name);
      org.roles.push({ key: b.role, name: name ?? b.role, uid: b.role, capabilities });
      if (!capabilities) org.unseen.push(`the capabilities of role ${name ? `${name} (${b.role})` : b.role}: what its bindings grant is unknown`);
    }
    if (!subjectKeys.has(b.subject)) {
      subjectKeys.add(b.subject);
      org.subjects.push({ key: b.subject, name: names.get(b.subject) ?? b.subject, uid: b.subject, type: "identity" });
    }
    if (!groupKeys.has(b.group) && names.has(b.group)) {
      groupKeys.add(b.group);
      org.groups.push({ key: b.group, name: names.get(b.group)!, uid: b.group, parent: undefined });
    }
  }
  for (const g of org.groups) if (g.parent === undefined && g.uid && g.uid.includes("/")) g.parent = g.uid.slice(0, g.uid.lastIndexOf("/"));
  for (const g of [...org.groups])
    if (g.parent && !groupKeys.has(g.parent) && names.has(g.parent)) org.groups.push({ key: g.parent, name: names.get(g.parent)!, uid: g.parent });
  return org;
}

/** An identity's relationship type, and why it stands for many principals when a pattern matches them. */
function identityType(f: Record<string, unknown>): Pick<AccessSubject, "type" | "maybe"> {
  const type = relationshipTypeOf(f);
  if (!type) return { type: "identity" };
  const block = f[type] as Record<string, unknown>;
  const quoted = (v: unknown) => printable(JSON.stringify(v));
  if (type === "claimMatch") {
    const patterns = ["issuerPattern", "subjectPattern"].filter((k) => str(block?.[k]) !== undefined);
    if (patterns.length)
      return { type, maybe: `every token whose ${patterns.map((p) => `${p.replace("Pattern", "")} matches ${quoted(block[p])}`).join(" and ")}` };
  }
  if (type === "awsIdentity") {
    const patterns = ["arnPattern", "userIdPattern"].filter((k) => str(block?.[k]) !== undefined);
    if (patterns.length)
      return { type, maybe: `every AWS principal whose ${patterns.map((p) => `${p.replace("Pattern", "")} matches ${quoted(block[p])}`).join(" and ")}` };
  }
  return { type };
}
