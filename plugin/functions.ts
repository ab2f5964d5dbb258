/**
 * The provider's functions in the resource plugin: their schema, derived from api/functions (the
 * arguments' zod schemas through `z.toJSONSchema`, the result fields through the same type
 * mapping as the kinds'), and Invoke, which dispatches by token to the implementations the
 * TypeScript SDK's `getX` run (provider/functions), with the configured provider's client.
 *
 * List results are arrays of named object types. Their tokens are the TypeScript SDK's interface
 * names (`irv:iam:RoleResult`, `irv:registry:Repo`, `irv:vulnerabilities:Advisory`), which never
 * equal a resource's: a type token equal to a resource token (`irv:iam:Role`) would make the
 * generated SDKs declare two things of one name.
 */
import { z } from "zod";
import * as structproto from "google-protobuf/google/protobuf/struct_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { unknownValue } from "../provider/sentinels";
import { FUNCTIONS, OBJECTS, objectOf, type FunctionDefinition, type ObjectDefinition, type ResultField } from "../api/functions";
import { IMPLEMENTATIONS, type ClientSource } from "../provider/functions";
import { converter, kindTypes, tsTypeSpec, type Json, type PropertySpec } from "./types";
import { isSecret, secret, unwrapSecrets } from "./secrets";
import { BadRequestError } from "./errors";
import type { Rec } from "../provider/resources/spec";
import { isRecord } from "../provider/resources/values";
import type { Context } from "../provider/resources/context";

/** The schema token of a named result object: `irv:registry:Repo`. */
export const objectToken = (o: ObjectDefinition): string => `irv:${o.module}:${o.name}`;

/**
 * The inputs of a function: its arguments' JSON Schema as schema properties, converted as the
 * kinds' fields are (plugin/types.ts). Arguments are scalars, lists and maps: a named type among
 * them would need declaring, so it is refused here rather than left dangling.
 */
function inputsOf(f: FunctionDefinition): PropertySpec {
  const json = z.toJSONSchema(f.args, { io: "input" }) as { properties?: Record<string, Json>; required?: string[]; $defs?: Record<string, Json> };
  const named: Record<string, PropertySpec> = {};
  const typeOfJson = converter(named, f.module, json.$defs ?? {});
  const properties = Object.fromEntries(
    Object.entries(json.properties ?? {}).map(([name, s]) => [name, { ...typeOfJson(s, `${f.token}.${name}`), description: s.description }]),
  );
  if (Object.keys(named).length) throw new Error(`${f.token}: arguments of named types (${Object.keys(named).join(", ")}) are not declared in the schema`);
  return { properties, ...(json.required?.length ? { required: json.required } : {}) };
}

/** The schema type of a result field: a named object (or an array of them), else as a kind's field. */
function resultType(f: ResultField): PropertySpec {
  const o = objectOf(f.type, OBJECTS);
  if (!o) return (f.of && kindTypes().fields[f.of.kind][f.of.field]) || tsTypeSpec(f.type);
  const ref = { $ref: `#/types/${objectToken(o)}` };
  return f.type.endsWith("[]") ? { type: "array", items: ref } : ref;
}

/** The properties and required names of a result object. */
function objectSpec(fields: Record<string, ResultField>): { properties: Record<string, PropertySpec>; required: string[] } {
  const properties: Record<string, PropertySpec> = {};
  for (const [name, f] of Object.entries(fields)) properties[name] = { ...resultType(f), description: f.description, ...(f.secret ? { secret: true } : {}) };
  return { properties, required: Object.keys(fields).filter((n) => !fields[n].optional) };
}

/** The outputs of a function: the object's fields, or its one list of named objects. */
function outputsOf(f: FunctionDefinition): PropertySpec {
  const r = f.result;
  if ("object" in r) return { description: r.object.description, ...objectSpec(r.object.fields) };
  const items: ResultField = { type: `${r.of.name}[]`, description: r.description };
  return objectSpec({ [r.list]: items });
}

/** The schema's `functions`: every function with its description, inputs and outputs. */
export function functionSpecs(): Record<string, PropertySpec> {
  return Object.fromEntries(FUNCTIONS.map((f) => [f.token, { description: f.description, inputs: inputsOf(f), outputs: outputsOf(f) }]));
}

/** The named objects the functions' results use (list items and what they nest), as schema `types`. */
export function functionTypes(): Record<string, PropertySpec> {
  const used = new Map<string, ObjectDefinition>();
  const visit = (fields: Record<string, ResultField>) => {
    for (const f of Object.values(fields)) {
      const o = objectOf(f.type, OBJECTS);
      if (o && !used.has(o.name)) (used.set(o.name, o), visit(o.fields));
    }
  };
  for (const f of FUNCTIONS) visit("object" in f.result ? f.result.object.fields : { [f.result.list]: { type: `${f.result.of.name}[]`, description: "" } });
  return Object.fromEntries([...used.values()].map((o) => [objectToken(o), { type: "object", description: o.description, ...objectSpec(o.fields) }]));
}

const FUNCTION_OF_TOKEN = new Map<string, FunctionDefinition>(FUNCTIONS.map((f) => [f.token, f]));

/** `v` (an object of `def`'s shape, or an array of them) with its secret fields wrapped, nested objects included. */
export function wrapResult(def: ObjectDefinition, v: unknown): unknown {
  if (Array.isArray(v)) return v.map((e) => wrapResult(def, e));
  return isRecord(v) ? wrapObject(def, v) : v;
}

/** Object `v` of `def`'s shape with its secret fields wrapped (see wrapResult). */
function wrapObject(def: ObjectDefinition, v: Rec): Rec {
  const out: Rec = { ...v };
  for (const [name, f] of Object.entries(def.fields)) {
    if (out[name] === undefined || out[name] === null) continue;
    const nested = objectOf(f.type, OBJECTS);
    if (nested) out[name] = wrapResult(nested, out[name]);
    if (f.secret) out[name] = secret(out[name]);
  }
  return out;
}

/** What an Invoke of `token` returns: the result with its secret fields wrapped, or why the arguments are refused. */
export async function invokeFunction(
  token: string,
  raw: Rec,
  clients: ClientSource,
): Promise<{ result: Rec; failures?: undefined } | { result?: undefined; failures: { property: string; reason: string }[] }> {
  const f = FUNCTION_OF_TOKEN.get(token);
  const run = IMPLEMENTATIONS.get(token);
  if (!f || !run) throw new BadRequestError(`irv: unknown function ${token}; known: ${[...FUNCTION_OF_TOKEN.keys()].join(", ")}`);
  const unknown = Object.keys(raw).filter((k) => JSON.stringify(raw[k])?.includes(unknownValue));
  if (unknown.length) return { failures: unknown.map((property) => ({ property, reason: "not known yet: it depends on a resource not yet created" })) };
  const parsed = f.args.safeParse(unwrapSecrets(raw));
  if (!parsed.success)
    return {
      failures: parsed.error.issues.flatMap((i) =>
        i.code === "unrecognized_keys"
          ? i.keys.map((k) => ({ property: k, reason: `not an argument of ${token} (its arguments: ${Object.keys(f.args.shape).join(", ")})` }))
          : [{ property: propertyPath(i.path) || "(arguments)", reason: i.message }],
      ),
    };
  let result: Rec;
  try {
    result = await run(clients, parsed.data as never);
  } catch (e) {
    throw new Error(`${token}(${argsText(raw)}): ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  }
  const r = f.result;
  return { result: "object" in r ? wrapObject(r.object, result) : { [r.list]: wrapResult(r.of, result[r.list]) } };
}

/** A zod issue's path as a Pulumi property path: `ids[1]`, `filters.name`. */
const propertyPath = (path: PropertyKey[]): string =>
  path.reduce<string>((s, p) => (typeof p === "number" ? `${s}[${p}]` : s ? `${s}.${String(p)}` : String(p)), "");

/** The arguments as an error message shows them, naming each: secret ones hidden, long ones cut. */
function argsText(raw: Rec): string {
  const text = Object.entries(raw)
    .map(([k, v]) => `${k}: ${isSecret(v) ? "[secret]" : JSON.stringify(v)}`)
    .join(", ");
  return text.length > 300 ? `${text.slice(0, 297)}...` : text;
}

/** The gRPC Invoke, in its call's context (its client): the function's result, or its refused arguments as failures naming each. */
export async function invoke(req: provproto.InvokeRequest, ctx: Context): Promise<provproto.InvokeResponse> {
  const r = await invokeFunction(req.getTok(), req.getArgs()?.toJavaScript() ?? {}, (o) => ctx.client(o));
  const resp = new provproto.InvokeResponse();
  for (const f of r.failures ?? []) resp.addFailures(new provproto.CheckFailure().setProperty(f.property).setReason(f.reason));
  // JSON drops the `undefined` members Struct refuses (a built-in role's groupUid).
  if (r.result) resp.setReturn(structproto.Struct.fromJavaScript(JSON.parse(JSON.stringify(r.result))));
  return resp;
}
