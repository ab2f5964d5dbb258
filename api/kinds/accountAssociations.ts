import { z } from "zod";
import * as f from "../fields";
import { common, numbered, text } from "./common";
import { lazyTable, once } from "../once";
import { defineKind, IAM_PACKAGE, type ProtoField } from "./definition";

/** What makes each cloud's block as requests carry it. */
const blockRules = {
  amazon: () =>
    z
      .strictObject({ account: f.awsAccount().describe("The AWS account id: 12 digits.") })
      .meta({ id: "AccountAssociationAmazon", description: "The group's AWS account." }),
  google: () =>
    z
      .strictObject({
        // The platform checks neither (the protos say required; its gateway takes any string).
        projectId: f.required().describe("The Google Cloud project id."),
        projectNumber: f.required().describe("The Google Cloud project number."),
      })
      .meta({ id: "AccountAssociationGoogle", description: "The group's Google Cloud project." }),
  azure: () =>
    z
      .strictObject({
        // Not checked as UUIDs: the platform takes `10000000-0000-0000-0000-000000000000`, which is none.
        tenantId: f.required().describe("The Azure tenant id (Microsoft Entra ID)."),
        clientIds: f.map(f.required()).describe("Azure client ids (application ids) by component name."),
      })
      .meta({ id: "AccountAssociationAzure", description: "The group's Azure tenant and clients." }),
  chainguard: () =>
    z
      .strictObject({ serviceBindings: f.map(f.uid()).describe("Platform service bindings: a name to a uid.") })
      .meta({ id: "AccountAssociationChainguard", description: "The group's Chainguard service bindings." }),
  github: () =>
    z
      .strictObject({
        appInstallations: f
          .map(
            z
              .strictObject({
                installations: z
                  .array(
                    z
                      .strictObject({
                        installationId: f.int64Digits("installation id").describe("The installation id (digits; an int64 on the API)."),
                        name: z.string().optional().describe("A name for it."),
                      })
                      .meta({ id: "AccountAssociationGithubInstallation", description: "A GitHub App installation." }),
                  )
                  .describe("The app's installations."),
              })
              .meta({ id: "AccountAssociationGithubAppInstallations", description: "One GitHub App's installations." }),
          )
          .superRefine((m, ctx) => {
            for (const k of Object.keys(m)) {
              if (!/^\d+$/.test(k)) ctx.addIssue({ code: "custom", path: [k], message: "must be a GitHub App id (digits)" });
              else if (!f.fitsInt64(k)) ctx.addIssue({ code: "custom", path: [k], message: f.INT64_TOO_LARGE });
            }
          })
          .describe("The installations of each GitHub App, by the app's id (digits)."),
      })
      .meta({ id: "AccountAssociationGithub", description: "The group's GitHub App installations, by app id." }),
};
export const ACCOUNT_BLOCKS = Object.keys(blockRules) as (keyof typeof blockRules)[];
/** Each cloud's block as requests carry it, each built on its first read. */
export const AccountBlocks = lazyTable(blockRules);
export type AccountBlock<K extends keyof typeof AccountBlocks> = z.infer<(typeof AccountBlocks)[K]>;

/** The blocks as returned: their members, none of their rules. */
const read = once(() => ({
  amazon: z.looseObject({ account: z.string() }),
  google: z.looseObject({ projectId: z.string(), projectNumber: z.string() }),
  azure: z.looseObject({ tenantId: z.string(), clientIds: z.record(z.string(), z.string()) }),
  chainguard: z.looseObject({ serviceBindings: z.record(z.string(), z.string()) }),
  github: z.looseObject({
    appInstallations: z
      .record(z.string(), z.looseObject({ installations: z.array(z.looseObject({ installationId: z.string(), name: text() })).default([]) }))
      .default({}),
  }),
}));

/** Each block's field number and message in `AccountAssociation`. */
const BLOCK_PROTO = {
  amazon: { number: 4, type: "AccountAssociation.Amazon" },
  google: { number: 5, type: "AccountAssociation.Google" },
  chainguard: { number: 7, type: "AccountAssociation.Chainguard" },
  azure: { number: 8, type: "AccountAssociation.Azure" },
  github: { number: 11, type: "AccountAssociation.GitHub" },
} as const satisfies Record<keyof typeof AccountBlocks, ProtoField>;

const req = (number: number, type = "string"): ProtoField => ({ number, type, behavior: ["REQUIRED"] });

// Whole blocks in update masks: the API replaces a cloud block as a unit (its update body is strict).
const block = <C extends keyof typeof AccountBlocks>(cloud: C) =>
  ({
    type: `AccountBlock<"${cloud}">`,
    description: `The group's ${cloud} accounts.`,
    input: true,
    proto: BLOCK_PROTO[cloud],
    schema: AccountBlocks[cloud].optional(),
    read: read()[cloud].optional(),
  }) as const;

/** One association per group: its uid is the group's. */
export const accountAssociations = defineKind({
  kind: "accountAssociations",
  module: "iam",
  className: "AccountAssociation",
  label: "account association",
  description: "The cloud and source accounts associated with a group.",
  parentField: "groupUid",
  proto: {
    package: IAM_PACKAGE,
    service: "AccountAssociationsService",
    message: "AccountAssociation",
    uid: 1,
    list: { filters: { name: { number: 2, type: "string" } }, paging: [3, 4, 5, 6] },
    messages: [
      { name: "AccountAssociation.Amazon", fields: { account: req(1) } },
      { name: "AccountAssociation.Google", fields: { projectId: req(1), projectNumber: req(2) } },
      { name: "AccountAssociation.GitHub", fields: { appInstallations: { number: 2, type: "AccountAssociation.GitHubAppInstallations", keyType: "int64" } } },
      {
        name: "AccountAssociation.GitHubAppInstallations",
        fields: { installations: { number: 1, type: "AccountAssociation.GitHubInstallation", repeated: true } },
      },
      { name: "AccountAssociation.GitHubInstallation", fields: { installationId: req(1, "int64"), name: { number: 2, type: "string" } } },
      { name: "AccountAssociation.Chainguard", fields: { serviceBindings: { number: 1, type: "string", keyType: "string", behavior: ["REQUIRED"] } } },
      { name: "AccountAssociation.Azure", fields: { tenantId: req(1), clientIds: { number: 2, type: "string", keyType: "string", behavior: ["REQUIRED"] } } },
    ],
  },
  defaultOrder: "group",
  deleteBeforeReplace: true,
  capability: "account_associations",
  events: {
    created: "dev.chainguard.api.iam.account_associations.created.v1",
    updated: "dev.chainguard.api.iam.account_associations.updated.v1",
    deleted: "dev.chainguard.api.iam.account_associations.deleted.v1",
    group: "self",
  },
  example: {
    name: "accounts",
    inputs: {
      groupUid: "${group}",
      name: "accounts",
      amazon: { account: "123456789012" },
      github: { appInstallations: { "123456": { installations: [{ installationId: "12345678", name: "acme" }] } } },
    },
    notes: ["A group has at most one account association, so its uid is the group's uid; a replacement deletes the old one first."],
    importNotes: ["Import it by its group's uid."],
  },
  fields: () => ({
    groupUid: common.groupUid("The group (one association per group; its uid is the group's)."),
    name: common.name("The association's name.", 2),
    description: numbered.description(3),
    amazon: block("amazon"),
    google: block("google"),
    azure: block("azure"),
    chainguard: block("chainguard"),
    github: block("github"),
    createTime: numbered.createTime(9),
    updateTime: numbered.updateTime(10),
  }),
});
