import { z } from "zod";
import * as rule from "../fields";
import type { Module } from "../modules";
import { parentOf } from "../uid";

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

/** Checks a definition's shape while keeping its literal types (the derived types read them). */
export function defineKind<const D extends KindDefinition>(d: D): D {
  return d;
}

/** `default_role` -> `defaultRole`: protojson's name of a proto field. */
export function camelOf(protoName: string): string {
  return protoName.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** `defaultRole` -> `default_role`: the proto name protoc would give a lowerCamelCase name. */
export function snakeOf(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** A kind's (or a function's) fields, each with its name: what `Object.entries` cannot type on its own. */
export function fieldEntries(fields: Readonly<Record<string, FieldDefinition>>): [string, FieldDefinition][] {
  return Object.entries(fields);
}

/** The proto name of field `name` of a kind. */
export function protoNameOf(name: string, f: FieldDefinition): string {
  return f.proto?.name ?? snakeOf(name);
}

/** The name of field `name` on the wire (JSON): its proto name in lowerCamelCase. */
export function wireNameOf(name: string, f: FieldDefinition): string {
  return f.proto?.json ?? (f.proto?.name ? camelOf(f.proto.name) : name);
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

/** The fields of `d` that force replacement when they change. */
export function replaceNames(d: KindDefinition): string[] {
  return Object.keys(d.fields).filter((k) => d.fields[k].replace);
}

/** The type token of a kind's resources in the resource plugin: `irv:iam:Group`, `irv:events:Subscription`. */
export function tokenOf(d: Pick<KindDefinition, "module" | "className">): string {
  return `irv:${d.module}:${d.className}`;
}

/**
 * The type token the dynamic classes give a kind's resources (`pulumi-nodejs:dynamic/irv:Group`):
 * module "irv", the class name. Each plugin resource lists it as an alias, so a stack moves
 * between the dynamic classes and the plugin without recreating anything. It carries no module:
 * the IAM kinds' tokens predate modules and must not change (a changed type is a replacement),
 * and one scheme for every module is simpler than two, so class names are unique across modules
 * (test/api/kinds.test.ts).
 */
export function dynamicTokenOf(d: Pick<KindDefinition, "className">): string {
  return `${DYNAMIC_TYPE_PREFIX}${d.className}`;
}

/** What every dynamic irv class's type token starts with. */
export const DYNAMIC_TYPE_PREFIX = "pulumi-nodejs:dynamic/irv:";

/** A label in the plural, as messages and comments count items: "identity" -> "identities". */
export function pluralOf(label: string): string {
  return label.replace(/y$/, "ie") + "s";
}

/** The display name of a kind, as `irv` reports and the SDK namespace show it: `iam.Group`, `events.Subscription`. */
export function displayNameOf(d: Pick<KindDefinition, "module" | "className">): string {
  return `${d.module}.${d.className}`;
}

/** The type of the event `action` on an item of `d` emits, or undefined when the kind has no such method. */
export function eventTypeOf(d: Pick<KindDefinition, "events">, action: ChangeAction): string | undefined {
  return d.events?.[action];
}

/** The group an event about item `uid` of `d` names, for `action` (see `EventGroup`). */
export function eventGroupOf(d: Pick<KindDefinition, "events">, action: ChangeAction, uid: string): string {
  const rule = d.events?.group;
  const which = (typeof rule === "object" ? rule[action] : rule) ?? "parent";
  if (which === "root") return uid.split("/")[0];
  return (which === "parent" && parentOf(uid)) || uid;
}

/** One problem with an input, by its path in the inputs: what the server refuses and check reports. */
export interface InputIssue {
  path: string[];
  message: string;
}

/** Why the timestamp `value` is not after `now` and at most `maxDays` days ahead, or undefined. */
export function expiryProblem(value: string, now: number, maxDays: number): string | undefined {
  const t = Date.parse(value);
  if (t <= now) return "must be in the future";
  if (t > now + maxDays * 86_400_000) return `must be at most ${maxDays} days ahead`;
  return undefined;
}

/** Adds an issue unless exactly one (or, with `optional`, at most one) of `keys` is set. */
export function oneOf(v: Record<string, unknown>, ctx: z.RefinementCtx, keys: readonly string[], optional = false): void {
  const set = keys.filter((k) => v[k] !== undefined && v[k] !== null);
  if (set.length > 1) {
    for (const k of set.slice(1)) ctx.addIssue({ code: "custom", path: [k], message: `only one of ${keys.join(", ")} may be set` });
  } else if (set.length === 0 && !optional) {
    ctx.addIssue({ code: "custom", path: [keys[0]], message: `one of ${keys.join(", ")} is required` });
  }
}

/** Text as the API returns it, when it may be absent. */
export const text = z.string().optional();
/** A string map as the API returns it, when it may be absent. */
export const textMap = z.record(z.string(), z.string()).optional();

const TIMESTAMP = "google.protobuf.Timestamp";

/** Fields most kinds share. */
export const common = {
  description: {
    type: "string",
    description: "Free text.",
    input: true,
    default: "",
    schema: rule.description.optional(),
    read: z.string().default(""),
  },
  createTime: { type: "string", description: "When it was created (RFC 3339).", read: z.string() },
  updateTime: { type: "string", description: "When it last changed (RFC 3339).", read: z.string() },
  /** The owning group's uid (the parent, in the path); changing it replaces the resource. */
  groupUid: (description: string) => ({ type: "string", description, input: true, replace: true, refersTo: "groups" }) as const,
  /** A name, by the API's rule for names (`schema`: a tighter one), as field `number` of the kind's message. */
  name: <S extends z.ZodType<string> = typeof rule.name>(description: string, number: number, schema?: S) =>
    ({
      type: "string",
      description,
      input: true,
      proto: { number, type: "string", behavior: ["REQUIRED"] },
      schema: schema ?? rule.name,
      read: z.string(),
    }) as const,
} satisfies Record<string, FieldDefinition | ((...a: never[]) => FieldDefinition)>;

/** The common fields as fields of a kind's message, by their numbers there. */
export const numbered = {
  description: (number: number) => ({ ...common.description, proto: { number, type: "string" } }) as const,
  createTime: (number: number) => ({ ...common.createTime, proto: { number, type: TIMESTAMP, behavior: ["OUTPUT_ONLY"] } }) as const,
  updateTime: (number: number) => ({ ...common.updateTime, proto: { number, type: TIMESTAMP, behavior: ["OUTPUT_ONLY"] } }) as const,
};
