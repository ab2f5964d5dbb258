import { z } from "zod";
import { orElse } from "./wire";
import {
  accountAssociations,
  groupInvites,
  groups,
  identities,
  identityProviders,
  readShapeOf,
  repos,
  roleBindings,
  roles,
  subscriptions,
  tags,
  withoutNulls,
} from "./kinds";

/**
 * Resources as the API returns them. Loose: a field the server adds later passes through, and a
 * value the request rules of api/bodies.ts would refuse (a timestamp without milliseconds, a new
 * service principal) still reads, so a newer server does not break an older client. The server
 * builds exactly these shapes.
 */

/** Each kind's item: derived from its definition (api/kinds), every field's read shape by wire name. */
export const Group = readShapeOf(groups);
export type Group = z.infer<typeof Group>;
export const Identity = readShapeOf(identities);
export type Identity = z.infer<typeof Identity>;
export const Role = readShapeOf(roles);
export type Role = z.infer<typeof Role>;
/** A role binding: the identity, group and role it names, hydrated; no `updateTime`. */
export const RoleBinding = readShapeOf(roleBindings);
export type RoleBinding = z.infer<typeof RoleBinding>;
/** An identity provider: its client secret is write-only and never appears. */
export const IdentityProvider = readShapeOf(identityProviders);
export type IdentityProvider = z.infer<typeof IdentityProvider>;
/** An account association. Its uid is its group's uid: one per group. */
export const AccountAssociation = readShapeOf(accountAssociations);
export type AccountAssociation = z.infer<typeof AccountAssociation>;
/** A group invite. `code` is present only in the create response: it is a secret. */
export const GroupInvite = readShapeOf(groupInvites);
export type GroupInvite = z.infer<typeof GroupInvite>;
/** An events subscription: its sink. */
export const Subscription = readShapeOf(subscriptions);
export type Subscription = z.infer<typeof Subscription>;
export { BoundIdentity, BoundRef } from "./kinds/roleBindings";

/**
 * A repo as the client reads it and the server stores it: its definition's read shape, with its
 * times optional (the registry's readers take a repo whose API leaves them out; the kind's
 * outputs still require them, through its own read shape), and irv-server's `visibility`. Read
 * once its `null`s are dropped, as the client does with every response (`withoutNulls`).
 */
export const RepoItem = readShapeOf(repos)
  .partial({ createTime: true, updateTime: true })
  // irv-server only: `public` repos (and their tags) are readable without a token.
  .extend({ visibility: z.string().optional() });
/** A repo as the API writes it: a `null` (the gateway's unset message) reads as absent. */
export const Repo = z.preprocess(withoutNulls, RepoItem);
export type Repo = z.infer<typeof Repo>;
/** A tag as the API writes it: its definition's read shape, a `null` read as absent. */
export const Tag = z.preprocess(withoutNulls, readShapeOf(tags));
export type Tag = z.infer<typeof Tag>;
/** The advisories (api/advisories.ts), a collection with no kind. */
export { Advisory, AdvisoryEvent, Severity } from "./advisories";

/**
 * The list envelope: the array is named after the collection; `totalCount` (a proto `optional
 * int64`) is a decimal string, or `null` when the API does not count (the gateway's unset value).
 */
export function listOf<K extends string, T extends z.ZodType>(key: K, item: T) {
  return z.looseObject({
    [key]: orElse(z.array(item), []),
    nextPageToken: z.string().nullish(),
    totalCount: orElse(z.string(), "0"),
    skipped: orElse(z.number().int(), 0),
  });
}
