import type { resources } from "../../api";

/** A live group subtree as `irv export` reads it: everything it will declare. */
export interface OrgSnapshot {
  /** The API base URL it was read from (for the generated README). */
  apiUrl: string;
  /** The exported group itself: referenced by the program, not managed by it. */
  root: resources.Group;
  /** Groups below `root`, at any depth. */
  groups: resources.Group[];
  identities: resources.Identity[];
  /** Custom roles in the subtree (built-in roles belong to the platform and are never declared). */
  roles: resources.Role[];
  roleBindings: resources.RoleBinding[];
  identityProviders: resources.IdentityProvider[];
  accountAssociations: resources.AccountAssociation[];
  /** Names of roles outside the subtree that something in it refers to (built-ins), by uid. */
  externalRoles: Map<string, string>;
}

/** How many of each collection a snapshot holds, for progress lines and the report. */
export function countsOf(s: OrgSnapshot): Record<string, number> {
  return {
    groups: s.groups.length,
    identities: s.identities.length,
    roles: s.roles.length,
    roleBindings: s.roleBindings.length,
    identityProviders: s.identityProviders.length,
    accountAssociations: s.accountAssociations.length,
  };
}
