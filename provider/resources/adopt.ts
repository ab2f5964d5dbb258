/** Adoption: `create` with `adoptUid` takes over an existing resource instead of making one. */
import type { Kind } from "../../api/kinds";
import { NotFoundError } from "../../client/errors";
import type { Item } from "../../client/shapes";
import { changesOf, updateBody } from "./diff";
import { outputsFor } from "./outputs";
import { partsGiven, splitMask, writeParts } from "./parts";
import type { Operation } from "./context";
import type { Inputs, KindSpec, Outputs, Rec } from "./spec";

/** Takes over `uid`, the inputs' `adoptUid`: checks it exists and matches, then PATCHes it to the inputs. */
export async function adopt<K extends Kind>(ctx: Operation, spec: KindSpec<K>, ins: Inputs<K>, uid: string): Promise<{ id: string; outs: Outputs<K> }> {
  const byName: Rec = ins;
  let item: Item<K>;
  try {
    item = await ctx.client().get(spec.collection, uid, ctx.call);
  } catch (e) {
    if (e instanceof NotFoundError) throw new Error(`adoptUid ${uid}: no ${spec.label} with this uid exists (or the caller cannot see it)`);
    throw e;
  }
  const parent = spec.parentOf(item);
  if (parent !== byName[spec.parentField])
    throw new Error(`adoptUid ${uid}: this ${spec.label} belongs to ${parent}, but ${spec.parentField} is ${String(byName[spec.parentField])}`);
  const mismatch = spec.adoptMismatch?.(item, ins);
  if (mismatch) throw new Error(`adoptUid ${uid}: ${mismatch}`);
  // Write-only values (a secret, an invite's ttl) cannot be read: take them from the inputs, and
  // let adoptAlwaysMask send what must be set anyway.
  const live = spec.outputs(item, ins);
  const c = changesOf(spec, live, ins);
  if (c.replaces.length)
    throw new Error(`adoptUid ${uid}: ${c.replaces.join(", ")} of the existing ${spec.label} differ from the inputs and cannot change in place`);
  const mask = [...new Set([...c.mask, ...(spec.adoptAlwaysMask?.(ins) ?? [])])];
  // Parts the inputs give are written whatever the live ones hold: adoption does not read them.
  const { item: itemMask } = splitMask(spec, mask);
  const updated = itemMask.length ? await ctx.client().update(spec.collection, uid, updateBody(spec, ins, itemMask), itemMask, ctx.call) : item;
  const final = await writeParts(ctx, spec, updated, ins, partsGiven(spec, ins));
  return { id: final.uid, outs: outputsFor(spec, final, ins) };
}
