/**
 * The seven IAM kinds' messages and enums, derived from each kind's definition (api/kinds): its
 * message's fields with their numbers, proto names and types, and the messages and enums its
 * fields name (nested where their dotted names put them, as proto nests them).
 */
import { KINDS, type KindDefinition } from "../kinds";
import { protoNameOf, snakeOf, type ProtoField } from "../kinds/definition";
import type { ProtoEnum, ProtoFieldText, ProtoMessage } from "./proto";

/** A field's proto text, as `parseField` reads it. */
function fieldText(f: ProtoField): ProtoFieldText {
  const type = f.keyType ? `map<${f.keyType},${f.type}>` : f.type;
  return `${f.number} ${f.repeated ? "repeated " : ""}${type}${f.oneof ? ` oneof=${f.oneof}` : ""}`;
}

/** The messages and enums of every kind, for its package. */
function kindsPackage(kinds: readonly KindDefinition[]): { messages: Record<string, ProtoMessage>; enums: Record<string, ProtoEnum> } {
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
    const fields: Record<string, ProtoFieldText> = { uid: `${d.proto.uid} string` };
    for (const [name, f] of Object.entries(d.fields)) if (f.proto) fields[protoNameOf(name, f)] = fieldText(f.proto);
    place(d.proto.message, { fields });
  }
  for (const d of kinds) {
    // Outer messages first, so each nested one finds its place.
    const inner = [...(d.proto.messages ?? [])].sort((a, b) => a.name.split(".").length - b.name.split(".").length);
    for (const m of inner)
      place(m.name, { fields: Object.fromEntries(Object.entries(m.fields).map(([k, f]) => [f.name ?? snakeOf(k), fieldText(f)])) });
    for (const e of d.proto.enums ?? []) place(e.name, { values: e.values });
  }
  return { messages, enums };
}

/** The kinds' messages and enums (all in the IAM v2beta1 package). */
export const KIND_FACTS = kindsPackage(KINDS as readonly KindDefinition[]);
