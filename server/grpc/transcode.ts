/**
 * A gRPC request as the REST request its `google.api.http` mapping names, as the platform's
 * gateway (grpc-gateway) would make it: the path template's variables from the request's fields,
 * the body from the mapping's `body` field (`*`: everything the path does not take), and every
 * other set field as a query parameter under its proto name (nested messages dotted, repeated
 * fields repeated). And a REST answer back as the response message, or its `google.rpc.Status`
 * as the gRPC status with its typed details.
 */
import { status as GrpcStatus, Metadata, type ServiceError } from "@grpc/grpc-js";
import type protobuf from "protobufjs";
import type { HttpRule } from "../../api/grpc/proto";
import { fromJson, maskPathsOf, protoNameOf, toJson } from "../../api/grpc/root";
import { packageNameProblem } from "../../api/versions";
import { parseUid } from "../validate";
import { invalidField } from "../errors";

type Obj = Record<string, unknown>;

/** A REST request to dispatch. */
export interface RestRequest {
  method: string;
  url: string;
  body?: unknown;
}

const TEMPLATE = /\{([\w.]+)(?:=([^}]*))?\}/g;

/** The field of `type` whose proto name is `name`, or undefined. */
function fieldByProtoName(type: protobuf.Type, name: string): protobuf.Field | undefined {
  return type.fieldsArray.find((f) => protoNameOf(f) === name);
}

/** Takes the value at a proto field path (`group.uid`) out of `obj` (JSON names), returning it. */
function take(type: protobuf.Type, obj: Obj, path: string): unknown {
  const [head, ...rest] = path.split(".");
  const field = fieldByProtoName(type, head);
  if (!field) throw new Error(`mapping names ${path}, which ${type.fullName} does not have`);
  const v = obj[field.name];
  if (rest.length === 0) {
    delete obj[field.name];
    return v;
  }
  return v && typeof v === "object" ? take(field.resolvedType as protobuf.Type, v as Obj, rest.join(".")) : undefined;
}

/** Path variables that name something other than an item, with what is wrong with a value: registry v1's `package`. */
export const NAME_VARIABLES: Readonly<Record<string, (raw: string) => string | undefined>> = { package: packageNameProblem };

function pathName(raw: string, field: string): string {
  const problem = NAME_VARIABLES[field](raw);
  if (problem) throw invalidField(field, problem);
  return raw;
}

/**
 * A path variable's value in the URL. Every other path variable of the platform's methods names
 * an item by its uid, so anything else is refused here (INVALID_ARGUMENT naming the field), before
 * routing: a `..` segment would otherwise resolve into another route. Each segment is escaped;
 * a `**` variable keeps its `/`.
 */
function pathValue(field: string, v: unknown, pattern: string | undefined): string {
  const raw = v === undefined || v === null ? "" : String(v);
  const s = field in NAME_VARIABLES ? pathName(raw, field) : parseUid(raw, field);
  return pattern === "**" ? s.split("/").map(encodeURIComponent).join("/") : encodeURIComponent(s);
}

/** Query parameters of the fields left in `obj`, by proto name. */
function query(type: protobuf.Type, obj: Obj, prefix: string, out: URLSearchParams): void {
  for (const [key, v] of Object.entries(obj)) {
    const field = type.fields[key];
    if (!field || v === undefined || v === null) continue;
    const name = `${prefix}${protoNameOf(field)}`;
    const resolved = field.resolvedType;
    const wkt = resolved?.fullName.startsWith(".google.protobuf.");
    if (resolved && "fields" in resolved && !wkt && !field.map) {
      for (const one of field.repeated ? (v as Obj[]) : [v as Obj]) query(resolved, one, `${name}.`, out);
      continue;
    }
    // A mask travels as its paths, as sent (the gateway reads `update_mask=a,b.c` as is).
    if (resolved?.fullName === ".google.protobuf.FieldMask") {
      out.append(name, maskPathsOf(String(v)).join(","));
      continue;
    }
    for (const one of Array.isArray(v) ? v : [v]) out.append(name, String(one));
  }
}

/**
 * The REST request of a decoded request message under `rule`, with the service's REST prefix.
 * Throws an ApiError for a path field that is not a uid.
 */
export function toRest(rule: HttpRule, prefix: string, type: protobuf.Type, message: protobuf.Message): RestRequest {
  const obj = toJson(type, message);
  const path = rule.path.replace(TEMPLATE, (_, field: string, pattern?: string) => pathValue(field, take(type, obj, field), pattern));
  let body: unknown;
  if (rule.body === "*") body = obj;
  else if (rule.body) body = take(type, obj, rule.body) ?? {};
  const params = new URLSearchParams();
  if (rule.body !== "*") query(type, obj, "", params);
  const qs = params.toString();
  return { method: rule.method.toUpperCase(), url: `${prefix}${path}${qs ? `?${qs}` : ""}`, ...(body === undefined ? {} : { body }) };
}

/** The response message of a REST answer's JSON body. */
export function fromRestJson(type: protobuf.Type, json: unknown): Uint8Array {
  return type.encode(fromJson(type, json)).finish();
}

/** The gRPC code an HTTP status means when the answer carries no Status (grpc-gateway's table, reversed). */
function codeOfHttp(http: number): GrpcStatus {
  const table: Record<number, GrpcStatus> = {
    400: GrpcStatus.INVALID_ARGUMENT,
    401: GrpcStatus.UNAUTHENTICATED,
    403: GrpcStatus.PERMISSION_DENIED,
    404: GrpcStatus.NOT_FOUND,
    405: GrpcStatus.UNIMPLEMENTED,
    408: GrpcStatus.DEADLINE_EXCEEDED,
    409: GrpcStatus.ALREADY_EXISTS,
    413: GrpcStatus.RESOURCE_EXHAUSTED,
    429: GrpcStatus.RESOURCE_EXHAUSTED,
    503: GrpcStatus.UNAVAILABLE,
  };
  return table[http] ?? GrpcStatus.UNKNOWN;
}

/** The metadata key grpc carries a serialized google.rpc.Status in. */
export const STATUS_DETAILS_KEY = "grpc-status-details-bin";

/**
 * The gRPC error of a REST error answer: its `google.rpc.Status` code and message, and the whole
 * Status (typed details as `google.protobuf.Any`) in `grpc-status-details-bin`.
 */
export function errorOf(statusType: protobuf.Type, http: number, json: unknown): Partial<ServiceError> {
  const s = json as { code?: unknown; message?: unknown } | undefined;
  const metadata = new Metadata();
  if (typeof s?.code === "number" && typeof s.message === "string" && s.code > 0 && s.code <= 16) {
    metadata.set(STATUS_DETAILS_KEY, Buffer.from(statusType.encode(fromJson(statusType, s)).finish()));
    return { code: s.code, details: s.message, metadata };
  }
  return { code: codeOfHttp(http), details: `the REST answer was HTTP ${http}`, metadata };
}
