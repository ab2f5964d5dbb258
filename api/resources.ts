import { z } from "zod";
import { advisoryShapes } from "./advisories";
import { boundIdentity, boundRef } from "./kinds/roleBindings";
import { repoItem } from "./repo-item";
import {
  accountAssociations,
  groupInvites,
  groups,
  identities,
  identityProviders,
  readShapeOf,
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
/** The identity, group or role a binding names, hydrated. */
export const BoundIdentity = boundIdentity();
export const BoundRef = boundRef();

/** A repo as the client reads it and the server stores it (./repo-item.ts). */
export const RepoItem = repoItem();
/** A repo as the API writes it: a `null` (the gateway's unset message) reads as absent. */
export const Repo = z.preprocess(withoutNulls, RepoItem);
export type Repo = z.infer<typeof Repo>;
/** A tag as the API writes it: its definition's read shape, a `null` read as absent. */
export const Tag = z.preprocess(withoutNulls, readShapeOf(tags));
export type Tag = z.infer<typeof Tag>;
/** The advisories (api/advisories.ts), a collection with no kind. */
export const { Advisory, AdvisoryEvent, Severity } = advisoryShapes();
export type Advisory = z.infer<typeof Advisory>;
export type AdvisoryEvent = z.infer<typeof AdvisoryEvent>;

/** The list envelope (./wire.ts). */
export { listOf } from "./wire";
