import { common, defineKind } from "./definition";

// Whole blocks in update masks: the API replaces a cloud block as a unit (its update body is strict).
const block = (cloud: string) => ({ type: `AccountBlock<"${cloud}">`, description: `The group's ${cloud} accounts.`, input: true });

export const accountAssociations = defineKind({
  kind: "accountAssociations",
  className: "AccountAssociation",
  label: "account association",
  parentField: "groupUid",
  capability: "account_associations",
  fields: {
    groupUid: common.groupUid("The group (one association per group; its uid is the group's)."),
    name: common.name("The association's name."),
    description: common.description,
    amazon: block("amazon"),
    google: block("google"),
    azure: block("azure"),
    chainguard: block("chainguard"),
    github: block("github"),
    createTime: common.createTime,
    updateTime: common.updateTime,
  },
});
