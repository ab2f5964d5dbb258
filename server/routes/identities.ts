/** /iam/v2beta1/identities */
import { RELATIONSHIP_TYPES } from "../../api/bodies";
import { parentOf } from "../../api/uid";
import { exact } from "../list";
import { createIdentity, deleteIdentity, fields, identityMaskPaths, relationshipTypeOf, renderIdentity, updateIdentity } from "../model";
import type { IdentityRecord } from "../store";
import { kindFacts, parentGroup, type CollectionRoutes } from "./collection";

/** `relationshipType` accepts a relationship type in camelCase or snake_case (`claimMatch`, `claim_match`). */
const relationshipTypeName = (s: string) => s.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

export const identityRoutes: CollectionRoutes<IdentityRecord> = {
  ...kindFacts("identities"),
  items: (ctx) => ctx.store.identities,
  groupOf: parentGroup,
  list: {
    name: "identities",
    sortable: fields<IdentityRecord>("uid", "name", "description", "lastSeenTime", "createTime", "updateTime"),
    filters: {
      name: exact((i) => i.name),
      relationshipType: {
        check: (v) =>
          (RELATIONSHIP_TYPES as readonly string[]).includes(relationshipTypeName(v)) ? undefined : `must be one of ${RELATIONSHIP_TYPES.join(", ")}`,
        match: (i, values) => values.some((v) => relationshipTypeName(v) === relationshipTypeOf(i)),
      },
    },
    groupOf: (i) => parentOf(i.uid),
  },
  render: (_ctx, i) => renderIdentity(i),
  create: (ctx, parent, body) => renderIdentity(createIdentity(ctx, parent, body)),
  update: { maskPaths: identityMaskPaths, run: updateIdentity },
  remove: deleteIdentity,
};
