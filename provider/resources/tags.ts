import { HIDDEN_TAGS } from "../../api/registry";
import { findCreated } from "./create";
import { type Inputs, type Outputs, type KindSpec } from "./spec";
import { factsOf } from "./facts";

/** Inputs of a Tag, as its definition (api/kinds) types them. */
export type TagInputs = Inputs<"tags">;
/** Outputs of a Tag: the inputs as they are live, and the API's fields. */
export type TagOutputs = Outputs<"tags">;

/** Every tag form a List hides unless asked for (referrers, dated and epoch tags). */
const EVERY_FORM = Object.fromEntries(Object.keys(HIDDEN_TAGS).map((flag) => [flag, "true"]));

const spec = (): KindSpec<"tags"> => ({
  ...factsOf("tags"),
  // A tag's name is unique in its repo and Create moves the one there: what a lost create made is
  // the tag of that name pointing at the digest, whatever its form (tags carry no creation time).
  recover: (ctx, i) =>
    findCreated(ctx, "tags", { "uidp.children_of": i.repoUid, name: i.name, ...EVERY_FORM }, (t) => t.name === i.name && t.digest === i.digest, 0),
});

/** The kind's spec, made on each call (./index.ts `specs` makes it once, on first use). */
export const tagSpec = spec;
