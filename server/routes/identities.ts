/** /iam/v2beta1/identities */
import { RELATIONSHIP_TYPES, relationshipTypeOf, type RelationshipType } from "../../api/bodies";
import { identities } from "../../api/kinds";
import { parentOf } from "../../api/uid";
import { exact } from "../list";
import { enumValue, jsonName } from "../list/query";
import { createIdentity, deleteIdentity, identityMaskPaths, renderIdentity, scalarFields, updateIdentity } from "../model";
import type { IdentityRecord } from "../store";
import { kindRoutes, parentGroup } from "./collection";

/**
 * `relationship_type` is the enum RelationshipType: its names (`RELATIONSHIP_TYPE_CLAIM_MATCH`) or
 * numbers, as the gateway reads it; this server also takes the field's own name (`claimMatch`,
 * `claim_match`). UNSPECIFIED (0) matches every identity.
 */
const ENUM_NAMES: Record<string, RelationshipType | ""> = {
  RELATIONSHIP_TYPE_UNSPECIFIED: "",
  RELATIONSHIP_TYPE_CLAIM_MATCH: "claimMatch",
  RELATIONSHIP_TYPE_STATIC: "staticKeys",
  RELATIONSHIP_TYPE_AWS_IDENTITY: "awsIdentity",
  RELATIONSHIP_TYPE_SERVICE_PRINCIPAL: "servicePrincipal",
};
const ENUM_ORDER = Object.keys(ENUM_NAMES);

/** The relationship type `v` names ("" for UNSPECIFIED), or undefined. */
function relationshipTypeNamed(v: string): RelationshipType | "" | undefined {
  const byEnum = enumValue(v, ENUM_ORDER);
  if (byEnum !== undefined) return ENUM_NAMES[byEnum];
  const field = jsonName(v);
  return (RELATIONSHIP_TYPES as readonly string[]).includes(field) ? (field as RelationshipType) : undefined;
}

export const identityRoutes = kindRoutes<IdentityRecord>("identities", {
  items: (ctx) => ctx.store.identities,
  groupOf: parentGroup,
  list: {
    sortable: scalarFields<IdentityRecord>(identities),
    filters: {
      name: exact((i) => i.name),
      relationship_type: {
        check: (v) =>
          relationshipTypeNamed(v) !== undefined ? undefined : `must be one of ${ENUM_ORDER.join(", ")} (or its number, or ${RELATIONSHIP_TYPES.join(", ")})`,
        normalize: (v) => relationshipTypeNamed(v)!,
        match: (i, [t]) => t === "" || t === relationshipTypeOf(i),
      },
    },
    groupOf: (i) => parentOf(i.uid),
  },
  render: (_ctx, i) => renderIdentity(i),
  create: (ctx, parent, body) => renderIdentity(createIdentity(ctx, parent, body)),
  update: { maskPaths: identityMaskPaths, run: updateIdentity },
  remove: deleteIdentity,
});
