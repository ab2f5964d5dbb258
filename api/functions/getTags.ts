import { z } from "zod";
import { defineFunction, listArgs, text } from "./definition";
import { Tag } from "./results";

export const getTags = defineFunction({
  module: "registry",
  name: "getTags",
  description: "The tags matching the filters (usually those of one repository), every page followed.",
  args: z.strictObject({
    ...listArgs,
    repoUid: text("The repository whose tags to list."),
    name: text("Exact tag name."),
    digest: text("Exact digest."),
    updatedSince: text("Only tags updated at or after this time (RFC 3339)."),
  }),
  result: { list: "tags", description: "The matching tags.", of: Tag },
});
