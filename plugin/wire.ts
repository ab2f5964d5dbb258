/**
 * The provider service with some Structs kept as the bytes the engine sent. A refresh reads and
 * diffs every resource. A read that finds no drift answers with the engine's own properties and
 * inputs, and a diff never looks at the old inputs: as bytes, the first go back as they came and
 * the second are never decoded, where the stubs decode every Struct into messages and encode it
 * again. The rest of each request and response goes through the stubs. Field numbers are taken
 * from the stubs' own encoding, not written here.
 */
import { BinaryReader, BinaryWriter } from "google-protobuf";
import * as protobuf from "protobufjs";
import * as structproto from "google-protobuf/google/protobuf/struct_pb";
import * as provrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";

/** A Struct as it arrived: its bytes (undefined when the request had none). */
export type StructBytes = Buffer | undefined;

/** A request whose Struct fields `F` were kept as bytes; the stub message holds the rest. */
export interface WithStructs<M, F extends string> {
  message: M;
  structs: Record<F, StructBytes>;
}

/** A response with Structs given as bytes to send as they are, beside the stub message. */
export interface WithStructBytes<M, F extends string> {
  message: M;
  structs: Partial<Record<F, Uint8Array>>;
}

interface StubType<M> {
  new (): M;
  deserializeBinary(b: Uint8Array): M;
}
interface Encodable {
  serializeBinary(): Uint8Array;
}
type Setters<F extends string> = { [K in F as `set${Capitalize<K>}`]: (s: structproto.Struct) => unknown };

/** The field number of each Struct field `f` of `type`, from how the stub encodes it alone. */
function fieldNumbers<M, F extends string>(type: StubType<M>, fields: readonly F[]): Record<F, number> {
  const out = {} as Record<F, number>;
  for (const f of fields) {
    const m = new type() as M & Setters<F> & Encodable;
    (m[`set${f[0].toUpperCase()}${f.slice(1)}` as keyof Setters<F>] as (s: structproto.Struct) => unknown).call(m, new structproto.Struct());
    const r = new BinaryReader(m.serializeBinary());
    r.nextField();
    out[f] = r.getFieldNumber();
  }
  return out;
}

/** Decodes a request of `type`, keeping its Struct fields `fields` as bytes. */
export function requestKeeping<M, F extends string>(type: StubType<M>, fields: readonly F[]): (buf: Buffer) => WithStructs<M, F> {
  const numbers = fieldNumbers(type, fields);
  const byNumber = new Map(fields.map((f) => [numbers[f], f]));
  return (buf) => {
    const structs = Object.fromEntries(fields.map((f) => [f, undefined])) as Record<F, StructBytes>;
    const rest: Uint8Array[] = [];
    const r = new BinaryReader(buf);
    for (let start = r.getCursor(); r.nextField() && !r.isEndGroup(); start = r.getCursor()) {
      const f = byNumber.get(r.getFieldNumber());
      if (f === undefined) {
        r.skipField();
        rest.push(buf.subarray(start, r.getCursor()));
        continue;
      }
      // Sent twice (the engine never does), the last one counts, as with the stubs. A Buffer
      // over the same memory: protobufjs decodes its strings natively, twice as fast.
      const bytes = r.readBytes();
      structs[f] = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    }
    return { message: type.deserializeBinary(Buffer.concat(rest)), structs };
  };
}

/** Encodes a response of `type`: the stub message, then each Struct given as bytes. */
export function responseSending<M extends Encodable, F extends string>(type: StubType<M>, fields: readonly F[]): (r: WithStructBytes<M, F>) => Buffer {
  const numbers = fieldNumbers(type, fields);
  return ({ message, structs }) => {
    const w = new BinaryWriter();
    for (const f of fields) {
      const bytes = structs[f];
      if (bytes) w.writeBytes(numbers[f], bytes);
    }
    return Buffer.concat([message.serializeBinary(), w.getResultBuffer()]);
  };
}

/**
 * Struct, decoded by protobufjs into JavaScript objects: three times as fast as the stubs' messages
 * from a Buffer, and far less garbage (a refresh decodes four Structs per resource).
 */
const StructType = protobuf.Root.fromJSON(protobuf.common.get("google/protobuf/struct.proto")!).lookupType("google.protobuf.Struct");
interface StructObject {
  fields?: Record<string, ValueObject>;
}
interface ValueObject {
  /** The oneof's member that is set. */
  kind?: "nullValue" | "numberValue" | "stringValue" | "boolValue" | "structValue" | "listValue";
  numberValue?: number;
  stringValue?: string;
  boolValue?: boolean;
  structValue?: StructObject;
  listValue?: { values?: ValueObject[] };
}
function valueOfProto(v: ValueObject): unknown {
  switch (v.kind) {
    case "structValue":
      return valuesOfStruct(v.structValue!);
    case "listValue":
      return (v.listValue!.values ?? []).map(valueOfProto);
    case "numberValue":
    case "stringValue":
    case "boolValue":
      return v[v.kind];
    default:
      return null;
  }
}
function valuesOfStruct(s: StructObject): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name in s.fields) out[name] = valueOfProto(s.fields[name]);
  return out;
}

/** A Struct's bytes as JavaScript values, as the stubs' `toJavaScript` gives them (secrets still wrapped, as sent). */
export const valuesOf = (bytes: StructBytes): Record<string, unknown> => (bytes?.length ? valuesOfStruct(StructType.decode(bytes) as StructObject) : {});

export type ReadCall = WithStructs<provproto.ReadRequest, "properties" | "inputs">;
export type ReadAnswer = WithStructBytes<provproto.ReadResponse, "properties" | "inputs">;
export type DiffCall = WithStructs<provproto.DiffRequest, "olds" | "news" | "oldInputs">;

/** The provider service, with Read's and Diff's Structs as bytes (see above). */
export const providerService = {
  ...provrpc.ResourceProviderService,
  read: {
    ...provrpc.ResourceProviderService.read,
    requestDeserialize: requestKeeping(provproto.ReadRequest, ["properties", "inputs"] as const),
    responseSerialize: responseSending(provproto.ReadResponse, ["properties", "inputs"] as const),
  },
  diff: {
    ...provrpc.ResourceProviderService.diff,
    requestDeserialize: requestKeeping(provproto.DiffRequest, ["olds", "news", "oldInputs"] as const),
  },
};
