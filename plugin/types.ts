/**
 * The object and enum types of the plugin's schema, derived from the zod schemas the server and
 * the provider's check already use: an input's from its kind's create body (api/bodies.ts), an
 * output-only field's from the API item (api/resources.ts). A zod schema named with
 * `.meta({ id })` becomes the type `irv:<module>:<id>`, with its members' types, descriptions and
 * required-ness; a named `z.enum` becomes an enum type. Which members are secret comes from the
 * kinds' definitions (`secretMembers`). Nothing here names a field or a type.
 */
import { z } from "zod";
import { KINDS, createBodyOf, readShapeOf, wireNameOf, type KindDefinition } from "../api/kinds";

/** A type of the schema, or a property's (Pulumi's TypeSpec and PropertySpec). */
export type TypeSpec = Record<string, unknown>;
export type PropertySpec = TypeSpec;
/** The schema's `types`, by token. */
export type Types = Record<string, TypeSpec>;

/** What z.toJSONSchema writes, as far as it is read here. */
export interface Json {
  type?: string;
  description?: string;
  $ref?: string;
  enum?: unknown[];
  items?: Json;
  properties?: Record<string, Json>;
  additionalProperties?: Json | boolean;
  required?: string[];
  $defs?: Record<string, Json>;
}

const ANY: TypeSpec = { $ref: "pulumi.json#/Any" };

/** The longest run of whole `_`-separated words every value of `values` starts with (`SERVICE_PRINCIPAL_`). */
function longestPrefix(values: string[]): string {
  const words = values[0].split("_");
  let n = 0;
  while (n < words.length - 1 && values.every((v) => v.startsWith(words.slice(0, n + 1).join("_") + "_"))) n++;
  return n ? words.slice(0, n).join("_") + "_" : "";
}
const SCALARS = new Set(["string", "boolean", "number", "integer"]);

/**
 * An enum value's name in the SDKs: `role_bindings.list` is `RoleBindingsList`; the protos'
 * prefix of every value goes (`ServicePrincipal.CatalogSyncer`, not `ServicePrincipalCatalogSyncer`).
 */
export function enumName(value: string, prefix = ""): string {
  return value
    .slice(prefix.length)
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0].toUpperCase() + w.slice(1).toLowerCase())
    .join("");
}

/** The schema type of a definition's TypeScript type, for a field no zod schema describes (a parent uid). */
export function tsTypeSpec(ts: string): TypeSpec {
  const t = ts.replace(/\s*\|\s*null$/, "");
  if (t === "string" || t === "boolean" || t === "number" || t === "integer") return { type: t };
  if (t.endsWith("[]")) return { type: "array", items: tsTypeSpec(t.slice(0, -2)) };
  return { $ref: "pulumi.json#/Any" };
}

/** The JSON Schema of `schema`, as zod writes it (named schemas under `$defs`). */
function jsonOf(schema: z.ZodType): Json {
  return z.toJSONSchema(schema, { unrepresentable: "any" }) as Json;
}

/**
 * Converts JSON Schema to schema types in one module (`iam`, a kind's own), adding each named type it reaches
 * to `types`. Two different schemas under one id are an error, as is an unnamed object or enum:
 * a schema type needs a token.
 */
export function converter(types: Types, module: string, defs: Record<string, Json>) {
  const typeOf = (j: Json, where: string): TypeSpec => {
    if (j.$ref) {
      const token = define(j.$ref.replace(/^#\/\$defs\//, ""), where);
      const ref = { $ref: `#/types/${token}` };
      // An enum the schema closes is enforced by the YAML host before check runs, in words that
      // name neither the field nor its values: a property takes any string (or one of the
      // enum's values, which the SDKs keep as constants), and check names both.
      return types[token].enum ? { type: "string", oneOf: [{ type: "string" }, ref] } : ref;
    }
    if (j.enum) throw new Error(`${where}: a closed set needs a name for the schema: .meta({ id })`);
    if (j.type === "array") return { type: "array", items: j.items ? typeOf(j.items, `${where}[]`) : ANY };
    if (j.type === "object" && j.properties) throw new Error(`${where}: an object needs a name for the schema: .meta({ id })`);
    if (j.type === "object") {
      const values = typeof j.additionalProperties === "object" ? j.additionalProperties : {};
      return { type: "object", additionalProperties: typeOf(values, `${where}{}`) };
    }
    if (j.type && SCALARS.has(j.type)) return { type: j.type };
    return ANY;
  };

  /** Adds the named type `id` to `types`; returns its token. */
  const define = (id: string, where: string): string => {
    const token = `irv:${module}:${id}`;
    const j = defs[id];
    if (!j) throw new Error(`${where}: no definition of ${id}`);
    let spec: TypeSpec;
    if (j.enum) {
      const values = j.enum.map(String);
      // The proto enums' shared prefix (`SERVICE_PRINCIPAL_`, `CORRELATION_RULE_`) says nothing in an SDK name.
      const prefix = /^[A-Z]+(?:_[A-Z]+)*_/.exec(values[0])?.[0] ?? "";
      const shared = values.length > 1 && values.every((v) => v.startsWith(prefix) && v.length > prefix.length) ? longestPrefix(values) : "";
      spec = { type: "string", description: j.description, enum: values.map((v) => ({ value: v, name: enumName(v, shared) })) };
    } else {
      const properties: Record<string, TypeSpec> = {};
      for (const [name, p] of Object.entries(j.properties ?? {})) properties[name] = { ...typeOf(p, `${id}.${name}`), description: p.description };
      spec = { type: "object", description: j.description, properties, ...(j.required?.length ? { required: j.required } : {}) };
    }
    const known = types[token];
    if (known && JSON.stringify(known) !== JSON.stringify(spec)) throw new Error(`${where}: two different schemas are named ${id}`);
    types[token] = spec;
    return token;
  };
  return typeOf;
}

/** The schema type of zod `schema`, adding the named types it uses to `types` (tokens `irv:<module>:<id>`). */
export function schemaTypeOf(schema: z.ZodType, types: Types, module = "iam", where = "value"): TypeSpec {
  // Wrapped, so that a named schema at the top is a reference like any other.
  const j = jsonOf(z.object({ value: schema }));
  return converter(types, module, j.$defs ?? {})(j.properties!.value, where);
}

/** The types of every kind's fields, and the named types they use. */
export interface KindTypes {
  /** By kind, then field: the field's schema type (fields no zod schema describes, such as the parent, are absent). */
  fields: Record<string, Record<string, TypeSpec>>;
  /** By kind: the inputs a create body requires, and the output-only fields every API item has. */
  required: Record<string, { inputs: string[]; outputs: string[] }>;
  types: Types;
}

/** The schema type of each field of `d` a zod schema describes, and which are required. */
function fieldTypesOf(d: KindDefinition, types: Types) {
  const body = jsonOf(createBodyOf(d));
  const item = jsonOf(readShapeOf(d));
  const fields: Record<string, TypeSpec> = {};
  const required: { inputs: string[]; outputs: string[] } = { inputs: [], outputs: [] };
  for (const [name, f] of Object.entries(d.fields)) {
    const wire = wireNameOf(name, f);
    const j = f.input ? body : item;
    const p = j.properties?.[wire];
    if (p) fields[name] = converter(types, d.module, j.$defs ?? {})(p, `${d.className}.${name}`);
    if (j.required?.includes(wire)) (f.input ? required.inputs : required.outputs).push(name);
  }
  return { fields, required };
}

/** Marks the members the definitions name in the types of their blocks: secret ones, and write-only ones as optional. */
function markMembers(d: KindDefinition, fields: Record<string, TypeSpec>, types: Types): void {
  for (const [name, f] of Object.entries(d.fields)) {
    if (!f.secretMembers?.length && !f.writeOnlyMembers?.length) continue;
    const token = String(fields[name]?.$ref ?? "").replace(/^#\/types\//, "");
    const block = types[token];
    const properties = block?.properties as Record<string, TypeSpec> | undefined;
    for (const m of [...(f.secretMembers ?? []), ...(f.writeOnlyMembers ?? [])])
      if (!properties?.[m]) throw new Error(`${d.className}.${name}: no member ${m}`);
    for (const m of f.secretMembers ?? []) properties![m].secret = true;
    // A member the API never returns is absent after an import: optional here; check asks for it on create.
    if (Array.isArray(block.required)) block.required = block.required.filter((m) => !f.writeOnlyMembers?.includes(m));
  }
}

let cached: KindTypes | undefined;
/** Every kind's field types and the named types they use (computed once). */
export function kindTypes(): KindTypes {
  if (cached) return cached;
  const types: Types = {};
  const fields: KindTypes["fields"] = {};
  const required: KindTypes["required"] = {};
  for (const d of KINDS) ({ fields: fields[d.kind], required: required[d.kind] } = fieldTypesOf(d, types));
  for (const d of KINDS) markMembers(d, fields[d.kind], types);
  return (cached = { fields, required, types });
}
