/**
 * One provider per resource kind, keyed by kind (the kinds are api/kinds' definitions): each
 * kind's module here holds its behaviour over its definition's facts. The resource plugin calls
 * them directly; the dynamic classes through `dynamicProviders` (./host.ts).
 */
import { KINDS, type Kind } from "../../api/kinds";
import { forDynamicHost, type HostProvider } from "./host";
import { providerFor, type KindProvider, type ValuesProvider } from "./provider";
import type { KindSpec, Rec } from "./spec";
import { accountAssociationSpec } from "./accountAssociations";
import { groupInviteSpec } from "./groupInvites";
import { groupSpec } from "./groups";
import { identitySpec } from "./identities";
import { identityProviderSpec } from "./identityProviders";
import { roleBindingSpec } from "./roleBindings";
import { roleSpec } from "./roles";
import { repoSpec } from "./repos";
import { repoDeploymentSpec } from "./repoDeployments";
import { subscriptionSpec } from "./subscriptions";
import { tagSpec } from "./tags";

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
export { ReadBatch, readItem } from "./reads";
export { contextOf, type Context } from "./context";
export type { KindSpec, CommonInputs, Inputs, Outputs, Unchecked, Call } from "./spec";
export type { CheckResult, KindProvider, ReadResult, ValuesProvider } from "./provider";
export { hostContext, type HostMembers, type HostProvider } from "./host";

/** The spec of each kind (its behaviour over its definition in api/kinds), by kind: the one place a kind's module is listed. */
export const specs: { [K in Kind]: KindSpec<K> } = {
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
};

/** Kind `k`'s provider over its spec, called with values as records (see `providers`). */
const providerOfSpec = <K extends Kind>(k: K): ValuesProvider<Rec, Rec> => {
  const typed: KindProvider<K> = providerFor(specs[k]);
  return typed;
};

/**
 * The provider of each kind, by kind, in the order of the definitions (api/kinds `KINDS`), over
 * values as records: what the plugin, the dynamic host and `irv drift` hold (the engine's values,
 * decoded from its Structs or read from state, which the engine has had checked). A kind's typed
 * provider is `providerFor(specs[kind])`.
 */
export const providers = Object.fromEntries(KINDS.map((d) => [d.kind, providerOfSpec(d.kind)])) as Record<Kind, ValuesProvider<Rec, Rec>>;

/** The provider of `kind`, over its values as records (see `providers`). */
export function providerOf(kind: Kind): ValuesProvider<Rec, Rec> {
  return providers[kind];
}

/** Each kind's provider as the dynamic provider host calls it: what the dynamic classes run. */
export const dynamicProviders = Object.fromEntries(KINDS.map((d) => [d.kind, forDynamicHost(providerOf(d.kind))])) as Record<Kind, HostProvider>;
