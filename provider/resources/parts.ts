/**
 * Parts of an item the API keeps apart from it (a repo's README, `FieldDefinition.part`): never
 * in the item's bodies, read with a GET of `<item>/<suffix>` and written with a PATCH of it. A
 * part read or written is put on the item under its wire name, where the outputs take it.
 */
import type { Kind } from "../../api/kinds";
import type { Item } from "../../client/shapes";
import type { Context, Operation } from "./context";
import type { Inputs, KindSpec, Outputs, Rec } from "./spec";

/** The inputs of `spec` that are parts, with their field specs. */
const partsOf = <K extends Kind>(spec: KindSpec<K>) => Object.entries(spec.fields).filter(([, f]) => f.part);

/** `mask` (wire paths) split into what the item's update takes and the parts to write, by input name. */
export function splitMask<K extends Kind>(spec: KindSpec<K>, mask: string[]): { item: string[]; parts: string[] } {
  const parts = partsOf(spec).filter(([, f]) => mask.includes(f.wire));
  const wires = new Set(parts.map(([, f]) => f.wire));
  return { item: mask.filter((p) => !wires.has(p.split(".")[0])), parts: parts.map(([name]) => name) };
}

/** The parts an item's create writes: those the inputs give, other than empty (a new item has none). */
export function partsGiven<K extends Kind>(spec: KindSpec<K>, given: Inputs<K>): string[] {
  const inputs: Rec = given;
  return partsOf(spec)
    .filter(([name]) => typeof inputs[name] === "string" && inputs[name] !== "")
    .map(([name]) => name);
}

/** Writes parts `names` of `item` from `inputs`: the item with what they now hold. */
export async function writeParts<K extends Kind>(ctx: Operation, spec: KindSpec<K>, item: Item<K>, given: Inputs<K>, names: string[]): Promise<Item<K>> {
  const inputs: Rec = given;
  let out = item;
  for (const name of names) {
    const f = spec.fields[name];
    out = { ...out, [f.wire]: await ctx.client().setPartText(spec.collection, item.uid, f.part!.suffix, f.part!.member, String(inputs[name] ?? ""), ctx.call) };
  }
  return out;
}

/**
 * Reads the parts of `item` a resource manages (those `prior`, its old outputs, holds) or, with
 * no prior outputs (an import: no uid), every part: the item with what they hold.
 */
export async function readParts<K extends Kind>(ctx: Context, spec: KindSpec<K>, item: Item<K>, props: Partial<Outputs<K>> | undefined): Promise<Item<K>> {
  const prior: Rec | undefined = props;
  let out = item;
  for (const [name, f] of partsOf(spec))
    if (prior?.uid === undefined || prior[name] !== undefined)
      out = { ...out, [f.wire]: await ctx.client().partText(spec.collection, item.uid, f.part!.suffix, f.part!.member, ctx.call) };
  return out;
}
