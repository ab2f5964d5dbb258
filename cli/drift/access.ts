/**
 * Drift of access: what grants access inside the groups a stack manages but is not in the stack
 * (role bindings, identities, custom roles, invites and identity providers made by hand), each
 * with the access it grants. Listed in pages over the managed subtrees (one listing per kind per
 * top managed group), never read one by one.
 */
import type { StackContents } from "../stack";
import { displayNameOf, definitionOf, definitionOfTypeToken, type Kind } from "../../api/kinds";
import { isStrings } from "../../api/guards";
import { isSelfOrAncestor } from "../../api/uid";
import { AccessModel, hydratedNames, itemsOfApi, itemsOfState, orgOfItems, type ResourceItem, type StateResource } from "../../policy/access";
import { clientOfContents } from "../access/load";
import { UsageError } from "../command";
import { WATCHED_KINDS } from "./watched";

export { WATCHED_KINDS } from "./watched";

/** The stack config key listing expected items (uids or names), a JSON array or comma-separated. */
export const EXPECTED_KEY = "irv-drift:expectedAccess";

/** One item made outside the stack inside a managed group, and what it grants. */
export interface UnmanagedItem {
  kind: string;
  uid: string;
  name: string;
  /** The group it lives in, by name. */
  group: string;
  /** What it grants, in one sentence each. */
  grants: string[];
}

/** The access part of a drift report. */
export interface AccessDrift {
  unmanaged: UnmanagedItem[];
  /** The top groups the stack manages, by name, and the kinds looked at. */
  watched: { groups: string[]; kinds: string[] };
  /** How many items were declared expected and left out. */
  expected: number;
}

/** Options of `accessDrift`. */
export interface AccessDriftOptions {
  /** Items (uids or names) made outside the stack on purpose. */
  expected?: string[];
  /** The kinds to watch (default all of `WATCHED_KINDS`). */
  kinds?: Kind[];
}

/**
 * The items the stack's managed subtrees hold that the stack does not, or undefined without an
 * API, read with the stack's settings.
 */
export async function accessDrift(contents: StackContents, o: AccessDriftOptions = {}): Promise<AccessDrift | undefined> {
  const { state, config } = contents;
  const client = clientOfContents(contents);
  if (!client) return undefined;
  const resources = (state.deployment?.resources ?? []) as StateResource[];
  const managed = new Set(
    resources
      .filter((r) => definitionOfTypeToken(r.type))
      .map((r) => r.id)
      .filter((id): id is string => !!id),
  );
  const groups = resources.filter((r) => definitionOfTypeToken(r.type)?.kind === "groups" && r.id).map((r) => r.id!);
  const tops = groups.filter((g) => !groups.some((o) => o !== g && isSelfOrAncestor(o, g))).sort();
  const expected = new Set([...(o.expected ?? []), ...listOf(config[EXPECTED_KEY]?.value)]);
  const kinds = o.kinds ?? [...WATCHED_KINDS];
  const live = new Map<string, ResourceItem>();
  for (const it of await itemsOfApi(client, tops)) live.set(it.key, it);
  const recorded = itemsOfState(resources);
  const names = hydratedNames([...live.values(), ...recorded]);
  const model = new AccessModel(orgOfItems([...live.values()], { names }));
  const groupName = (uid: string) => model.groups.get(uid)?.name ?? uid;
  const unmanaged: UnmanagedItem[] = [];
  let skipped = 0;
  for (const it of live.values()) {
    if (!kinds.includes(it.kind) || managed.has(it.key) || !tops.some((t) => isSelfOrAncestor(t, it.key))) continue;
    if (expected.has(it.key) || expected.has(it.label)) {
      skipped++;
      continue;
    }
    const group = it.key.slice(0, it.key.lastIndexOf("/"));
    unmanaged.push({ kind: displayNameOf(definitionOf(it.kind)), uid: it.key, name: it.label, group: groupName(group), grants: grantsOf(model, it) });
  }
  unmanaged.sort((a, b) => a.kind.localeCompare(b.kind) || a.uid.localeCompare(b.uid));
  return { unmanaged, watched: { groups: tops.map(groupName), kinds }, expected: skipped };
}

/** What one item grants, in words. */
function grantsOf(m: AccessModel, it: ResourceItem): string[] {
  const caps = (role: string) => m.capabilitiesOf(role);
  const role = (key: string) => m.roles.get(key)?.name ?? key;
  const on = (g: string) => {
    const below = m.subtreeSize(g) - 1;
    return `${m.groups.get(g)?.name ?? g}${below ? ` and its ${below} group${below === 1 ? "" : "s"} below` : ""}`;
  };
  const binding = (key: string) => {
    const b = m.bindings.get(key);
    if (!b) return [];
    const c = caps(b.role);
    const who = m.subjects.get(b.subject)?.maybe ?? m.subjects.get(b.subject)?.name ?? b.subject;
    return [`${who} gets role ${role(b.role)} (${c ? `${c.size} capabilities` : "capabilities not readable"}) on ${on(b.group)}`];
  };
  if (it.kind === "roleBindings" || it.kind === "groupInvites" || it.kind === "identityProviders") return binding(it.key);
  if (it.kind === "identities") return m.bindingsOf(it.key).flatMap((b) => binding(b.key));
  return [...m.bindings.values()].filter((b) => b.role === it.key).flatMap((b) => binding(b.key));
}

/** A config value as a list: a JSON array of strings, or comma-separated. */
function listOf(v: string | undefined): string[] {
  if (!v) return [];
  if (v.trim().startsWith("[")) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(v);
    } catch {
      parsed = undefined;
    }
    if (!isStrings(parsed)) throw new UsageError(`${EXPECTED_KEY} must be a JSON array of strings or a comma-separated list`);
    return parsed;
  }
  return v
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
}
