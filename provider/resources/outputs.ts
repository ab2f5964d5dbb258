/** The outputs and the read-back inputs of an item, as the engine stores them. */
import type { CollectionName } from "../../api/collections";
import type { Item } from "../../client/shapes";
import type { KindSpec, Rec } from "./spec";
import { clean, same, withoutEmpty } from "./values";

/** The outputs for an item: the kind's outputs plus adoptUid, with no undefined. */
export function outputsFor<C extends CollectionName>(spec: KindSpec<C>, item: Item<C>, prior: Rec): Rec {
  return clean({ ...spec.outputs(item, prior), adoptUid: prior.adoptUid });
}

/**
 * The inputs `read` reports: the declared fields of the live outputs, without the API's empty
 * defaults (an omitted description reads back as ""), which equal an omitted input in diff and
 * would otherwise show as `+description` on refresh and `- description: ""` in the next preview.
 */
export function inputsOf<C extends CollectionName>(spec: KindSpec<C>, outs: Rec): Rec {
  const picked: Rec = Object.fromEntries(Object.keys(spec.fields).map((k) => [k, outs[k]]));
  for (const [k, fs] of Object.entries(spec.fields)) if (fs.default !== undefined && same(picked[k], fs.default)) delete picked[k];
  return clean({ ...withoutEmpty(picked), adoptUid: outs.adoptUid });
}
