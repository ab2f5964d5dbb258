/**
 * What the definitions imply, in code: the create and update bodies the server parses, the
 * shape of an item as the API returns it, and their TypeScript types, including the provider's
 * inputs and outputs. Nothing here names a kind or a field.
 */
import { z } from "zod";
import { oneOf } from "./common";
import { type KindDefinition } from "./definition";
import { fieldEntries } from "./field-sets";
import { wireNameOf } from "./naming";

type Fields<D extends KindDefinition> = D["fields"];
/** protojson's lowerCamelCase of a proto name, as a type: `default_role` -> `defaultRole`. */
type Camel<S extends string> = S extends `${infer H}_${infer T}` ? `${H}${Capitalize<Camel<T>>}` : S;
type WireOf<F, N> = F extends { proto: { json: infer J extends string } } ? J : F extends { proto: { name: infer P extends string } } ? Camel<P> : N;
type SchemaOf<F, P extends "schema" | "read" | "update"> = F extends { [K in P]: infer S extends z.ZodType } ? S : never;

/** The members of `d`'s create body, by wire name. */
export type BodyShape<D extends KindDefinition> = {
  [
    N in keyof Fields<D> & string as Fields<D>[N] extends { part: object }
      ? never
      : Fields<D>[N] extends { schema: z.ZodType }
        ? WireOf<Fields<D>[N], N>
        : never
  ]: SchemaOf<Fields<D>[N], "schema">;
};

/** The members of an item of `d` as the API returns it, by wire name (the uid besides). */
export type ReadShape<D extends KindDefinition> = { uid: z.ZodString } & {
  [N in keyof Fields<D> & string as Fields<D>[N] extends { read: z.ZodType } ? WireOf<Fields<D>[N], N> : never]: SchemaOf<Fields<D>[N], "read">;
};

/** An item of `d` as the API returns it, without members a newer server may add. */
export type ItemOf<D extends KindDefinition> = z.output<z.ZodObject<ReadShape<D>>>;

/** The request rules of `d`'s inputs, by input name, with the parent uid. */
type InputShape<D extends KindDefinition> = { [P in D["parentField"]]: z.ZodString } & {
  [N in keyof Fields<D> & string as Fields<D>[N] extends { schema: z.ZodType } ? N : never]: SchemaOf<Fields<D>[N], "schema">;
};
/** The API's values of `d`'s fields, by field name. */
type OutputShape<D extends KindDefinition> = {
  [N in keyof Fields<D> & string as Fields<D>[N] extends { read: z.ZodType } ? N : never]: SchemaOf<Fields<D>[N], "read">;
};

/** The provider's inputs of `d`: the parent and each input, as the request rules take them. */
export type InputsOf<D extends KindDefinition> = z.input<z.ZodObject<InputShape<D>>>;

/** The provider's outputs of `d`: the inputs as they are live, the uid, and every field the API returns. */
export type OutputsOf<D extends KindDefinition> = InputsOf<D> & { uid: string } & z.output<z.ZodObject<OutputShape<D>>>;

const entries = (d: KindDefinition) => fieldEntries(d.fields);
/** `s` with `d`'s "exactly one of" rule (at most one on update). */
function withRules<S extends z.ZodObject>(s: S, d: KindDefinition, update: boolean): S {
  const { exactlyOne } = d;
  if (!exactlyOne) return s;
  return s.superRefine((v: Record<string, unknown>, ctx) => oneOf(v, ctx, exactlyOne, update));
}

/** `T` without the index signature a loose object's type has: its declared members only. */
export type Known<T> = { [K in keyof T as string extends K ? never : K]: T[K] };

/**
 * The create body of `d` (strict: an unknown member is an error, so the provider's check names a
 * misspelt input at preview; the server discards them instead, see server/validate.ts), with its
 * cross-field rules.
 */
export function createBodyOf<D extends KindDefinition>(d: D): z.ZodObject<BodyShape<D>, z.core.$strict> {
  const shape = Object.fromEntries(entries(d).flatMap(([n, f]) => (f.schema && !f.part ? [[wireNameOf(n, f), f.schema]] : [])));
  return withRules(z.strictObject(shape), d, false) as never;
}

/** The update body of `d`: each member optional (its `update` rule where it has one), with the update's cross-field rules. */
export function updateBodyOf<D extends KindDefinition>(d: D): z.ZodObject<{ [K in keyof BodyShape<D>]: z.ZodOptional<BodyShape<D>[K]> }, z.core.$strict> {
  const shape = Object.fromEntries(entries(d).flatMap(([n, f]) => (f.schema && !f.part ? [[wireNameOf(n, f), f.update ?? f.schema]] : [])));
  return withRules(z.strictObject(shape).partial(), d, true) as never;
}

/**
 * The values an item of `d` has for what nobody gave (a new group's `verified`, its limits), by
 * wire name: the defaults of its read shape. Fresh objects on every call.
 */
export function readDefaults(d: KindDefinition): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [n, f] of entries(d)) if (f.read instanceof z.ZodDefault) out[wireNameOf(n, f)] = structuredClone(f.read.def.defaultValue);
  return out;
}

/**
 * `v` without its `null` members, at every depth: the platform's gateway writes an unset message
 * as `null` (a never-used identity's `lastSeenTime`, an association's unset blocks), which means
 * the same as absent.
 */
export function withoutNulls(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(withoutNulls);
  if (typeof v !== "object" || v === null) return v;
  // fromEntries makes every key an own member: an assignment to `__proto__` would set the prototype instead.
  return Object.fromEntries(
    Object.entries(v)
      .filter(([, x]) => x !== null)
      .map(([k, x]) => [k, withoutNulls(x)]),
  );
}

/** An item of `d` as the API returns it (after `withoutNulls`): loose, so a field a newer server adds passes through. */
export function readShapeOf<D extends KindDefinition>(d: D): z.ZodObject<ReadShape<D>, z.core.$loose> {
  const shape = Object.fromEntries(entries(d).flatMap(([n, f]) => (f.read ? [[wireNameOf(n, f), f.read]] : [])));
  return z.looseObject({ uid: z.string(), ...shape }) as never;
}
