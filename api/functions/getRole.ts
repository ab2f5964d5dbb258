import { z } from "zod";
import { defineFunction, text } from "./definition";
import { RoleResult } from "./results";

export const getRole = defineFunction({
  module: "iam",
  name: "getRole",
  description:
    "One role: by uid, or by exact name (built-ins such as `viewer` included). Without `groupUid`, a name shared by a built-in and custom roles resolves to the built-in; otherwise several matches fail.",
  args: z.strictObject({
    uid: text("The role's uid."),
    name: text("The role's exact name."),
    groupUid: text("Only the custom role in this group (built-ins live at the root and have no group)."),
  }),
  result: { object: RoleResult },
});
