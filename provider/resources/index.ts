/** One dynamic provider per resource kind, keyed by kind (the kinds are api/kinds' definitions). */
import type { Kind } from "../../api/kinds";
import { accountAssociations, accountAssociationSpec } from "./accountAssociations";
import { groupInvites, groupInviteSpec } from "./groupInvites";
import { groups, groupSpec } from "./groups";
import { identities, identitySpec } from "./identities";
import { identityProviders, identityProviderSpec } from "./identityProviders";
import { roleBindings, roleBindingSpec } from "./roleBindings";
import { roles, roleSpec } from "./roles";

export * from "./groups";
export * from "./identities";
export * from "./roles";
export * from "./roleBindings";
export * from "./identityProviders";
export * from "./accountAssociations";
export * from "./groupInvites";
export { UNKNOWN } from "./values";
export { changesOf } from "./diff";
export { validate } from "./check";
export { type KindSpec, type CommonInputs } from "./spec";

/** The provider of each kind. */
export const providers = {
  groups,
  identities,
  roles,
  roleBindings,
  identityProviders,
  accountAssociations,
  groupInvites,
} satisfies Record<Kind, unknown>;

/** The spec of each kind (behaviour over the kind's definition in api/kinds). */
export const specs = {
  groups: groupSpec,
  identities: identitySpec,
  roles: roleSpec,
  roleBindings: roleBindingSpec,
  identityProviders: identityProviderSpec,
  accountAssociations: accountAssociationSpec,
  groupInvites: groupInviteSpec,
} satisfies Record<Kind, unknown>;
