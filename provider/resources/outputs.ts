/** The outputs and the read-back inputs of an item, as the engine stores them. */
import { definitionOf, type Kind } from "../../api/kinds";
import type { Item } from "../../client/shapes";
import { derivedFrom, type Inputs, type KindSpec, type Outputs, type Prior, type Rec } from "./spec";
import { clean, same, withoutEmpty } from "./values";

/** The outputs for an item: the kind's outputs plus adoptUid, with no undefined. */
export function outputsFor<K extends Kind>(spec: KindSpec<K>, item: Item<K>, prior: Prior<K>): Outputs<K> {
  return clean({ ...spec.outputs(item, prior), adoptUid: prior.adoptUid });
}

/**
 * The inputs `read` reports: the declared fields of the live outputs, without the API's empty
 * defaults (an omitted description reads back as ""), which equal an omitted input in diff and
 * would otherwise show as `+description` on refresh and `- description: ""` in the next preview.
 */
export function inputsOf<K extends Kind>(spec: KindSpec<K>, live: Outputs<K>): Inputs<K> {
  const outs: Rec = live;
  const picked: Rec = Object.fromEntries(Object.keys(spec.fields).map((k) => [k, outs[k]]));
  for (const [k, fs] of Object.entries(spec.fields)) if (fs.default !== undefined && same(picked[k], fs.default)) delete picked[k];
  return derivedFrom(definitionOf<Kind>(spec.collection), clean({ ...withoutEmpty(picked), adoptUid: outs.adoptUid }));
}
