import { z } from "zod";
import { defineFunction, text } from "./definition";
import { GroupResult } from "./results";

export const getGroup = defineFunction({
  module: "iam",
  name: "getGroup",
  description: "One group: by uid, or by exact name under a parent (or anywhere visible). Fails on zero or several matches.",
  args: z.strictObject({
    uid: text("The group's uid."),
    name: text("The group's exact name (with `parentUid`, or searched everywhere visible)."),
    parentUid: text("The parent group's uid to search under (direct children)."),
  }),
  result: { object: GroupResult },
});
