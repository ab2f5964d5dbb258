import { z } from "zod";
import { defineFunction, listArgs, text } from "./definition";
import { Repo } from "./results";

export const getRepos = defineFunction({
  module: "registry",
  name: "getRepos",
  description: "The image repositories matching the filters (e.g. `descendantsOf` the organization), every page followed. Public ones need no credentials.",
  args: z.strictObject({ ...listArgs, name: text("Exact name.") }),
  result: { list: "repos", description: "The matching repositories.", of: Repo },
});
