/**
 * Every collection of the API in one table: its path, the name of its list array, the filters
 * its List accepts besides `uidp.*` and paging, and its default order. Server routes, the client
 * and the tests all read this, so a path is written down once.
 */
export const COLLECTIONS = {
  groups: { path: "/iam/v2beta1/groups", filters: ["name"], defaultOrder: "uid" },
  identities: { path: "/iam/v2beta1/identities", filters: ["name", "relationshipType"], defaultOrder: "uid" },
  roles: { path: "/iam/v2beta1/roles", filters: ["name"], defaultOrder: "uid" },
  roleBindings: { path: "/iam/v2beta1/roleBindings", filters: ["identity", "group", "role"], defaultOrder: "uid" },
  identityProviders: { path: "/iam/v2beta1/identityProviders", filters: ["name"], defaultOrder: "uid" },
  accountAssociations: { path: "/iam/v2beta1/accountAssociations", filters: ["name"], defaultOrder: "group" },
  groupInvites: { path: "/iam/v2beta1/groupInvites", filters: ["keyId"], defaultOrder: "create_time desc" },
  repos: { path: "/registry/v2beta1/repos", filters: ["name"], defaultOrder: "uid" },
  tags: { path: "/registry/v2beta1/tags", filters: ["name", "digest", "updatedSince"], defaultOrder: "uid" },
  advisories: {
    path: "/vulnerabilities/v2beta1/advisories",
    filters: ["advisoryIds", "aliases", "artifactNames", "componentNames", "query"],
    defaultOrder: "uid",
  },
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
