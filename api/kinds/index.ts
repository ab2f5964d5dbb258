/**
 * Every resource kind, once: one module per kind holds its facts (collection, SDK class, parent
 * field, fields with types and descriptions, which replace, which are secret, which the API
 * never returns). The provider builds one dynamic provider per entry, the SDK one resource class,
 * `irv export` one block of declarations, and the tests walk this list so a new kind cannot go
 * untested.
 */
import { accountAssociations } from "./accountAssociations";
import { groupInvites } from "./groupInvites";
import { groups } from "./groups";
import { identities } from "./identities";
import { identityProviders } from "./identityProviders";
import { roleBindings } from "./roleBindings";
import { roles } from "./roles";

import type { FieldDefinition } from "./definition";

export * from "./definition";

/** The kinds, in the order the docs and `irv export` list them. */
export const KINDS = [groups, identities, roles, roleBindings, identityProviders, accountAssociations, groupInvites] as const;

/** A resource kind's name; also the name of its API collection. */
export type Kind = (typeof KINDS)[number]["kind"];

/** The definition of `kind`. */
export function kindInfo<K extends Kind>(kind: K): Extract<(typeof KINDS)[number], { kind: K }> {
  return KINDS.find((k) => k.kind === kind) as Extract<(typeof KINDS)[number], { kind: K }>;
}

/** Every field of `kind` the SDK class exposes as an output, in order, with `adoptUid` last. */
export function outputNames(kind: Kind): string[] {
  return [...Object.keys(kindInfo(kind).fields), "adoptUid"];
}

/**
 * The fields of `kind` an API item carries, read from `item` by their wire names: every field
 * but the parent (which the caller derives from the uid) and the write-only ones.
 */
export function readBack(kind: Kind, item: object): Record<string, unknown> {
  const d = kindInfo(kind);
  const x = item as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [name, f] of Object.entries(d.fields) as [string, FieldDefinition][])
    if (name !== d.parentField && !f.writeOnly) out[name] = x[f.wire ?? name];
  return out;
}
