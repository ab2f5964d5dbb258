/**
 * The part of a provider spec that is fact, not behaviour, read from the kind's definition
 * (api/kinds): collection, label, parent field, the declared inputs and how each diffs, the
 * create body check runs, and the outputs of an item: every field the API returns, the parent
 * from the uid.
 */
import { createBodyOf, definitionOf, fieldEntries, readBack, wireNameOf, writeOnlyMemberPaths, type Kind, type KindDefinition } from "../../api/kinds";
import { once } from "../../api/once";
import { parentOf } from "../../api/uid";
import type { Item } from "../../client/shapes";
import type { Operation } from "./context";
import { findCreated } from "./create";
import { derivedFrom, type FieldSpec, type Inputs, type KindSpec, type Outputs, type Prior, type Rec, type Unchecked } from "./spec";
import { isRecord } from "./values";

/** The spec's facts for `kind`; `parentOfItem` when the parent is not the uid's parent. */
export function factsOf<K extends Kind>(kind: K, parentOfItem: (item: Pick<Item<K>, "uid">) => string | undefined = (x) => parentOf(x.uid)) {
  const d: KindDefinition = definitionOf(kind);
  const fields: Record<string, FieldSpec> = {};
  for (const [name, f] of fieldEntries(d.fields))
    if (f.input)
      fields[name] = {
        replace: f.replace,
        default: f.default,
        block: f.block,
        computedWhenOmitted: f.computedWhenOmitted,
        computedMembers: f.computedMembers,
        wire: wireNameOf(name, f),
        codec: f.codec,
        ...(f.part && f.schema && { part: { ...f.part, schema: f.schema } }),
      };
  /** An item of the kind's (or the inputs'), read by name: what the rules below walk, whichever the kind. */
  const byName = (v: Rec): Rec => v;
  const facts = {
    collection: kind,
    label: d.label,
    parentField: d.parentField,
    fields,
    createSchema: once(() => createBodyOf(d)),
    writeOnlyInputs: writeOnlyMemberPaths(d),
    parentOf: (item: Pick<Item<K>, "uid">): string => parentOfItem(item) ?? "",
    /** The create body: every input but the parent (which is in the path) and the parts (written apart), by its wire name, as the wire has it. */
    createBody: (i: Unchecked<Inputs<K>>): Rec => {
      const inputs = byName(i);
      return Object.fromEntries(
        Object.entries(fields)
          .filter(([name, f]) => name !== d.parentField && !f.part)
          .map(([name, f]) => [f.wire, f.codec && inputs[name] !== undefined ? f.codec.toWire(inputs[name]) : inputs[name]]),
      );
    },
    /**
     * After a create lost its response, the item of the inputs' name under their parent created
     * since (a kind whose names are not unique under a parent says otherwise in its spec).
     */
    recover: (ctx: Operation, inputs: Inputs<K>, since: number) => {
      const i = byName(inputs);
      const parent = String(i[d.parentField]);
      return findCreated(
        ctx,
        kind,
        { "uidp.children_of": parent, name: String(i.name) },
        (x) => byName(x).name === i.name && parentOfItem(x) === parent,
        since,
      );
    },
    /**
     * Outputs of an item: uid, the parent, then each field the API returns, by its wire name. A
     * write-only value, which the API does not return (or only create does), is the one `prior`
     * (the inputs or the old outputs) holds: the program's, never read back.
     */
    outputs: (x: Item<K>, p: Prior<K>): Outputs<K> => {
      const item = byName(x);
      const prior = byName(p);
      const read = readBack(kind, item);
      const out: Rec = { uid: item.uid, [d.parentField]: parentOfItem(x) ?? null };
      for (const [name, f] of fieldEntries(d.fields)) {
        if (name === d.parentField) continue;
        if (f.writeOnly) out[name] = item[wireNameOf(name, f)] ?? prior[name] ?? (f.type.includes("null") ? null : undefined);
        // A part the provider read is on the item (./parts.ts); one it did not read is the prior value.
        else if (f.part) out[name] = wireNameOf(name, f) in item ? item[wireNameOf(name, f)] : prior[name];
        else if (f.writeOnlyMembers && isRecord(read[name]))
          out[name] = { ...read[name], ...Object.fromEntries(f.writeOnlyMembers.map((m) => [m, member(prior[name], m)])) };
        else out[name] = read[name];
      }
      return derivedFrom<Outputs<K>>(d, out);
    },
  };
  return facts satisfies Partial<KindSpec<K>>;
}

/** Member `m` of `v` when `v` is a block (a record), else undefined. */
const member = (v: unknown, m: string): unknown => (isRecord(v) ? v[m] : undefined);
