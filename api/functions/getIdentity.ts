import { z } from "zod";
import { defineFunction, text } from "./definition";
import { IdentityResult } from "./results";

export const getIdentity = defineFunction({
  module: "iam",
  name: "getIdentity",
  description: "One identity: by uid, or by the issuer and subject its claimMatch accepts (and/or its name). Fails on zero or several matches.",
  args: z.strictObject({
    uid: text("The identity's uid."),
    issuer: text("The claimMatch issuer (exact)."),
    subject: text("The claimMatch subject (exact)."),
    groupUid: text("Search only under this group (and its descendants)."),
    name: text("The identity's exact name."),
  }),
  result: { object: IdentityResult },
});
