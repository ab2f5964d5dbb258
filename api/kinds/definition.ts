import type { CollectionName } from "../collections";

/** One field of a resource kind, as the provider, the SDK, `irv export` and the docs see it. */
export interface FieldDefinition {
  /** Its type as the SDK spells it (TypeScript), for documentation and schemas. */
  type: string;
  /** What it is, in plain words. */
  description: string;
  /** A declared input (otherwise the API computes it: an output only). */
  input?: boolean;
  /** Changing it replaces the resource. */
  replace?: boolean;
  /** Kept secret in state, as a whole. */
  secret?: boolean;
  /**
   * For a block: the members kept secret in state (`oidc`'s `clientSecret`), the rest readable.
   * The plugin marks just these members; the dynamic classes, which can only mark a whole output
   * secret, keep the whole block secret (see `secretNames`).
   */
  secretMembers?: readonly string[];
  /**
   * For a block: the members the API never returns (`oidc`'s `clientSecret`). An imported
   * resource has none, so they are optional in the schema and check asks for them only on create.
   */
  writeOnlyMembers?: readonly string[];
  /** Write-only on the API: never returned, so never read back (refresh keeps the program's value). */
  writeOnly?: boolean;
  /** The value an omitted input means (`""` for description, `false` for singleUse). */
  default?: unknown;
  /** A nested block: update masks name its changed members with dotted paths. */
  block?: boolean;
  /** Computed by the API when omitted: an omitted input means "no opinion", never a change. */
  computedWhenOmitted?: boolean;
  /** Its name on the wire, when it differs (`defaultRoleUid` is sent as `defaultRole`). */
  wire?: string;
  /** For a uid field: the collection it refers to (`irv export` writes a reference). */
  refersTo?: CollectionName;
}

/**
 * Everything about one resource kind that is a fact rather than behaviour: its API collection,
 * the SDK class, the input naming its parent, and its fields. The server, the provider, the SDK
 * and `irv export` read these; a kind's facts are written here and nowhere else.
 */
export interface KindDefinition<K extends CollectionName = CollectionName> {
  /** The kind's name: also its API collection's name. */
  kind: K;
  /** The SDK class (`iam.<className>`, type `pulumi-nodejs:dynamic/irv:<className>`). */
  className: string;
  /** One item in plain words: "group", "role binding". */
  label: string;
  /** The input naming the parent group (`parentUid` or `groupUid`). */
  parentField: string;
  /** Capability prefix on the API: `groups.list`, `identity.create`, ... */
  capability: string;
  /** Every field but `uid` (and `adoptUid`, which every kind takes), in the order docs show them. */
  fields: Record<string, FieldDefinition>;
}

/** Checks a definition's shape while keeping its literal types. */
export function defineKind<K extends CollectionName>(d: KindDefinition<K>): KindDefinition<K> {
  return d;
}

/** The names of `d`'s declared inputs. */
export function inputNames(d: KindDefinition): string[] {
  return Object.keys(d.fields).filter((k) => d.fields[k].input);
}

/**
 * The names of the fields of `d` a dynamic resource marks secret in state: the secret fields, and
 * the blocks that have secret members (a dynamic provider cannot mark one member of an object).
 */
export function secretNames(d: KindDefinition): string[] {
  return Object.keys(d.fields).filter((k) => d.fields[k].secret || d.fields[k].secretMembers?.length);
}

/** The paths of the values of `d` kept secret in state, member by member: `["code"]`, `["oidc", "clientSecret"]`. */
export function secretPaths(d: KindDefinition): string[][] {
  return Object.entries(d.fields).flatMap(([k, f]) => (f.secret ? [[k]] : (f.secretMembers ?? []).map((m) => [k, m])));
}

/** The dotted paths of `d`'s write-only block members: `oidc.clientSecret`. */
export function writeOnlyMemberPaths(d: KindDefinition): string[] {
  return Object.entries(d.fields).flatMap(([k, f]) => (f.writeOnlyMembers ?? []).map((m) => `${k}.${m}`));
}

/** Fields most kinds share. */
export const common = {
  description: { type: "string", description: "Free text.", input: true, default: "" },
  createTime: { type: "string", description: "When it was created (RFC 3339)." },
  updateTime: { type: "string", description: "When it last changed (RFC 3339)." },
  /** The owning group's uid; changing it replaces the resource. */
  groupUid: (description: string): FieldDefinition => ({ type: "string", description, input: true, replace: true, refersTo: "groups" }),
  name: (description: string): FieldDefinition => ({ type: "string", description, input: true }),
} satisfies Record<string, FieldDefinition | ((d: string) => FieldDefinition)>;
