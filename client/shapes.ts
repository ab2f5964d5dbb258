import type { z } from "zod";
import * as resources from "../api/resources";
import type { CollectionName } from "../api/collections";

/** The loose response shape of one item of each collection. */
export const SHAPES = {
  groups: resources.Group,
  identities: resources.Identity,
  roles: resources.Role,
  roleBindings: resources.RoleBinding,
  identityProviders: resources.IdentityProvider,
  accountAssociations: resources.AccountAssociation,
  groupInvites: resources.GroupInvite,
  repos: resources.Repo,
  tags: resources.Tag,
  advisories: resources.Advisory,
} satisfies Record<CollectionName, z.ZodType>;

/** An item of collection `C` as the client returns it. */
export type Item<C extends CollectionName> = z.infer<(typeof SHAPES)[C]>;

const envelopes = new Map<CollectionName, z.ZodType>();
/** The list envelope schema of collection `c` (`{<c>: [...], nextPageToken, totalCount, skipped}`). */
export function envelopeOf(c: CollectionName): z.ZodType {
  let e = envelopes.get(c);
  if (!e) envelopes.set(c, (e = resources.listOf(c, SHAPES[c] as z.ZodType)));
  return e;
}
