import type { z } from "zod";
import {
  accountAssociations,
  createBodyOf,
  groupInvites,
  groups,
  identities,
  identityProviders,
  repos,
  roleBindings,
  roles,
  subscriptions,
  tags,
  updateBodyOf,
} from "./kinds";
import { awsIdentity, claimMatch, servicePrincipal, staticKeys, type ServicePrincipal as ServicePrincipalName } from "./kinds/identities";
import { oidc } from "./kinds/identityProviders";

/**
 * Request bodies the API accepts, strict: an unknown field is an error. Derived from the kinds'
 * definitions (api/kinds): the create body is every input's request rule by wire name, the
 * update body the same made optional, each with the kind's cross-field rules. The server parses
 * every body with these; the provider's `check` runs the same rules over a resource's inputs.
 * The members of structured fields carry their descriptions (`.describe`) and named ones an `id`
 * (`.meta`): the plugin's schema turns them into object and enum types (plugin/types.ts).
 */

export const GroupCreate = createBodyOf(groups);
export type GroupCreate = z.infer<typeof GroupCreate>;
export const GroupUpdate = updateBodyOf(groups);
export type GroupUpdate = z.infer<typeof GroupUpdate>;

export const IdentityCreate = createBodyOf(identities);
export type IdentityCreate = z.infer<typeof IdentityCreate>;
export const IdentityUpdate = updateBodyOf(identities);
export type IdentityUpdate = z.infer<typeof IdentityUpdate>;

export const RoleCreate = createBodyOf(roles);
export type RoleCreate = z.infer<typeof RoleCreate>;
export const RoleUpdate = updateBodyOf(roles);
export type RoleUpdate = z.infer<typeof RoleUpdate>;

export const RoleBindingCreate = createBodyOf(roleBindings);
export type RoleBindingCreate = z.infer<typeof RoleBindingCreate>;
export const RoleBindingUpdate = updateBodyOf(roleBindings);
export type RoleBindingUpdate = z.infer<typeof RoleBindingUpdate>;

export const IdentityProviderCreate = createBodyOf(identityProviders);
export type IdentityProviderCreate = z.infer<typeof IdentityProviderCreate>;
export const IdentityProviderUpdate = updateBodyOf(identityProviders);
export type IdentityProviderUpdate = z.infer<typeof IdentityProviderUpdate>;

export const AccountAssociationCreate = createBodyOf(accountAssociations);
export type AccountAssociationCreate = z.infer<typeof AccountAssociationCreate>;
export const AccountAssociationUpdate = updateBodyOf(accountAssociations);
export type AccountAssociationUpdate = z.infer<typeof AccountAssociationUpdate>;

export const GroupInviteCreate = createBodyOf(groupInvites);
export type GroupInviteCreate = z.infer<typeof GroupInviteCreate>;

export const SubscriptionCreate = createBodyOf(subscriptions);
export type SubscriptionCreate = z.infer<typeof SubscriptionCreate>;

// The shared object types and constants the server's models check with, from their kinds (which
// build them on first use: see api/kinds/definition.ts `defineKind`).
export const ClaimMatch = claimMatch();
export type ClaimMatch = z.infer<typeof ClaimMatch>;
export const StaticKeys = staticKeys();
export type StaticKeys = z.infer<typeof StaticKeys>;
export const AwsIdentity = awsIdentity();
export type AwsIdentity = z.infer<typeof AwsIdentity>;
export const ServicePrincipal = servicePrincipal();
export type ServicePrincipal = ServicePrincipalName;
export const Oidc = oidc();
export type Oidc = z.infer<typeof Oidc>;
export { RELATIONSHIP_TYPES, relationshipTypeOf, type RelationshipType } from "./kinds/identities";
export { AccountBlocks, ACCOUNT_BLOCKS } from "./kinds/accountAssociations";
export { DURATION, INVITE_MAX_TTL_SECONDS } from "./kinds/groupInvites";

export const RepoCreate = createBodyOf(repos);
export type RepoCreate = z.infer<typeof RepoCreate>;
export const RepoUpdate = updateBodyOf(repos);
export type RepoUpdate = z.infer<typeof RepoUpdate>;
export const TagCreate = createBodyOf(tags);
export type TagCreate = z.infer<typeof TagCreate>;
