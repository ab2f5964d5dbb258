/**
 * One provider per resource kind, keyed by kind (the kinds are api/kinds' definitions): each
 * kind's module here holds its behaviour over its definition's facts. The resource plugin calls
 * them directly; the dynamic classes through `dynamicProviders` (./host.ts).
 */
import { KINDS, type Kind } from "../../api/kinds";
import { lazyRecord, lazyTable } from "../../api/once";
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

/** What makes each kind's spec (its behaviour over its definition in api/kinds), by kind: the one place a kind's module is listed. */
const makers: { [K in Kind]: () => KindSpec<K> } = {
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

/** The kinds' names, in the order of the definitions (api/kinds `KINDS`). */
const KIND_NAMES: readonly Kind[] = KINDS.map((d) => d.kind);

/**
 * The spec of each kind, by kind, each made on its first read: a spec walks its kind's fields,
 * which builds their zod schemas, and the plugin, started for every operation, uses a few kinds.
 */
export const specs: { [K in Kind]: KindSpec<K> } = lazyTable(makers);

/** Kind `k`'s provider over its spec, called with values as records (see `providers`). */
const providerOfSpec = <K extends Kind>(k: K): ValuesProvider<Rec, Rec> => {
  const typed: KindProvider<K> = providerFor(specs[k]);
  return typed;
};

/**
 * The provider of each kind, by kind, in the order of the definitions (api/kinds `KINDS`), over
 * values as records: what the plugin, the dynamic host and `irv drift` hold (the engine's values,
 * decoded from its Structs or read from state, which the engine has had checked). A kind's typed
 * provider is `providerFor(specs[kind])`. Each is made on its first read, as its spec is.
 */
export const providers: Record<Kind, ValuesProvider<Rec, Rec>> = lazyRecord(KIND_NAMES, providerOfSpec);

/** The provider of `kind`, over its values as records (see `providers`). */
export function providerOf(kind: Kind): ValuesProvider<Rec, Rec> {
  return providers[kind];
}

/** Each kind's provider as the dynamic provider host calls it: what the dynamic classes run. */
export const dynamicProviders: Record<Kind, HostProvider> = lazyRecord(KIND_NAMES, (k) => forDynamicHost(providerOf(k)));
