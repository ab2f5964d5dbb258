import { z } from "zod";
import { defineFunction, text } from "./definition";
import { IdentityResult } from "./results";

export const getIdentity = defineFunction({
  module: "iam",
  name: "getIdentity",
  description:
    "One identity: by uid; by the issuer and subject it signs in with, as the platform's lookup finds it (a person, such as `github|<id>` at the platform's issuer, or a workload identity whose claimMatch names exactly both); or by name (under `groupUid`, with `issuer` and `subject` matching its claimMatch). Fails on zero or several matches; with `allowMissing`, none is `found: false` instead. Any other error (the network, a permission) always fails.",
  args: z.strictObject({
    uid: text("The identity's uid."),
    issuer: text(
      "The issuer it signs in with (exact): the platform's is `https://auth.chainguard.dev/` (irv-server's, its `authUrl`); a workload identity's, its claimMatch issuer.",
    ),
    subject: text("The subject it signs in with (exact): `github|<id>` for a person who signs in with GitHub; a workload identity's claimMatch subject."),
    groupUid: text("With `name`: search only under this group (and its descendants)."),
    name: text("The identity's exact name (a workload identity's)."),
    allowMissing: z
      .boolean()
      .optional()
      .describe(
        "Answer `found: false` when no identity matches (a person who never signed in), instead of failing. Errors of the network or of permissions still fail.",
      ),
  }),
  result: { object: IdentityResult },
});
