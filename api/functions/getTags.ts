import { z } from "zod";
import { defineFunction, listArgs, text } from "./definition";
import { Tag } from "./results";

const flag = (description: string) => z.boolean().optional().describe(description);

export const getTags = defineFunction({
  module: "registry",
  name: "getTags",
  description:
    "The tags matching the filters (usually those of one repository), every page followed. Referrers, dated and epoch tags are left out unless `includeReferrers`, `includeDates` or `includeEpochs` asks for them, as the API does.",
  args: z.strictObject({
    ...listArgs,
    repoUid: text("The repository whose tags to list."),
    name: text("Exact tag name (a referrer, dated or epoch tag needs its include flag too)."),
    digest: text("Exact digest."),
    updatedSince: text("Only tags updated at or after this time (RFC 3339)."),
    includeReferrers: flag("`include_referrers`: list referrers too (tags of the form `sha256-*`: signatures, attestations, SBOMs)."),
    includeDates: flag("`include_dates`: list dated tags too (`*-20yymmdd`)."),
    includeEpochs: flag("`include_epochs`: list epoch tags too (`*-r[0-9]+`, e.g. `1.2.3-r1`)."),
  }),
  result: { list: "tags", description: "The matching tags.", of: Tag },
});
