import type { tags as definition, InputsOf, OutputsOf } from "../../api/kinds";
import { HIDDEN_TAGS } from "../../api/registry";
import { findCreated } from "./create";
import { providerFor } from "./provider";
import { type CommonInputs, type KindSpec } from "./spec";
import { factsOf } from "./facts";

/** Inputs of a Tag, as its definition (api/kinds) types them. */
export type TagInputs = CommonInputs & InputsOf<typeof definition>;
/** Outputs of a Tag: the inputs as they are live, and the API's fields. */
export type TagOutputs = CommonInputs & OutputsOf<typeof definition>;

/** Every tag form a List hides unless asked for (referrers, dated and epoch tags). */
const EVERY_FORM = Object.fromEntries(Object.keys(HIDDEN_TAGS).map((flag) => [flag, "true"]));

const spec: KindSpec<"tags"> = {
  ...factsOf("tags"),
  // A tag's name is unique in its repo and Create moves the one there: what a lost create made is
  // the tag of that name pointing at the digest, whatever its form (tags carry no creation time).
  recover: (client, i, _since, call) =>
    findCreated(
      client,
      "tags",
      { "uidp.children_of": i.repoUid as string, name: i.name as string, ...EVERY_FORM },
      (t) => t.name === i.name && t.digest === i.digest,
      0,
      call,
    ),
};

/** The provider of `registry.Tag`. */
export const tags = providerFor<"tags", TagInputs, TagOutputs>(spec);
/** The kind's spec. */
export const tagSpec = spec;
