import { z } from "zod";
import { definitionOf, fieldEntries, wireNameOf, type DefinitionOf, type FieldDefinition, type Kind, type KindDefinition } from "../kinds";
import type { Module } from "../modules";

export type { Module };

/**
 * One provider function (a data source): its token, what it does, its arguments and its result,
 * as facts. The TypeScript SDK's `getX`, the resource plugin's Invoke and the plugin's schema all
 * read these, so a function's arguments and result fields are written here and nowhere else.
 */

/** One field of a result, spelled as a kind's fields are (`type` in TypeScript). */
export interface ResultField extends Pick<FieldDefinition, "type" | "description" | "secret"> {
  /** Absent from some results (a built-in role has no `groupUid`). */
  optional?: boolean;
  /** Its JSON name on the wire when that is not its name (a repo's `sync_config`). */
  wire?: string;
  /** The kind's field it reports (claimMatch of identities), whose schema type it shares. */
  of?: { kind: Kind; field: string };
}

/** A named object of results: a list's items, an advisory's severities. */
export interface ObjectDefinition {
  /** Its name, also the TypeScript SDK's interface name (`RoleResult`, `Repo`). */
  name: string;
  module: Module;
  description: string;
  fields: Record<string, ResultField>;
}

/** What a function returns: one object's fields, or one list of objects under `list`. */
export type ResultDefinition = { object: ObjectDefinition } | { list: string; description: string; of: ObjectDefinition };

export interface FunctionDefinition<A extends z.ZodObject = z.ZodObject> {
  /** `irv:<module>:<name>`, e.g. `irv:iam:getGroup`. */
  token: string;
  /** The SDK's function: `iam.getGroup`. */
  name: string;
  module: Module;
  description: string;
  /** The arguments, each `.describe()`d; unknown ones are refused. */
  args: A;
  result: ResultDefinition;
}

/** Checks a definition's shape while keeping its literal types; derives the token. */
export function defineFunction<A extends z.ZodObject>(d: Omit<FunctionDefinition<A>, "token">): FunctionDefinition<A> {
  return { token: `irv:${d.module}:${d.name}`, ...d };
}

/** A function's arguments as its TypeScript callers pass them. */
export type ArgsOf<F extends FunctionDefinition> = z.infer<F["args"]>;

/** Optional text arguments, with their descriptions. */
export const text = (description: string) => z.string().optional().describe(description);

/** The scope, order and paging arguments every list function takes. */
export const listArgs = {
  descendantsOf: text("`uidp.descendants_of`: this group and everything under it."),
  childrenOf: text("`uidp.children_of`: direct children of this group."),
  ancestorsOf: text("`uidp.ancestors_of`: the ancestors of this uid."),
  inRoot: z.boolean().optional().describe("`uidp.in_root`: only top-level items."),
  ids: z.array(z.string()).optional().describe("`uidp.ids`: only these uids."),
  orderBy: text('`order_by`, e.g. `"name desc"`.'),
  filters: z
    .record(z.string(), z.union([z.string(), z.array(z.string())]))
    .optional()
    .describe(
      "Any other filter the API's List accepts, by its query name (`advisory_ids` or `advisoryIds`). The API ignores a name its List does not take, so a misspelt filter filters nothing.",
    ),
};
/** The list arguments as TypeScript callers pass them. */
export type ListArgs = z.infer<z.ZodObject<typeof listArgs>>;

const UID: ResultField = { type: "string", description: "Its uid." };

/** True when an API item may lack the field: its read shape is optional. */
const mayLack = (f: FieldDefinition) => (f.read as { _zod?: { optout?: string } } | undefined)?._zod?.optout === "optional";

/**
 * Field `name` of `kind`'s definition as a result reports it: its type, description, wire name
 * and secrecy, optional where an item may lack it. Its schema type is its SDK type's (a result
 * object that shares the kind's schema types says so in `of`, as `kindResult` does).
 */
export function kindField<K extends Kind>(kind: K, name: keyof DefinitionOf<K>["fields"] & string): ResultField {
  const d: KindDefinition = definitionOf(kind);
  return resultFieldOf(name, d.fields[name]);
}

const resultFieldOf = (name: string, f: FieldDefinition): ResultField => {
  const wire = wireNameOf(name, f);
  return {
    type: f.type,
    description: f.description,
    ...(wire !== name ? { wire } : {}),
    ...(f.secret ? { secret: true } : {}),
    ...(mayLack(f) ? { optional: true } : {}),
  };
};

/**
 * The result object of a kind, from its definition in api/kinds: `uid`, the parent (derived from
 * the uid, `optional` where the item can sit at the root), `extra`, then every field the API
 * returns (what `readBack` reads), in the kind's order, optional where an item may lack it.
 */
export function kindResult(
  kind: Kind,
  o: { name: string; parent: ResultField; extra?: Record<string, ResultField>; description?: string; optional?: (name: string) => boolean },
): ObjectDefinition {
  const d = definitionOf(kind);
  const fields: Record<string, ResultField> = { uid: { ...UID, description: `The ${d.label}'s uid.` }, [d.parentField]: o.parent, ...o.extra };
  for (const [name, f] of fieldEntries(d.fields)) {
    if (name === d.parentField || f.writeOnly) continue;
    fields[name] = { ...resultFieldOf(name, f), of: { kind, field: name }, ...(o.optional?.(name) ? { optional: true } : {}) };
  }
  if (o.optional?.("uid")) fields.uid = { ...fields.uid, optional: true };
  return { name: o.name, module: d.module, description: o.description ?? `A ${d.label} as the functions return it.`, fields };
}

/**
 * True when the TypeScript type `T` has exactly the fields the definition `O` lists: the SDK's
 * result interfaces are checked against the definitions when compiling (`true satisfies ...`).
 */
export type FieldsMatch<T, O extends { fields: object }> = [Exclude<keyof T, keyof O["fields"]>, Exclude<keyof O["fields"], keyof T>] extends [never, never]
  ? true
  : false;

/** The named object a field's type refers to (`AdvisorySeverity[]` -> AdvisorySeverity), if any. */
export function objectOf(type: string, objects: readonly ObjectDefinition[]): ObjectDefinition | undefined {
  return objects.find((o) => o.name === type.replace(/\[\]$/, ""));
}

/**
 * The result object `def` describes, read from an API item: its fields by name, nested objects
 * (arrays of them too) read the same way; an absent value stays absent. `T` is the TypeScript type
 * of `def`'s result, which `FieldsMatch` checks against the definition when compiling.
 */
export function pick<T extends object = Record<string, unknown>>(def: ObjectDefinition, item: object, objects: readonly ObjectDefinition[]): T {
  const x = item as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [name, f] of Object.entries(def.fields)) {
    const v = x[f.wire ?? name];
    if (v === undefined) continue;
    const nested = objectOf(f.type, objects);
    out[name] = !nested || v === null ? v : Array.isArray(v) ? v.map((e: object) => pick(nested, e, objects)) : pick(nested, v, objects);
  }
  return out as T;
}
