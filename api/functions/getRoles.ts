import { z } from "zod";
import { defineFunction, listArgs, text } from "./definition";
import { RoleResult } from "./results";

export const getRoles = defineFunction({
  module: "iam",
  name: "getRoles",
  description: "The roles matching the filters, every page followed.",
  args: z.strictObject({
    ...listArgs,
    name: text("Exact name."),
    groupUid: text("Only custom roles of this group."),
    builtin: z.boolean().optional().describe("Only built-in roles (true) or only custom roles (false)."),
  }),
  result: { list: "roles", description: "The matching roles.", of: RoleResult },
});
