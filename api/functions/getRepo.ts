import { z } from "zod";
import { defineFunction, text } from "./definition";
import { Repo } from "./results";

export const getRepo = defineFunction({
  module: "registry",
  name: "getRepo",
  description: "One image repository: by uid, or by exact name (optionally under a group). Fails on zero or several matches; a private one needs credentials.",
  args: z.strictObject({
    uid: text("The repository's uid."),
    name: text("The repository's exact name."),
    groupUid: text("Search under this group and its descendants."),
  }),
  result: { object: Repo },
});
