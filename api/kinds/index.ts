/**
 * Every resource kind, once: one module per kind holds its facts (collection, SDK class, parent
 * field, fields with their request rules and read shapes, descriptions, which replace, which are
 * secret, which the API never returns). The server's bodies and records, the provider, the SDK
 * classes (generated), the plugin's schema, `irv export`, `irv review` and `irv drift` are
 * derived from this list, and the tests walk it so a new kind cannot go untested.
 *
 * What each word (kind, definition, facts, field, spec, ...) means: the glossary in CONTRIBUTING.md.
 */
import { accountAssociations } from "./accountAssociations";
import { groupInvites } from "./groupInvites";
import { groups } from "./groups";
import { identities } from "./identities";
import { identityProviders } from "./identityProviders";
import { roleBindings } from "./roleBindings";
import { roles } from "./roles";
import { repos } from "./repos";
import { repoDeployments } from "./repoDeployments";
import { subscriptions } from "./subscriptions";
import { tags } from "./tags";
import type { KindDefinition } from "./definition";
import { fieldEntries } from "./field-sets";
import { displayNameOf, dynamicTokenOf, protoNameOf, snakeOf, tokenOf, wireNameOf } from "./naming";

export * from "./definition";
export * from "./naming";
export * from "./field-sets";
export * from "./events";
export * from "./common";
export * from "./derive";
export * from "./order";
export { groups, identities, roles, roleBindings, identityProviders, accountAssociations, groupInvites, repos, tags, repoDeployments, subscriptions };

/** The kinds, in the order the docs and `irv export` list them. */
export const KINDS = [
  groups,
  identities,
  roles,
  roleBindings,
  identityProviders,
  accountAssociations,
  groupInvites,
  repos,
  tags,
  repoDeployments,
  subscriptions,
] as const;

/** The kinds `irv export` declares: all but those whose definition says `exported: false`. */
export type ExportedKind = Exclude<(typeof KINDS)[number], { exported: false }>["kind"];
export const EXPORTED_KINDS = KINDS.filter((d) => !("exported" in d && d.exported === false)).map((d) => d.kind) as ExportedKind[];

/** A resource kind's name; also the name of its API collection. */
export type Kind = (typeof KINDS)[number]["kind"];

/** The definition of kind `K`. */
export type DefinitionOf<K extends Kind> = Extract<(typeof KINDS)[number], { kind: K }>;

/** Each kind's definition by its name, built once: lookups run per request and per response. */
const BY_KIND: ReadonlyMap<string, KindDefinition> = new Map(KINDS.map((d) => [d.kind, d]));

/** The definition of `kind`. */
export function definitionOf<K extends Kind>(kind: K): DefinitionOf<K> {
  return BY_KIND.get(kind) as DefinitionOf<K>;
}

/** The definition of the kind collection `name` names, or undefined for a collection that is no kind's (`advisories`). */
export function definitionOfCollection(name: string): KindDefinition | undefined {
  return BY_KIND.get(name);
}

/**
 * The kind of a resource type token, the plugin's (`irv:iam:Group`) or the dynamic classes'
 * (`pulumi-nodejs:dynamic/irv:Group`), or undefined for any other type.
 */
export function definitionOfTypeToken(type: string): (typeof KINDS)[number] | undefined {
  return (KINDS as readonly KindDefinition[]).find((d) => type === tokenOf(d) || type === dynamicTokenOf(d)) as (typeof KINDS)[number] | undefined;
}

/** The kind whose display name is `name` (`iam.Group`), or undefined. */
export function definitionOfDisplayName(name: string): (typeof KINDS)[number] | undefined {
  return KINDS.find((d) => displayNameOf(d) === name);
}

/** Every field of `kind` the SDK class exposes as an output, in order, with `adoptUid` last. */
export function outputNames(kind: Kind): string[] {
  return [...Object.keys(definitionOf(kind).fields), "adoptUid"];
}

/**
 * The fields of `kind` an API item carries, read from `item` by their wire names (or where
 * `readAt` says): every field but the parent (which the caller derives from the uid) and the
 * write-only ones.
 */
export function readBack(kind: Kind, item: object): Record<string, unknown> {
  const d = definitionOf(kind) as KindDefinition;
  const x = item as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [name, f] of fieldEntries(d.fields))
    if (name !== d.parentField && !f.writeOnly) {
      const v = f.readAt ? valueAt(x, f.readAt) : x[wireNameOf(name, f)];
      out[name] = f.codec && v !== undefined ? f.codec.fromWire(v) : v;
    }
  return out;
}

/** The value at `path` in `item` (a field's `readAt`: `["identity", "uid"]`), or undefined. */
export function valueAt(item: object, path: readonly string[]): unknown {
  return path.reduce<unknown>((at, k) => (at as Record<string, unknown> | undefined)?.[k], item);
}

/**
 * The update mask path the API reads for the wire path `path` of `kind`: proto field names,
 * dotted for a block's members (`claimMatch` -> `claim_match`, `oidc.clientSecret` ->
 * `oidc.client_secret`, `defaultRole` -> `default_role`). The platform's gateway copies mask
 * paths as sent and the server reads them as proto names, so a camelCase path would name nothing.
 */
export function maskPathOf(collection: string, path: string): string {
  const [head, ...rest] = path.split(".");
  const d = definitionOfCollection(collection);
  const entry = fieldEntries(d?.fields ?? {}).find(([n, f]) => wireNameOf(n, f) === head);
  return [entry ? protoNameOf(...entry) : snakeOf(head), ...rest.map(snakeOf)].join(".");
}
