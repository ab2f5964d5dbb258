/**
 * The parts of a Pulumi package schema the reference pages read (plugin/schema.ts builds it), and
 * the walks over its types that the pages and the example check share.
 */

/**
 * A property's type: a primitive, an array, a map, or a reference to a named type; or a union
 * (`oneOf`: a string, or one of an enum's values).
 */
export interface TypeSpec {
  type?: "string" | "boolean" | "number" | "integer" | "array" | "object";
  items?: TypeSpec;
  additionalProperties?: TypeSpec;
  $ref?: string;
  oneOf?: TypeSpec[];
}

export interface PropertySpec extends TypeSpec {
  description?: string;
  secret?: boolean;
  replaceOnChanges?: boolean;
  default?: unknown;
}

export interface ObjectSpec {
  description?: string;
  properties?: Record<string, PropertySpec>;
  required?: string[];
}

/** A named type: an object, or a string enum. */
export interface NamedTypeSpec extends ObjectSpec {
  type: "object" | "string";
  enum?: { value: string; name?: string; description?: string }[];
}

export interface ResourceSpec extends ObjectSpec {
  inputProperties: Record<string, PropertySpec>;
  requiredInputs?: string[];
}

export interface FunctionSpec {
  description?: string;
  inputs?: ObjectSpec;
  outputs: ObjectSpec;
}

export interface PackageSchema {
  name: string;
  description?: string;
  config: { variables: Record<string, PropertySpec> };
  types: Record<string, NamedTypeSpec>;
  resources: Record<string, ResourceSpec>;
  functions: Record<string, FunctionSpec>;
}

const LOCAL_TYPE = "#/types/";

/** The token of a named type a `$ref` points at (`irv:iam:Oidc`), or undefined for `pulumi.json#/Any`. */
export function refToken(ref: string): string | undefined {
  return ref.startsWith(LOCAL_TYPE) ? ref.slice(LOCAL_TYPE.length) : undefined;
}

/** The last part of a token: `irv:iam:ClaimMatch` -> `ClaimMatch`. */
export function shortName(token: string): string {
  return token.slice(token.lastIndexOf(":") + 1);
}

/** The module of a token: `irv:registry:getTags` -> `registry`. */
export function moduleOf(token: string): string {
  return token.split(":")[1];
}

/** The named types `props` use, directly or through other named types, in first-use order. */
export function namedTypesUsed(schema: PackageSchema, props: Record<string, PropertySpec>[]): string[] {
  const seen: string[] = [];
  const visit = (t: TypeSpec | undefined): void => {
    if (!t) return;
    const token = t.$ref && refToken(t.$ref);
    if (token && !seen.includes(token)) {
      seen.push(token);
      for (const p of Object.values(schema.types[token]?.properties ?? {})) visit(p);
    }
    visit(t.items);
    visit(t.additionalProperties);
    for (const o of t.oneOf ?? []) visit(o);
  };
  for (const group of props) for (const p of Object.values(group)) visit(p);
  return seen;
}

/**
 * What is wrong with `value` as a value of type `t`, one message per problem, each naming its
 * path: unknown members, missing required members, wrong types, values outside an enum.
 */
export function typeIssues(schema: PackageSchema, t: TypeSpec, value: unknown, at: string): string[] {
  if (t.oneOf) {
    const each = t.oneOf.map((o) => typeIssues(schema, o, value, at));
    return each.some((issues) => issues.length === 0) ? [] : each[0];
  }
  if (t.$ref) {
    const token = refToken(t.$ref);
    if (!token) return [];
    const named = schema.types[token];
    if (!named) return [`${at}: unknown type ${token}`];
    if (named.enum) return named.enum.some((e) => e.value === value) ? [] : [`${at}: ${JSON.stringify(value)} is not one of ${token}`];
    return objectIssues(schema, named, value, at);
  }
  switch (t.type) {
    case "string":
    case "boolean":
      return typeof value === t.type ? [] : [`${at}: must be a ${t.type}`];
    case "number":
    case "integer":
      return typeof value === "number" && (t.type === "number" || Number.isInteger(value)) ? [] : [`${at}: must be a ${t.type}`];
    case "array":
      return Array.isArray(value) ? value.flatMap((v, i) => typeIssues(schema, t.items ?? {}, v, `${at}[${i}]`)) : [`${at}: must be an array`];
    case "object":
      if (value === null || typeof value !== "object" || Array.isArray(value)) return [`${at}: must be an object`];
      return Object.entries(value).flatMap(([k, v]) => typeIssues(schema, t.additionalProperties ?? {}, v, `${at}.${k}`));
    default:
      return [];
  }
}

/** What is wrong with `value` as an object of `spec`'s properties (see typeIssues). */
export function objectIssues(schema: PackageSchema, spec: ObjectSpec, value: unknown, at: string): string[] {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return [`${at}: must be an object`];
  const v = value as Record<string, unknown>;
  const props = spec.properties ?? {};
  const prefix = at ? `${at}.` : "";
  return [
    ...(spec.required ?? []).filter((k) => v[k] === undefined).map((k) => `${prefix}${k}: is required`),
    ...Object.entries(v).flatMap(([k, x]) => (props[k] ? typeIssues(schema, props[k], x, `${prefix}${k}`) : [`${prefix}${k}: is not a property`])),
  ];
}
