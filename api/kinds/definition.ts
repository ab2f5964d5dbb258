/**
 * What a kind's definition is made of: its fields, where it lives in the platform's protos, the
 * events its methods emit, its reference page's example. Names derived from it are in naming.ts,
 * selections of its fields in field-sets.ts, fields many kinds share in common.ts.
 */
import type { z } from "zod";
import type { Module } from "../modules";
import { lazyMember } from "../once";

/** One field of a resource kind: its rules, its shape on the wire, and how the provider treats it. */
export interface FieldDefinition {
  /** Its type as the TypeScript SDK spells it (the generated classes and the docs show it). */
  type: string;
  /**
   * Its argument's type in the TypeScript SDK, when `type` does not give it (an input block whose
   * output differs, `OidcArgs`): otherwise `pulumi.Input<type>`, or `DeepInput<type>` for a block.
   */
  argType?: string;
  /** What it is, in plain words. */
  description: string;
  /** A declared input (every field is also an output; without this, an output only). */
  input?: boolean;
  /**
   * The request rule: the member of the create body (strict; `.optional()` when the body may
   * omit it). Every input but the parent, which travels in the path, has one. The server parses
   * bodies with it and the provider's check runs it at preview time.
   */
  schema?: z.ZodType;
  /** The member of the update body, when it is not `schema` made optional (`oidc`: every member optional). */
  update?: z.ZodType;
  /**
   * The field as the API returns it: loose (a newer server's extra member or value still reads),
   * with the default an omitted value reads as. Absent for what an item never carries (the
   * parent, which is the uid's, a write-only input, a binding's uids, which it hydrates).
   */
  read?: z.ZodType;
  /**
   * Where an item carries it, when not as a member of its own (wire) name: a role binding's
   * `identityUid` is its hydrated identity's uid, `["identity", "uid"]`.
   */
  readAt?: readonly string[];
  /**
   * Kept apart from the item on the API (a repo's README): read with a GET of `<item>/<suffix>` and
   * written with a PATCH of it, as member `member` of that body; never in the kind's create or
   * update bodies, nor in its message.
   */
  part?: { suffix: string; member: string };
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
  /** The value an omitted input means (`""` for description, `false` for a one-off invite). */
  default?: unknown;
  /** A nested block: update masks name its changed members with dotted paths. */
  block?: boolean;
  /** Computed by the API when omitted: an omitted input means "no opinion", never a change. */
  computedWhenOmitted?: boolean;
  /** For a block: the members the API sets when omitted (a static key's expiration); omitting one is no change. */
  computedMembers?: readonly string[];
  /**
   * Its field in the kind's message in the platform's protos (absent for the parent, which a
   * request carries in its path, and for what the message lacks). Its name on the wire is the
   * proto name in lowerCamelCase (protojson), and update masks name it by its proto name.
   */
  proto?: ProtoField;
  /**
   * The program's value to the API's and back, where the program stays friendlier than the wire
   * (capabilities: `groups.list` in a program, `CAP_IAM_GROUPS_LIST` on the wire). Applied to
   * bodies the provider sends and items it reads; the request rule (`schema`) judges the wire value.
   */
  codec?: { toWire(v: unknown): unknown; fromWire(v: unknown): unknown };
  /** For a uid field: the collection it refers to (`irv export` writes a reference). */
  /** (A collection's name: test/api/kinds.test.ts checks it is one.) */
  refersTo?: string;
}

/**
 * One field of a message in the platform's protos: its number and type, and how the API treats
 * it (`google.api.field_behavior`). The gRPC descriptors are built from these; protojson names
 * and mask paths follow from `name`.
 */
export interface ProtoField {
  number: number;
  /** The proto field name, when it is not the snake_case of the field's own name (`default_role`). */
  name?: string;
  /**
   * A scalar (`string`, `bool`, `int32`, `int64`), a well-known type
   * (`google.protobuf.Timestamp`, `google.protobuf.Duration`), or a message or enum of the kind's
   * (`Identity.ClaimMatch`, relative to its package) or another package (fully qualified,
   * `chainguard.capabilities.Capability`).
   */
  type: string;
  repeated?: true;
  /** Declared `optional` in the proto (explicit presence: unset is not the empty value). */
  optional?: true;
  /** A map field: the key's type (the value's is `type`). */
  keyType?: "string" | "int64";
  /** Its JSON name, when the proto sets one (`json_name = "sync_config"`): the wire name, not the lowerCamelCase. */
  json?: string;
  /** The oneof it belongs to (`relationship`). */
  oneof?: string;
  /** Field behaviour: set by the server only, required on create, sent but never returned, fixed once created. */
  behavior?: readonly ("OUTPUT_ONLY" | "REQUIRED" | "INPUT_ONLY" | "IMMUTABLE" | "OPTIONAL")[];
}

/** A message of the platform's protos that a kind's fields use (a block, a hydrated reference). */
export interface ProtoMessage {
  /** Its name relative to the kind's package: `Identity.ClaimMatch`. */
  name: string;
  /** Its fields by protojson name. */
  fields: Record<string, ProtoField>;
}

/** An enum of the platform's protos: its values by name. */
export interface ProtoEnum {
  name: string;
  values: Record<string, number>;
}

/** Where a kind lives in the platform's protos. */
export interface KindProto {
  /** The proto package: `chainguard.platform.iam.v2beta1`. */
  package: string;
  /** The service that serves the kind: `GroupsService`. */
  service: string;
  /** The kind's message: `Group`. */
  message: string;
  /** The number of its `uid` field (not among `fields`). */
  uid: number;
  /** The proto name of its uid field, when it is not `uid` (a repo deployment's `id`): its wire name too. */
  uidName?: string;
  /**
   * Its List request: the filters beyond `uidp` (by proto name), and the numbers of `page_size`,
   * `page_token`, `order_by`, `skip`. Absent for a kind the API cannot list (a `singleton`).
   */
  list?: { filters: Record<string, ProtoField>; paging: readonly [number, number, number, number] };
  /** The service has no Update method (an invite, a subscription): every input replaces. */
  noUpdate?: true;
  /** The messages and enums its fields name. */
  messages?: readonly ProtoMessage[];
  enums?: readonly ProtoEnum[];
}

/** A field the server sets and a request never carries (a hydrated reference's members). */
export function outputOnly(number: number, type = "string"): ProtoField {
  return { number, type, behavior: ["OUTPUT_ONLY"] };
}

/** The package of the IAM kinds. */
export const IAM_PACKAGE = "chainguard.platform.iam.v2beta1";
/** The package of the registry kinds. */
export const REGISTRY_PACKAGE = "chainguard.platform.registry.v2beta1";
/** The package of registry v1, where only it has a kind (a repo's deployment). */
export const REGISTRY_V1_PACKAGE = "chainguard.platform.registry";
/** The package of the events kinds. */
export const EVENTS_PACKAGE = "chainguard.platform.events.v2beta1";

/** What a method did to an item: its create, update or delete. */
export type ChangeAction = "created" | "updated" | "deleted";

/**
 * Which group an event about an item names (its CloudEvents `group` extension), found from the
 * item's uid: its parent (most kinds), the item itself (an account association, whose uid is its
 * group's; a group it creates or updates), or the organization (a registry tag).
 */
export type EventGroup = "parent" | "self" | "root";

/**
 * The events the platform emits when a kind's methods succeed: each method's CloudEvents type, as
 * its `chainguard.annotations.events` option names it in the protos (the names follow no pattern
 * a type could be derived from: `iam.group.created.v1`, `iam.rolebindings.created.v1`), and
 * which group they name.
 */
export interface KindEvents {
  created: string;
  /** Absent for a kind without an Update method. */
  updated?: string;
  deleted: string;
  /** Which group the events name: one rule, or one per action (default `parent`). */
  group?: EventGroup | { readonly [A in ChangeAction]?: EventGroup };
  /**
   * The only wire members of the item an event carries, where the platform's message redacts
   * itself for events (its `CloudEventsRedact`): an invite's event keeps its uid and expiration.
   * Default: the item without its secret values.
   */
  keep?: readonly string[];
}

/**
 * Everything about one resource kind that is a fact rather than behaviour: its API collection,
 * the SDK class, the input naming its parent, and its fields. The server's bodies and records,
 * the API's read shapes, the provider's types and specs, the SDK classes, the plugin's schema and
 * `irv export` are derived from these; a kind's facts are written here and nowhere else.
 */
export interface KindDefinition<K extends string = string> {
  /** The kind's name: also its API collection's name. */
  kind: K;
  /** Its module (api/modules): `iam`, `events`, ... With the class name, its type token, display name and SDK namespace. */
  module: Module;
  /**
   * The SDK class (`<module>.<className>`), and so its type token and display name (see `tokenOf`).
   * Unique across modules: the dynamic classes' type tokens carry no module (see `dynamicTokenOf`).
   */
  className: string;
  /** One item in plain words: "group", "role binding". */
  label: string;
  /** What a resource of the kind is, in a sentence (the SDK class's doc comment and the docs). */
  description: string;
  /** The input naming the parent group (`parentUid` or `groupUid`). */
  parentField: string;
  /** The API's order for a List with no `order_by` (api/collections.ts); default `uid`. */
  defaultOrder?: string;
  /** Where it lives in the platform's protos. */
  proto: KindProto;
  /** Capability prefix on the API: `groups.list`, `identity.create`, ... */
  capability: string;
  /** The events its methods emit; absent when the platform announces none (a repo's deployment). */
  events?: KindEvents;
  /**
   * For a kind with at most one item per item of another kind, whose id is that item's, read and
   * written at a path below it (a repo's deployment, registry v1 only): Create is a POST, Update a
   * PUT of the whole item, Get a GET, all at `<path>/<id>/<suffix>`; there is no List (reads are
   * one Get each, drift included) and no Delete: clearing it is an Update with `cleared`.
   */
  singleton?: Singleton;
  /** Inputs of which a create must give exactly one (an update at most one): an identity's relationship types. */
  exactlyOne?: readonly string[];
  /** A replacement must delete the old resource before creating the new one (an account association: one per group). */
  deleteBeforeReplace?: true;
  /**
   * False for a kind `irv export` leaves out: a live item is no declaration worth keeping (an
   * invite's code exists only in its create's answer; declaring one would make a new invite).
   */
  exported?: false;
  /** The reference page's example and what it says beyond the fields (docs/resources, `npm run gen:docs`). */
  example: KindExample;
  /** Every field but `uid` (and `adoptUid`, which every kind takes), in the order docs show them. */
  fields: Record<string, FieldDefinition>;
}

/** Where and how a singleton kind is served (see `KindDefinition.singleton`). */
export interface Singleton {
  /** The collection path of the items it belongs to: `/registry/v1/repos`. */
  path: string;
  /** What follows the owner's id: `deployment`. */
  suffix: string;
  /** The update body that clears it: what a delete sends. */
  cleared: Readonly<Record<string, unknown>>;
}

/** The path of the singleton item `uid` of `d`: `/registry/v1/repos/<uid>/deployment`. */
export function singletonPath(s: Singleton, uid: string): string {
  return `${s.path}/${uid}/${s.suffix}`;
}

/**
 * A kind's example for its reference page. A value `${name}` stands for the stack config value
 * `name` (scripts/docs/examples.ts declares them): TypeScript reads it with `config.require`,
 * YAML as `${name}`. test/docs runs every example through the schema and the provider's check.
 */
export interface KindExample {
  /** The example resource's logical name. */
  name: string;
  /** Its inputs, as a program gives them. */
  inputs: Record<string, unknown>;
  /** Facts about the kind that the fields cannot say, one sentence each. */
  notes?: readonly string[];
  /** What to know when importing it, beyond "by its uid". */
  importNotes?: readonly string[];
}

/**
 * Checks a definition's shape while keeping its literal types (the derived types read them). Its
 * fields are given as a function, run on their first read and then kept: they build the kind's
 * zod schemas, which the plugin, started afresh for every operation, would otherwise build at
 * load for every kind, most of which an operation never touches.
 */
export function defineKind<const D extends Omit<KindDefinition, "fields"> & { fields: () => KindDefinition["fields"] }>(
  d: D,
): Omit<D, "fields"> & { readonly fields: ReturnType<D["fields"]> } {
  const out = { ...d };
  lazyMember(out, "fields", d.fields);
  // eslint-disable-next-line no-restricted-syntax -- lazyMember put what `fields` makes in its place, which the type system cannot follow
  return out as unknown as Omit<D, "fields"> & { readonly fields: ReturnType<D["fields"]> };
}
