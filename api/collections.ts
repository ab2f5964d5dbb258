import { KINDS, type KindDefinition } from "./kinds";
import { restPrefixOf } from "./modules";

/** One collection: its path and its default order. */
interface CollectionInfo {
  path: string;
  defaultOrder: string;
}

/**
 * The kinds' collections: each under its proto package's REST prefix (`/iam/v2beta1/groups`,
 * `/events/v2beta1/subscriptions`), in its definition's default order; a singleton kind's, its
 * owners' (the client adds the owner's id and the suffix).
 */
const kindCollections = Object.fromEntries(
  (KINDS as readonly KindDefinition[]).map((k) => [
    k.kind,
    // A singleton (a repo's deployment) lives below its owners' collection: api/kinds/definition.ts.
    { path: k.singleton?.path ?? `${restPrefixOf(k.proto.package)}/${k.kind}`, defaultOrder: k.defaultOrder ?? "uid" },
  ]),
) as {
  [K in (typeof KINDS)[number]["kind"]]: CollectionInfo;
};

/**
 * Every collection of the API in one table: its path (its key is also the name of its list
 * array) and its default order: the kinds' from their definitions (api/kinds), then the
 * collections the functions read. Which filters a List accepts is the server's list spec
 * (server/routes). Server routes, the client and the tests all read this, so a path is written
 * down once.
 */
export const COLLECTIONS = {
  ...kindCollections,
  advisories: { path: "/vulnerabilities/v2beta1/advisories", defaultOrder: "uid" },
} as const;

/** A collection's name, which is also the name of its list array. */
export type CollectionName = keyof typeof COLLECTIONS;

/** Every collection's name, in the order above. */
export const COLLECTION_NAMES = Object.keys(COLLECTIONS) as CollectionName[];

/** The hierarchy filters every List accepts. `ids` may repeat. */
export const SCOPE_FILTERS = ["uidp.descendants_of", "uidp.children_of", "uidp.ancestors_of", "uidp.in_root", "uidp.ids"] as const;

/** Paging limits. */
export const PAGE_SIZE_DEFAULT = 50;
export const PAGE_SIZE_MAX = 200;
/** How long a page token stays valid; after that the listing silently restarts. */
export const PAGE_TOKEN_TTL_MS = 3 * 24 * 3600 * 1000;

/** The token exchange path, under the auth URL. */
export const STS_EXCHANGE_PATH = "/sts/exchange";
/** Lifetime of a token issued by exchange. */
export const EXCHANGED_TOKEN_TTL_SECONDS = 3600;
