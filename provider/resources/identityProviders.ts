import type { identityProviders as definition, InputsOf, OutputsOf } from "../../api/kinds";
import type { dynamic } from "@pulumi/pulumi";
import { parentOf } from "../../api/uid";
import { findCreated } from "./create";
import { providerFor } from "./provider";
import { type CommonInputs, type KindSpec } from "./spec";
import { factsOf } from "./facts";

/** Inputs of an IdentityProvider, as its definition (api/kinds) types them. */
export type IdentityProviderInputs = CommonInputs & InputsOf<typeof definition>;
/** Outputs of an IdentityProvider: the inputs as they are live, and the API's fields. */
export type IdentityProviderOutputs = CommonInputs & OutputsOf<typeof definition>;

const spec: KindSpec<"identityProviders"> = {
  ...factsOf("identityProviders"),
  updateBody(i, mask) {
    const tops = new Set(mask.map((m) => m.split(".")[0]));
    const body: Record<string, unknown> = {};
    if (tops.has("name")) body.name = i.name;
    if (tops.has("description")) body.description = i.description ?? "";
    if (tops.has("defaultRole")) body.defaultRole = i.defaultRoleUid;
    if (tops.has("oidc") && i.oidc) {
      const { clientSecret, ...rest } = i.oidc;
      // The secret travels only when the mask names it: an update never re-sends it needlessly.
      body.oidc = mask.includes("oidc") || mask.includes("oidc.clientSecret") ? { ...rest, clientSecret } : rest;
    }
    return body;
  },
  outputs: (p, prior) => ({
    uid: p.uid,
    groupUid: parentOf(p.uid) ?? null,
    name: p.name,
    description: p.description,
    defaultRoleUid: p.defaultRole,
    oidc: {
      issuer: p.oidc.issuer,
      clientId: p.oidc.clientId,
      additionalScopes: p.oidc.additionalScopes,
      // Write-only on the API: the value the program set, never read back.
      clientSecret: prior.oidc?.clientSecret,
    },
    createTime: p.createTime,
    updateTime: p.updateTime,
  }),
  adoptAlwaysMask: (i) => (i.oidc?.clientSecret ? ["oidc.clientSecret"] : []),
  recover: (client, i, since, deadline) =>
    findCreated(client, "identityProviders", { "uidp.children_of": i.groupUid, name: i.name }, (p) => p.name === i.name && parentOf(p.uid) === i.groupUid, since, deadline),
};

/** The dynamic provider of `iam.IdentityProvider`. */
export const identityProviders = providerFor<"identityProviders", IdentityProviderInputs, IdentityProviderOutputs>(spec) satisfies dynamic.ResourceProvider<IdentityProviderInputs, IdentityProviderOutputs>;
/** The kind's spec. */
export const identityProviderSpec = spec;
