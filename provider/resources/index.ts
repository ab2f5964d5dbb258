/**
 * One provider per resource kind, keyed by kind (the kinds are api/kinds' definitions): each
 * kind's module here holds its behaviour over its definition's facts. The resource plugin calls
 * them directly; the dynamic classes through `dynamicProviders` (./host.ts).
 */
import type { Kind } from "../../api/kinds";
import type { CollectionName } from "../../api/collections";
import { forDynamicHost, type HostProvider } from "./host";
import type { KindProvider } from "./provider";
import type { KindSpec, Rec } from "./spec";
import { accountAssociations, accountAssociationSpec } from "./accountAssociations";
import { groupInvites, groupInviteSpec } from "./groupInvites";
import { groups, groupSpec } from "./groups";
import { identities, identitySpec } from "./identities";
import { identityProviders, identityProviderSpec } from "./identityProviders";
import { roleBindings, roleBindingSpec } from "./roleBindings";
import { roles, roleSpec } from "./roles";
import { repos, repoSpec } from "./repos";
import { repoDeployments, repoDeploymentSpec } from "./repoDeployments";
import { subscriptions, subscriptionSpec } from "./subscriptions";
import { tags, tagSpec } from "./tags";

export * from "./groups";
export * from "./identities";
export * from "./roles";
export * from "./roleBindings";
export * from "./identityProviders";
export * from "./accountAssociations";
export * from "./groupInvites";
export * from "./repos";
export * from "./repoDeployments";
export * from "./subscriptions";
export * from "./tags";
export { UNKNOWN } from "./values";
export { validate } from "./check";
export { beginOperation, endOperation, readItem } from "./reads";
export { type KindSpec, type CommonInputs } from "./spec";
export type { CheckResult, KindProvider, ReadResult } from "./provider";
export type { Call } from "./spec";
export type { HostMembers, HostProvider } from "./host";

/** The spec of each kind (its behaviour over its definition in api/kinds). */
export const specs = {
  groups: groupSpec,
  identities: identitySpec,
  roles: roleSpec,
  roleBindings: roleBindingSpec,
  identityProviders: identityProviderSpec,
  accountAssociations: accountAssociationSpec,
  groupInvites: groupInviteSpec,
  repos: repoSpec,
  tags: tagSpec,
  repoDeployments: repoDeploymentSpec,
  subscriptions: subscriptionSpec,
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
  repos,
  tags,
  repoDeployments,
  subscriptions,
} satisfies Record<Kind, KindProvider<Rec, Rec>>;

/** The provider of `kind`, over its values as records (the plugin's, which decodes them from the engine's Structs). */
export function providerOf(kind: Kind): KindProvider<Rec, Rec> {
  return providers[kind];
}

/** Each kind's provider as the dynamic provider host calls it: what the dynamic classes run. */
export const dynamicProviders = Object.fromEntries(Object.entries(providers).map(([k, p]) => [k, forDynamicHost(p)])) as Record<Kind, HostProvider>;
