/**
 * One dynamic provider per resource kind, keyed by kind (the kinds are api/kinds' definitions). A
 * kind with behaviour of its own has a module here; any other is served by its facts alone.
 */
import { KINDS, type Kind } from "../../api/kinds";
import type { CollectionName } from "../../api/collections";
import { factsOf } from "./facts";
import { providerFor } from "./provider";
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

/** The spec of each kind with behaviour of its own (over its definition in api/kinds). */
const ownSpecs = {
  groups: groupSpec,
  identities: identitySpec,
  roles: roleSpec,
  roleBindings: roleBindingSpec,
  identityProviders: identityProviderSpec,
  accountAssociations: accountAssociationSpec,
  groupInvites: groupInviteSpec,
};

/** The kinds with nothing of their own, each with its facts as its spec. */
const byDefinition: [Kind, KindSpec<CollectionName>][] = KINDS.filter((d) => !(d.kind in ownSpecs)).map((d) => [d.kind, factsOf(d.kind) as KindSpec<CollectionName>]);

/** The spec of each kind. */
export const specs = { ...(Object.fromEntries(byDefinition) as Record<Kind, KindSpec<CollectionName>>), ...ownSpecs };

/** The provider of each kind. */
export const providers = {
  ...(Object.fromEntries(byDefinition.map(([k, spec]) => [k, providerFor(spec)])) as Record<Kind, ReturnType<typeof providerFor>>),
  groups,
  identities,
  roles,
  roleBindings,
  identityProviders,
  accountAssociations,
  groupInvites,
};
