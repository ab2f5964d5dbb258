/**
 * The kinds' services, messages and enums, derived from each kind's definition (api/kinds), per
 * proto package: the kind's message with its fields' numbers, proto names and types, the messages
 * and enums its fields name (nested where their dotted names put them, as proto nests them), and
 * its service, whose Get, List, Create, Update and Delete follow one pattern on every package of
 * the platform (`crud`). A package's own file (iam.ts, events.ts) adds what the pattern lacks.
 */
import { COLLECTIONS } from "../collections";
import { KINDS, pluralOf, type Kind, type KindDefinition } from "../kinds";
import type { ProtoField } from "../kinds/definition";
import { protoNameOf, snakeOf } from "../kinds/naming";
import type { HttpRule, ProtoEnum, ProtoFieldText, ProtoMessage, ProtoMethod, ProtoPackage, ProtoService } from "./proto";

/** A field's proto text, as `parseField` reads it. */
function fieldText(f: ProtoField): ProtoFieldText {
  const type = f.keyType ? `map<${f.keyType},${f.type}>` : f.type;
  return `${f.number} ${f.repeated ? "repeated " : f.optional ? "optional " : ""}${type}${f.oneof ? ` oneof=${f.oneof}` : ""}${f.json ? ` json=${f.json}` : ""}`;
}

const snake = (s: string) => s.replace(/(?<!^)[A-Z]/g, (c) => `_${c}`).toLowerCase();

/** A kind's service and request messages, as the platform's protos lay them out for every kind. */
function crud(d: KindDefinition): { service: ProtoService; messages: Record<string, ProtoMessage> } {
  const M = d.proto.message;
  const plural = pluralOf(M);
  const path = COLLECTIONS[d.kind as Kind].path;
  const field = snake(M);
  const methods: Record<string, ProtoMethod> = {
    [`Get${M}`]: { request: `Get${M}Request`, response: M, http: { method: "get", path: `${path}/{uid=**}` } },
    [`List${plural}`]: { request: `List${plural}Request`, response: `List${plural}Response`, http: { method: "get", path } },
    [`Create${M}`]: { request: `Create${M}Request`, response: M, http: { method: "post", path: `${path}/{parent=**}`, body: field } },
    [`Update${M}`]: { request: `Update${M}Request`, response: M, http: { method: "patch", path: `${path}/{${field}.uid=**}`, body: field } },
    [`Delete${M}`]: { request: `Delete${M}Request`, response: "google.protobuf.Empty", http: { method: "delete", path: `${path}/{uid=**}` } },
  };
  const list = d.proto.list;
  if (!list) throw new Error(`${d.proto.message}: a kind the pattern serves has a List`);
  const [size, token, order, skip] = list.paging;
  const filters = Object.fromEntries(Object.entries(list.filters).map(([k, f]) => [k, fieldText(f)]));
  const messages: Record<string, ProtoMessage> = {
    [`Get${M}Request`]: { fields: { uid: "1 string" } },
    [`Delete${M}Request`]: { fields: { uid: "1 string" } },
    [`Create${M}Request`]: { fields: { parent: "1 string", [field]: `2 ${M}` } },
    [`Update${M}Request`]: { fields: { [field]: `1 ${M}`, update_mask: "2 google.protobuf.FieldMask" } },
    [`List${plural}Request`]: {
      fields: {
        uidp: "1 chainguard.platform.common.UIDPFilter",
        ...filters,
        page_size: `${size} int32`,
        page_token: `${token} string`,
        order_by: `${order} string`,
        skip: `${skip} int32`,
      },
    },
    [`List${plural}Response`]: {
      fields: { [snake(plural)]: `1 repeated ${M}`, next_page_token: "2 string", total_count: "3 optional int64", skipped: "4 int32" },
    },
  };
  if (d.proto.noUpdate) {
    delete methods[`Update${M}`];
    delete messages[`Update${M}Request`];
  }
  return { service: { methods }, messages };
}

/** The messages and enums of `kinds` (of one package). */
export function kindFacts(kinds: readonly KindDefinition[]): { messages: Record<string, ProtoMessage>; enums: Record<string, ProtoEnum> } {
  const messages: Record<string, ProtoMessage> = {};
  const enums: Record<string, ProtoEnum> = {};
  /** Puts `facts` at its dotted name: `Identity.ClaimMatch` inside `Identity`. */
  const place = (name: string, facts: ProtoMessage | ProtoEnum) => {
    const path = name.split(".");
    const last = path.pop()!;
    if (path.length === 0) {
      if ("values" in facts) enums[last] = facts;
      else messages[last] = facts;
      return;
    }
    let outer = messages[path[0]];
    for (const p of path.slice(1)) outer = outer?.nested?.[p] as ProtoMessage;
    if (!outer) throw new Error(`${name}: its enclosing message is not described`);
    (outer.nested ??= {})[last] = facts;
  };
  for (const d of kinds) {
    const fields: Record<string, ProtoFieldText> = { [d.proto.uidName ?? "uid"]: `${d.proto.uid} string` };
    for (const [name, f] of Object.entries(d.fields)) if (f.proto) fields[protoNameOf(name, f)] = fieldText(f.proto);
    place(d.proto.message, { fields });
  }
  for (const d of kinds) {
    // Outer messages first, so each nested one finds its place.
    const inner = [...(d.proto.messages ?? [])].sort((a, b) => a.name.split(".").length - b.name.split(".").length);
    for (const m of inner) place(m.name, { fields: Object.fromEntries(Object.entries(m.fields).map(([k, f]) => [f.name ?? snakeOf(k), fieldText(f)])) });
    for (const e of d.proto.enums ?? []) place(e.name, { values: e.values });
  }
  return { messages, enums };
}

/** What a package's own file adds to its kinds': methods the pattern lacks (by service), messages, enums. */
export interface PackageExtras {
  methods?: Record<string, Record<string, ProtoMethod>>;
  messages?: Record<string, ProtoMessage>;
  enums?: Record<string, ProtoEnum>;
}

/**
 * The proto package `name` as its kinds make it (every kind whose definition names the package),
 * with `extras`. A service `extras` names that no kind of the package has is an error: it would
 * describe a kind that is not defined.
 */
export function kindsPackage(name: string, extras: PackageExtras = {}): ProtoPackage {
  const kinds = (KINDS as readonly KindDefinition[]).filter((d) => d.proto.package === name);
  const derived = kinds.map(crud);
  const services: Record<string, ProtoService> = Object.fromEntries(kinds.map((d, i) => [d.proto.service, derived[i].service]));
  for (const [service, methods] of Object.entries(extras.methods ?? {})) {
    if (!services[service]) throw new Error(`${name}.${service}: no kind of the package is served by it`);
    services[service] = { methods: { ...services[service].methods, ...methods } };
  }
  const facts = kindFacts(kinds);
  return {
    package: name,
    services,
    messages: { ...Object.assign({}, ...derived.map((k) => k.messages)), ...facts.messages, ...extras.messages },
    enums: { ...facts.enums, ...extras.enums },
  };
}

/** A method irv-server does not serve: its REST mapping only (it answers UNIMPLEMENTED). */
export const notServed = (method: HttpRule["method"], path: string, body?: string): ProtoMethod => ({
  served: false,
  http: { method, path, ...(body ? { body } : {}) },
});
