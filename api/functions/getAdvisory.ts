import { z } from "zod";
import { defineFunction, text } from "./definition";
import { Advisory } from "./results";

export const getAdvisory = defineFunction({
  module: "vulnerabilities",
  name: "getAdvisory",
  description: "One vulnerability advisory: by uid, or by its advisory id. Fails on zero or several matches.",
  args: z.strictObject({
    uid: text("The advisory's uid."),
    advisoryId: text("Its advisory id, e.g. `CGA-xxxx-xxxx-xxxx`."),
  }),
  result: { object: Advisory },
});
