/**
 * The shape of the platform's proto contract as this project writes it down: packages of messages,
 * enums and services, each method with its request, response and REST mapping (its
 * `google.api.http` option). Nothing here is copied from a `.proto` file: these are the project's
 * own records of the platform's public contract (field numbers, proto names, types, mappings),
 * from which `root.ts` builds the protobufjs descriptors irv-server serves.
 */

/**
 * One field, written as proto writes it: `"<number> [repeated|optional] <type>"`, a map as
 * `"<number> map<key,value>"`, then options: `json=<name>` when its JSON name is not the
 * lowerCamelCase of its proto name, `oneof=<name>` for a member of a oneof. Types are proto
 * type names, resolved as proto resolves them (relative to the message, then outwards).
 */
export type ProtoFieldText = `${number} ${string}`;

/** A message: fields by proto name, and the messages and enums nested in it. */
export interface ProtoMessage {
  fields: Record<string, ProtoFieldText>;
  nested?: Record<string, ProtoMessage | ProtoEnum>;
}

/** An enum: value names and numbers. */
export interface ProtoEnum {
  values: Record<string, number>;
}

/** A method's REST mapping (`google.api.http`): the verb, the path template, the body field. */
export interface HttpRule {
  method: "get" | "post" | "put" | "patch" | "delete";
  /** The path template, e.g. `/iam/v2beta1/groups/{group.uid=**}`. */
  path: string;
  /** `*` (the whole request), a request field name, or absent (no body). */
  body?: string;
}

/**
 * One method. A method irv-server serves names its request and response messages; one it does not
 * serve has only its mapping (it answers UNIMPLEMENTED, naming it).
 */
export type ProtoMethod = { request: string; response: string; http: HttpRule; served?: true } | { http?: HttpRule; served: false };

/** The REST mapping of a method as the catalog (catalog.ts) writes it: `post /x body=*`, "" for none. */
export const ruleText = (m: ProtoMethod): string => (m.http ? `${m.http.method} ${m.http.path}${m.http.body ? ` body=${m.http.body}` : ""}` : "");

/** The REST mapping a catalog text (`post /x body=*`, see ruleText) writes; undefined for "" (none). */
export function httpRuleOf(text: string): HttpRule | undefined {
  if (text === "") return undefined;
  const [method, path, body] = text.split(" ");
  return { method: method as HttpRule["method"], path, ...(body ? { body: body.slice("body=".length) } : {}) };
}

/** A service: its methods by name. */
export interface ProtoService {
  methods: Record<string, ProtoMethod>;
  /** Where irv-server serves the mappings' paths, when not at its root (the token exchange: `/auth`). */
  restPrefix?: string;
}

/** One proto package. */
export interface ProtoPackage {
  /** e.g. `chainguard.platform.iam.v2beta1`. */
  package: string;
  messages?: Record<string, ProtoMessage>;
  enums?: Record<string, ProtoEnum>;
  services?: Record<string, ProtoService>;
}

/** A parsed field. */
export interface ParsedField {
  number: number;
  type: string;
  rule?: "repeated" | "optional";
  keyType?: string;
  json?: string;
  oneof?: string;
}

/** Parses a field's text; throws naming the field when it is malformed. */
export function parseField(name: string, text: ProtoFieldText): ParsedField {
  const [head, ...options] = text.trim().split(/\s+(?=\w+=)/);
  const m = /^(\d+)\s+(?:(repeated|optional)\s+)?(?:map<\s*(\w+)\s*,\s*([\w.]+)\s*>|([\w.]+))$/.exec(head);
  if (!m) throw new Error(`field ${name}: cannot read "${text}"`);
  const out: ParsedField = { number: Number(m[1]), type: m[4] ?? m[5] };
  if (m[2]) out.rule = m[2] as ParsedField["rule"];
  if (m[3]) out.keyType = m[3];
  for (const o of options) {
    const [k, v] = o.split("=");
    if (k === "json") out.json = v;
    else if (k === "oneof") out.oneof = v;
    else throw new Error(`field ${name}: unknown option ${o}`);
  }
  return out;
}

/** protojson's JSON name of a proto field name: `create_time` -> `createTime`. */
export function jsonName(protoName: string): string {
  return protoName.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** Whether `f` is an enum. */
export const isEnum = (f: ProtoMessage | ProtoEnum): f is ProtoEnum => "values" in f;
