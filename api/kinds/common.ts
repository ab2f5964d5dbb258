/** What many kinds' definitions share: the common fields, and the rules several kinds' checks use. */
import { z } from "zod";
import * as rule from "../fields";
import { once } from "../once";
import type { FieldDefinition, ProtoField } from "./definition";

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
export const text = once(() => z.string().optional());
/** A string map as the API returns it, when it may be absent. */
export const textMap = once(() => z.record(z.string(), z.string()).optional());

const TIMESTAMP = "google.protobuf.Timestamp";

/** A proto field whose SDK type follows from its proto type: text (a string, a timestamp, a duration) or a `bool`, maybe repeated. */
type ScalarProto = ProtoField & { type: "string" | "bool" | typeof TIMESTAMP | "google.protobuf.Duration" };
type SdkBase<P> = P extends { type: "bool" } ? "boolean" : "string";
/** The SDK type of a scalar proto field: `string`, `boolean`, `string[]`. */
type SdkTypeOf<P> = P extends { repeated: true } ? `${SdkBase<P>}[]` : SdkBase<P>;
type ZodBase<P> = P extends { type: "bool" } ? z.ZodBoolean : z.ZodString;
type ZodOf<P> = P extends { repeated: true } ? z.ZodArray<ZodBase<P>> : ZodBase<P>;
/** The read shape `scalar` derives, when the field gives none (see there). */
type DerivedRead<P, F> = F extends { read: z.ZodType }
  ? unknown
  : F extends { writeOnly: true }
    ? unknown
    : F extends { default: unknown }
      ? { read: z.ZodDefault<ZodOf<P>> }
      : P extends { behavior: readonly (infer B)[] }
        ? "REQUIRED" extends B
          ? "INPUT_ONLY" extends B
            ? unknown
            : { read: ZodOf<P> }
          : unknown
        : unknown;
type Flat<T> = { [K in keyof T]: T[K] };

/** The zod type of a scalar proto field's values as the API returns them. */
function zodOf(p: ScalarProto): z.ZodType {
  const one = p.type === "bool" ? z.boolean() : z.string();
  return p.repeated ? z.array(one) : one;
}

/**
 * A field of the kind's message of a scalar proto type (`proto`): its SDK type (`type`) follows
 * from the proto's, and so does its read shape, unless `f` gives one: with a default, what an
 * unset value reads as (an input's default is what the API answers for it); without one, a
 * REQUIRED field the API returns is always there. Otherwise the read shape is the field's to give.
 */
export function scalar<const P extends ScalarProto, const F extends Omit<FieldDefinition, "type" | "proto">>(
  proto: P,
  f: F,
): Flat<{ type: SdkTypeOf<P> } & F & { proto: P } & DerivedRead<P, F>> {
  const base = proto.type === "bool" ? "boolean" : "string";
  const type = proto.repeated ? `${base}[]` : base;
  const behavior = proto.behavior ?? [];
  const read =
    f.read ??
    (f.writeOnly
      ? undefined
      : f.default !== undefined
        ? zodOf(proto).default(f.default as never)
        : behavior.includes("REQUIRED") && !behavior.includes("INPUT_ONLY")
          ? zodOf(proto)
          : undefined);
  return { type, ...f, proto, ...(read ? { read } : {}) } as never;
}

/** The name a rule gives itself (`.meta({ id })`), through optional, default and nullable wrappers; a list's, with `[]`. */
function nameOfRule(s: z.ZodType): string | undefined {
  const id = s.meta()?.id;
  if (id) return id;
  if (s instanceof z.ZodOptional || s instanceof z.ZodDefault || s instanceof z.ZodNullable) return nameOfRule(s.def.innerType as z.ZodType);
  if (s instanceof z.ZodArray) {
    const element = nameOfRule(s.element as z.ZodType);
    return element && `${element}[]`;
  }
  return undefined;
}

/**
 * A field whose value is a named block or enum: its SDK type is the name its request rule (else
 * its read shape) gives itself (`ClaimMatch`, `Capability[]`), which the plugin's schema names it
 * by too.
 */
export function named<const F extends Omit<FieldDefinition, "type">>(f: F): Flat<{ type: string } & F> {
  const rule = f.schema ?? f.read;
  const type = rule && nameOfRule(rule);
  if (!type) throw new Error(`a named field's rule must name itself (.meta({ id })): ${f.description}`);
  return { type, ...f };
}

/**
 * A field of an enum type (`proto.type` names the enum): the wire and the SDK carry the value's
 * name, a string.
 */
export function enumeration<const P extends ProtoField, const F extends Omit<FieldDefinition, "type" | "proto">>(
  proto: P,
  f: F,
): Flat<{ type: "string" } & F & { proto: P }> {
  return { type: "string", ...f, proto };
}

/** The uid of the parent (in the path) of kind `refersTo`, described by `description`; changing it replaces the resource. */
const parentUid =
  <const R extends FieldDefinition["refersTo"]>(refersTo: R) =>
  (description: string) =>
    ({ type: "string", description, input: true, replace: true, refersTo }) as const;

/** Fields most kinds share. */
export const common = {
  /** The owning group's uid. */
  groupUid: parentUid("groups"),
  /** The repo's uid, for what lives in a repo. */
  repoUid: parentUid("repos"),
  /** A name, by the API's rule for names (`schema`: a tighter one), as field `number` of the kind's message. */
  name: <S extends z.ZodType<string> = ReturnType<typeof rule.name>>(description: string, number: number, schema?: S) =>
    scalar({ number, type: "string", behavior: ["REQUIRED"] }, { description, input: true, schema: schema ?? rule.name() }),
} satisfies Record<string, FieldDefinition | ((...a: never[]) => FieldDefinition)>;

/** The common fields as fields of a kind's message, by their numbers there. */
export const numbered = {
  description: (number: number) =>
    scalar(
      { number, type: "string" },
      { description: "Free text.", input: true, default: "", schema: rule.description().optional(), read: z.string().default("") },
    ),
  createTime: (number: number) =>
    scalar({ number, type: TIMESTAMP, behavior: ["OUTPUT_ONLY"] }, { description: "When it was created (RFC 3339).", read: z.string() }),
  updateTime: (number: number) =>
    scalar({ number, type: TIMESTAMP, behavior: ["OUTPUT_ONLY"] }, { description: "When it last changed (RFC 3339).", read: z.string() }),
};
