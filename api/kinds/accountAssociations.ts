import { defineKind } from "./definition";

// Whole blocks in update masks: the API replaces a cloud block as a unit (its update body is strict).
const block = (cloud: string) => ({ type: `AccountBlock<"${cloud}">`, description: `The group's ${cloud} accounts.`, input: true });

export const accountAssociations = defineKind({
  kind: "accountAssociations",
  className: "AccountAssociation",
  label: "account association",
  parentField: "groupUid",
  capability: "account_associations",
  fields: {
    groupUid: { type: "string", description: "The group (one association per group; its uid is the group's).", input: true, replace: true, refersTo: "groups" },
    name: { type: "string", description: "The association's name.", input: true },
    description: { type: "string", description: "Free text.", input: true, default: "" },
    amazon: block("amazon"),
    google: block("google"),
    azure: block("azure"),
    chainguard: block("chainguard"),
    github: block("github"),
    createTime: { type: "string", description: "When it was created (RFC 3339)." },
    updateTime: { type: "string", description: "When it last changed (RFC 3339)." },
  },
});
