/**
 * Builds the protobufjs descriptors of the platform's services from the project's record of
 * them (proto.ts), with protojson's JSON mapping: fields are named by their JSON names (lowerCamelCase,
 * or the `json=` a field's text gives), so `toObject`/`fromObject` with `JSON_OPTIONS` speak what the
 * platform's gateway speaks (int64 as strings, enums by name, bytes as base64), and the
 * well-known types read and write their JSON forms (Timestamp, Duration, FieldMask) through protobufjs wrappers rather than by hand per message.
 */
import protobuf from "protobufjs";
import { isEnum, jsonName, parseField, type ProtoEnum, type ProtoMessage, type ProtoPackage } from "./proto";

/** What every conversion between messages and JSON uses. */
export const JSON_OPTIONS: protobuf.IConversionOptions = { json: true, longs: String, enums: String, bytes: String, defaults: false };

/** The proto name of a field of the built descriptors (their names are JSON names). */
export function protoNameOf(field: protobuf.Field): string {
  const name: unknown = field.options?.proto_name;
  return typeof name === "string" ? name : field.name;
}

function messageJson(m: ProtoMessage): protobuf.IType & { nested?: Record<string, unknown> } {
  const fields: Record<string, protobuf.IField & { keyType?: string }> = {};
  const oneofs: Record<string, { oneof: string[] }> = {};
  for (const [name, text] of Object.entries(m.fields)) {
    const f = parseField(name, text);
    const json = f.json ?? jsonName(name);
    fields[json] = {
      type: f.type,
      id: f.number,
      ...(f.rule === "repeated" ? { rule: "repeated" } : {}),
      ...(f.keyType ? { keyType: f.keyType } : {}),
      options: { proto_name: name, ...(f.rule === "optional" ? { proto3_optional: true } : {}) },
    };
    if (f.oneof) (oneofs[f.oneof] ??= { oneof: [] }).oneof.push(json);
  }
  const nested = m.nested && Object.fromEntries(Object.entries(m.nested).map(([k, v]) => [k, isEnum(v) ? enumJson(v) : messageJson(v)]));
  return { fields, ...(Object.keys(oneofs).length ? { oneofs } : {}), ...(nested ? { nested } : {}) };
}

const enumJson = (e: ProtoEnum): protobuf.IEnum => ({ values: e.values });

/** Builds one Root holding every package (types resolve across them, as proto imports do). */
export function buildRoot(packages: readonly ProtoPackage[]): protobuf.Root {
  installWrappers();
  const root = new protobuf.Root();
  for (const p of packages) {
    const nested: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(p.messages ?? {})) nested[k] = messageJson(v);
    for (const [k, v] of Object.entries(p.enums ?? {})) nested[k] = enumJson(v);
    for (const [k, s] of Object.entries(p.services ?? {})) {
      const methods: Record<string, Omit<protobuf.IMethod, "comment">> = {};
      for (const [name, m] of Object.entries(s.methods))
        // A method irv-server does not serve still has a descriptor (its messages unknown here).
        methods[name] =
          "request" in m
            ? { requestType: m.request, responseType: m.response }
            : { requestType: ".google.protobuf.Empty", responseType: ".google.protobuf.Empty" };
      nested[k] = { methods };
    }
    root.define(p.package).addJSON(nested as Record<string, protobuf.AnyNestedObject>);
  }
  root.resolveAll();
  return root;
}

// --- The well-known types' JSON forms -------------------------------------------------------

type Long = { toNumber(): number };
const num = (v: unknown): number => (typeof v === "object" && v !== null ? (v as Long).toNumber() : Number(v ?? 0));

/** Nanoseconds as protojson writes them: no digits, or 3, 6 or 9. */
function fraction(nanos: number): string {
  if (nanos === 0) return "";
  const nine = String(nanos).padStart(9, "0");
  return `.${nine.endsWith("000000") ? nine.slice(0, 3) : nine.endsWith("000") ? nine.slice(0, 6) : nine}`;
}

/** Parses RFC 3339 (any fraction, `Z` or an offset) into seconds and nanos; throws when malformed. */
export function parseTimestamp(s: string): { seconds: number; nanos: number } {
  const m = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/i.exec(s);
  const ms = m ? Date.parse(`${m[1]}${m[3]}`) : NaN;
  if (!m || Number.isNaN(ms)) throw new TypeError(`not an RFC 3339 timestamp: ${JSON.stringify(s)}`);
  return { seconds: Math.floor(ms / 1000), nanos: Number((m[2] ?? "").padEnd(9, "0")) };
}

function formatTimestamp(seconds: number, nanos: number): string {
  return `${new Date(seconds * 1000).toISOString().slice(0, 19)}${fraction(nanos)}Z`;
}

function parseDuration(s: string): { seconds: number; nanos: number } {
  const m = /^(-)?(\d+)(?:\.(\d{1,9}))?s$/.exec(s);
  if (!m) throw new TypeError(`not a duration ("<seconds>s"): ${JSON.stringify(s)}`);
  const sign = m[1] ? -1 : 1;
  return { seconds: sign * Number(m[2]), nanos: sign * Number((m[3] ?? "").padEnd(9, "0")) };
}

const snake = (s: string) => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** The JSON forms protojson gives the well-known types, read: string -> message fields. */
/** The paths of a FieldMask's JSON form (lowerCamelCase, joined by commas), as proto names. */
const readMask = (s: string): { paths: string[] } => ({ paths: s === "" ? [] : s.split(",").map(snake) });

const READ_JSON: Record<string, (s: string) => Record<string, unknown>> = {
  ".google.protobuf.Timestamp": parseTimestamp,
  ".google.protobuf.Duration": parseDuration,
  ".google.protobuf.FieldMask": readMask,
};

/** `json` with the well-known types' JSON forms read into their fields, for `type.fromObject`. */
function readWellKnown(type: protobuf.Type, json: unknown): unknown {
  if (typeof json !== "object" || json === null || Array.isArray(json)) return json;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(json)) {
    const field = type.fields[k];
    const t = field?.resolvedType;
    if (!t || !("fields" in t) || v === null) {
      out[k] = v;
      continue;
    }
    const one = (x: unknown) =>
      typeof x === "string" && READ_JSON[t.fullName] ? READ_JSON[t.fullName](x) : t.fullName === ".google.protobuf.Any" ? readAny(t, x) : readWellKnown(t, x);
    out[k] =
      field.map && typeof v === "object"
        ? Object.fromEntries(Object.entries(v as object).map(([mk, mv]) => [mk, one(mv)]))
        : field.repeated && Array.isArray(v)
          ? v.map(one)
          : one(v);
  }
  return out;
}

/** An Any's JSON (`@type` and the packed message's members), its packed message's JSON read. */
function readAny(any: protobuf.Type, json: unknown): unknown {
  const url = (json as { "@type"?: unknown } | null)?.["@type"];
  if (typeof url !== "string") return json;
  const packed = any.root.lookup(url.slice(url.lastIndexOf("/") + 1));
  return packed instanceof protobuf.Type ? { ...(readWellKnown(packed, json) as object), "@type": url } : json;
}

/** The paths of a FieldMask's JSON form, as proto names. */
export const maskPathsOf = (json: string): string[] => readMask(json).paths;

/** A message of `type` from protojson (unknown members ignored, `null` as unset). */
export function fromJson(type: protobuf.Type, json: unknown): protobuf.Message {
  return type.fromObject(readWellKnown(type, json ?? {}) as Record<string, unknown>);
}

/** The protojson of a message of `type`. */
export function toJson(type: protobuf.Type, message: protobuf.Message): Record<string, unknown> {
  return withDecimalKeys(type, type.toObject(message, JSON_OPTIONS));
}

const LONG_KEYS = new Set(["int64", "uint64", "sint64", "fixed64", "sfixed64"]);

/**
 * `obj` (the JSON of a message of `type`) with the keys of its 64-bit-keyed maps as decimals, as
 * protojson writes them: protobufjs's decoder keys such a map by the 8-character hash of the
 * number (an association's GitHub `app_installations`), which `toObject` passes on as it is.
 */
function withDecimalKeys(type: protobuf.Type, obj: Record<string, unknown>): Record<string, unknown> {
  for (const field of type.fieldsArray) {
    const v = obj[field.name];
    if (v === undefined || v === null) continue;
    const inner = field.resolve().resolvedType;
    const sub = inner instanceof protobuf.Type ? inner : undefined;
    if (field instanceof protobuf.MapField && typeof v === "object") {
      const m = v as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      const unsigned = field.keyType === "uint64" || field.keyType === "fixed64";
      for (const [k, x] of Object.entries(m)) {
        const key = LONG_KEYS.has(field.keyType) && k.length === 8 ? protobuf.util.LongBits.fromHash(k).toLong(unsigned).toString() : k;
        out[key] = sub && x && typeof x === "object" ? withDecimalKeys(sub, x as Record<string, unknown>) : x;
      }
      obj[field.name] = out;
    } else if (sub && typeof v === "object") {
      for (const x of Array.isArray(v) ? v : [v]) if (x && typeof x === "object") withDecimalKeys(sub, x as Record<string, unknown>);
    }
  }
  return obj;
}

type Wrapper = {
  fromObject(this: protobuf.Type, o: unknown): protobuf.Message;
  toObject(this: protobuf.Type, m: protobuf.Message, o?: protobuf.IConversionOptions): unknown;
};

/**
 * Registers how the well-known types are written to JSON (with `json: true` only, so other users
 * of protobufjs in the process see no change). protobufjs checks a message field is an object
 * before any wrapper's `fromObject` runs, so reading their JSON forms is `readWellKnown`'s.
 */
function installWrappers(): void {
  const w = protobuf.wrappers as Record<string, Wrapper>;
  if (w[".google.protobuf.Timestamp"]) return;
  const write = (name: string, to: (m: Record<string, unknown>) => unknown) => {
    w[`.google.protobuf.${name}`] = {
      fromObject(o) {
        return this.fromObject(o as Record<string, unknown>);
      },
      toObject(m, o) {
        // protobufjs types a message as Message, without its fields, which it reads by name (own or the prototype's defaults).
        // eslint-disable-next-line no-restricted-syntax -- protobufjs types a decoded message as its class; `to` reads its plain fields
        return o?.json ? to(m as unknown as Record<string, unknown>) : this.toObject(m, o);
      },
    };
  };
  write("Timestamp", (m) => formatTimestamp(num(m.seconds), num(m.nanos)));
  write("Duration", (m) => {
    const s = num(m.seconds),
      n = num(m.nanos);
    return `${s < 0 || n < 0 ? "-" : ""}${Math.abs(s)}${fraction(Math.abs(n))}s`;
  });
  // protojson writes a mask's paths in lowerCamelCase, joined by commas.
  write("FieldMask", (m) => (Array.isArray(m.paths) ? m.paths : []).map(jsonName).join(","));
}
