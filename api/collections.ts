/**
 * Every collection of the API in one table: its path (its key is also the name of its list
 * array) and its default order. Which filters a List accepts is the server's list spec
 * (server/routes). Server routes, the client and the tests all read this, so a path is written
 * down once.
 */
export const COLLECTIONS = {
  groups: { path: "/iam/v2beta1/groups", defaultOrder: "uid" },
  identities: { path: "/iam/v2beta1/identities", defaultOrder: "uid" },
  roles: { path: "/iam/v2beta1/roles", defaultOrder: "uid" },
  roleBindings: { path: "/iam/v2beta1/roleBindings", defaultOrder: "uid" },
  identityProviders: { path: "/iam/v2beta1/identityProviders", defaultOrder: "uid" },
  accountAssociations: { path: "/iam/v2beta1/accountAssociations", defaultOrder: "group" },
  groupInvites: { path: "/iam/v2beta1/groupInvites", defaultOrder: "create_time desc" },
  repos: { path: "/registry/v2beta1/repos", defaultOrder: "uid" },
  tags: { path: "/registry/v2beta1/tags", defaultOrder: "uid" },
  advisories: { path: "/vulnerabilities/v2beta1/advisories", defaultOrder: "uid" },
} as const;

/** A collection's name, which is also the name of its list array. */
export type CollectionName = keyof typeof COLLECTIONS;

/** Every collection's name, in the order above. */
export const COLLECTION_NAMES = Object.keys(COLLECTIONS) as CollectionName[];

/** The hierarchy filters every List accepts. `ids` may repeat. */
export const SCOPE_FILTERS = [
  "uidp.descendants_of",
  "uidp.children_of",
  "uidp.ancestors_of",
  "uidp.in_root",
  "uidp.ids",
] as const;

/** Paging limits. */
export const PAGE_SIZE_DEFAULT = 50;
export const PAGE_SIZE_MAX = 200;
/** How long a page token stays valid; after that the listing silently restarts. */
export const PAGE_TOKEN_TTL_MS = 3 * 24 * 3600 * 1000;

/** The token exchange path, under the auth URL. */
export const STS_EXCHANGE_PATH = "/sts/exchange";
/** Lifetime of a token issued by exchange. */
export const EXCHANGED_TOKEN_TTL_SECONDS = 3600;
