import { type Inputs, type Outputs, type KindSpec } from "./spec";
import { factsOf } from "./facts";
import { containsUnknown, isRecord } from "./values";
import { correlationRuleOf } from "../../api/kinds/identityProviders";

/** Inputs of an IdentityProvider, as its definition (api/kinds) types them. */
export type IdentityProviderInputs = Inputs<"identityProviders">;
/** Outputs of an IdentityProvider: the inputs as they are live, and the API's fields. */
export type IdentityProviderOutputs = Outputs<"identityProviders">;

const spec = (): KindSpec<"identityProviders"> => {
  const facts = factsOf("identityProviders");
  return {
    ...facts,
    /** The masked fields, with an empty description sent as such, and the client secret only when the mask names it. */
    updateBody(i, mask) {
      const tops = new Set(mask.map((m) => m.split(".")[0]));
      const body = Object.fromEntries(Object.entries(facts.createBody(i)).filter(([k]) => tops.has(k)));
      if (tops.has("description")) body.description = i.description ?? "";
      if (isRecord(body.oidc)) {
        const { clientSecret, ...rest } = body.oidc;
        // The secret travels only when the mask names it: an update never re-sends it needlessly.
        body.oidc = mask.includes("oidc") || mask.includes("oidc.clientSecret") ? { ...rest, clientSecret } : rest;
      }
      return body;
    },
    adoptAlwaysMask: (i) => (i.oidc?.clientSecret ? ["oidc.clientSecret"] : []),
    /** The rule that matches a login to a provisioned user is fixed once created (the API refuses a change): another replaces it. */
    extraReplaces: (olds, news) => {
      const rule = (o: unknown) => correlationRuleOf(isRecord(o) ? o.correlationRule : undefined);
      const n = isRecord(news.oidc) ? news.oidc.correlationRule : undefined;
      return !containsUnknown(n) && rule(olds.oidc) !== rule(news.oidc) ? ["oidc"] : [];
    },
  };
};

/** The kind's spec, made on each call (./index.ts `specs` makes it once, on first use). */
export const identityProviderSpec = spec;
