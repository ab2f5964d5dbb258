import { z } from "zod";
import * as f from "../fields";
import { common, defineKind, text } from "./definition";

const digits = (n: string) => z.string().regex(/^\d+$/, `must be a numeric ${n}`);

/** Each cloud's block as requests carry it. */
export const AccountBlocks = {
  amazon: z
    .strictObject({ account: z.string().regex(/^\d{12}$/, "must be a 12-digit AWS account id").describe("The AWS account id: 12 digits.") })
    .meta({ id: "AccountAssociationAmazon", description: "The group's AWS account." }),
  google: z
    .strictObject({
      projectId: z.string().min(1).describe("The Google Cloud project id."),
      projectNumber: digits("project number").describe("The Google Cloud project number (digits)."),
    })
    .meta({ id: "AccountAssociationGoogle", description: "The group's Google Cloud project." }),
  azure: z
    .strictObject({
      tenantId: z.uuid({ message: "must be a UUID" }).describe("The Azure tenant id (a UUID)."),
      clientIds: f.map(z.uuid({ message: "must be a UUID" })).describe("Azure client ids (UUIDs) by name."),
    })
    .meta({ id: "AccountAssociationAzure", description: "The group's Azure tenant and clients." }),
  chainguard: z
    .strictObject({ serviceBindings: f.map(f.uid).describe("Platform service bindings: a name to a uid.") })
    .meta({ id: "AccountAssociationChainguard", description: "The group's Chainguard service bindings." }),
  github: z
    .strictObject({
      installations: z
        .array(
          z
            .strictObject({
              id: digits("installation id").describe("The installation id (digits)."),
              name: z.string().optional().describe("A name for it."),
            })
            .meta({ id: "AccountAssociationGithubInstallation", description: "A GitHub App installation." }),
        )
        .describe("The GitHub App installations."),
    })
    .meta({ id: "AccountAssociationGithub", description: "The group's GitHub App installations." }),
};
export type AccountBlock<K extends keyof typeof AccountBlocks> = z.infer<(typeof AccountBlocks)[K]>;
export const ACCOUNT_BLOCKS = Object.keys(AccountBlocks) as (keyof typeof AccountBlocks)[];

/** The blocks as returned: their members, none of their rules. */
const read = {
  amazon: z.looseObject({ account: z.string() }),
  google: z.looseObject({ projectId: z.string(), projectNumber: z.string() }),
  azure: z.looseObject({ tenantId: z.string(), clientIds: z.record(z.string(), z.string()) }),
  chainguard: z.looseObject({ serviceBindings: z.record(z.string(), z.string()) }),
  github: z.looseObject({ installations: z.array(z.looseObject({ id: z.string(), name: text })) }),
};

// Whole blocks in update masks: the API replaces a cloud block as a unit (its update body is strict).
const block = <C extends keyof typeof AccountBlocks>(cloud: C) =>
  ({
    type: `AccountBlock<"${cloud}">`,
    description: `The group's ${cloud} accounts.`,
    input: true,
    schema: AccountBlocks[cloud].optional(),
    read: read[cloud].optional(),
  }) as const;

/** One association per group: its uid is the group's. */
export const accountAssociations = defineKind({
  kind: "accountAssociations",
  className: "AccountAssociation",
  label: "account association",
  description: "The cloud and source accounts associated with a group.",
  parentField: "groupUid",
  defaultOrder: "group",
  capability: "account_associations",
  example: {
    name: "accounts",
    inputs: { groupUid: "${group}", name: "accounts", amazon: { account: "123456789012" }, github: { installations: [{ id: "12345678", name: "acme" }] } },
    notes: ["A group has at most one account association, so its uid is the group's uid; a replacement deletes the old one first."],
    importNotes: ["Import it by its group's uid."],
  },
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
