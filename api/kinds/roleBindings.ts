import { z } from "zod";
import * as f from "../fields";
import { common, numbered, scalar, named } from "./common";
import { once } from "../once";
import { defineKind, IAM_PACKAGE, outputOnly } from "./definition";
import type { Known } from "./derive";

/** The identity a binding names, hydrated. `issuer`/`subject` are empty unless it has a claimMatch. */
export const boundIdentity = once(() =>
  z
    .looseObject({
      uid: z.string().describe("The identity's uid."),
      name: z.string().describe("The identity's name."),
      description: z.string().default("").describe("The identity's description."),
      subject: z.string().default("").describe("The subject of its claimMatch (empty otherwise)."),
      issuer: z.string().default("").describe("The issuer of its claimMatch (empty otherwise)."),
      email: z.string().default("").describe("Its email, if any."),
    })
    .meta({ id: "BoundIdentity", description: "The identity a role binding names, as the API hydrates it." }),
);
/** A group or role a binding names, hydrated. */
export const boundRef = once(() =>
  z
    .looseObject({
      uid: z.string().describe("Its uid."),
      name: z.string().describe("Its name."),
      description: z.string().default("").describe("Its description."),
    })
    .meta({ id: "BoundRef", description: "A group or role a role binding names, as the API hydrates it." }),
);
/** A group or role a binding names, as the SDK types it. */
export type BoundRef = Known<z.output<ReturnType<typeof boundRef>>>;
/** The identity a binding names, as the SDK types it. */
export type BoundIdentity = Known<z.output<ReturnType<typeof boundIdentity>>>;

const ref = { uid: outputOnly(1), name: outputOnly(2), description: outputOnly(3) };

/** A binding's item hydrates its identity, group and role; it has no `updateTime`. */
export const roleBindings = defineKind({
  kind: "roleBindings",
  module: "iam",
  className: "RoleBinding",
  label: "role binding",
  description: "Grants a role to an identity on a group and everything under it.",
  parentField: "groupUid",
  proto: {
    package: IAM_PACKAGE,
    service: "RoleBindingsService",
    message: "RoleBinding",
    uid: 1,
    list: {
      filters: { identity: { number: 2, type: "string" }, group: { number: 3, type: "string" }, role: { number: 4, type: "string" } },
      paging: [5, 6, 7, 8],
    },
    messages: [
      { name: "RoleBindingIdentity", fields: { ...ref, subject: outputOnly(4), issuer: outputOnly(5), email: outputOnly(6) } },
      { name: "RoleBindingGroup", fields: ref },
      { name: "RoleBindingRole", fields: ref },
    ],
  },
  capability: "role_bindings",
  events: {
    created: "dev.chainguard.api.iam.rolebindings.created.v1",
    updated: "dev.chainguard.api.iam.rolebindings.updated.v1",
    deleted: "dev.chainguard.api.iam.rolebindings.deleted.v1",
  },
  example: {
    name: "release-ci-releaser",
    inputs: { groupUid: "${group}", identityUid: "${identity}", roleUid: "${role}" },
    notes: [
      "The identity and the role update in place; another group replaces the binding.",
      "That the identity and the role exist is checked by the API at `pulumi up`, not at preview.",
    ],
  },
  fields: () => ({
    groupUid: common.groupUid("The group the grant applies to (and everything below it)."),
    identityUid: scalar(
      { number: 6, type: "string" },
      {
        description: "The identity granted the role; changes in place.",
        input: true,
        refersTo: "identities",
        readAt: ["identity", "uid"],
        schema: f.uid(),
      },
    ),
    roleUid: scalar(
      { number: 7, type: "string" },
      {
        description: "The role granted; changes in place.",
        input: true,
        refersTo: "roles",
        readAt: ["role", "uid"],
        schema: f.uid(),
      },
    ),
    identity: named({
      description: "The bound identity as the API hydrates it.",
      proto: { number: 2, type: "RoleBindingIdentity", behavior: ["OUTPUT_ONLY"] },
      read: boundIdentity(),
    }),
    group: named({
      description: "The group as the API hydrates it.",
      proto: { number: 3, type: "RoleBindingGroup", behavior: ["OUTPUT_ONLY"] },
      read: boundRef(),
    }),
    role: named({
      description: "The role as the API hydrates it.",
      proto: { number: 4, type: "RoleBindingRole", behavior: ["OUTPUT_ONLY"] },
      read: boundRef(),
    }),
    createTime: numbered.createTime(5),
  }),
});
