/**
 * One dynamic provider per resource kind, keyed by kind (the kinds are api/kinds' definitions):
 * each kind's module here holds its behaviour over its definition's facts.
 */
import type { Kind } from "../../api/kinds";
import type { CollectionName } from "../../api/collections";
import type { KindSpec } from "./spec";
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
export { changesOf, verdictOf } from "./diff";
export { validate } from "./check";
export { beginOperation, endOperation, readItem } from "./reads";
export { type KindSpec, type CommonInputs } from "./spec";
export type { MethodOptions } from "./provider";

/** The spec of each kind (its behaviour over its definition in api/kinds). */
export const specs = {
  groups: groupSpec,
  identities: identitySpec,
  roles: roleSpec,
  roleBindings: roleBindingSpec,
  identityProviders: identityProviderSpec,
  accountAssociations: accountAssociationSpec,
  groupInvites: groupInviteSpec,
} satisfies Record<Kind, KindSpec<CollectionName>>;

/** The provider of each kind. */
export const providers = {
  groups,
  identities,
  roles,
  roleBindings,
  identityProviders,
  accountAssociations,
  groupInvites,
};
