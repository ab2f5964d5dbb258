/** /iam/v2beta1/identities */
import { IDENTITY_KINDS } from "../../api/inputs";
import { parentOf } from "../../api/uid";
import { exact } from "../list";
import { createIdentity, deleteIdentity, fields, identityMaskPaths, kindOf, renderIdentity, updateIdentity } from "../model";
import type { IdentityRecord } from "../store";
import { kindFacts, parentGroup, type CollectionRoutes } from "./collection";

/** `relationshipType` accepts a kind in camelCase or snake_case (`claimMatch`, `claim_match`). */
const kindName = (s: string) => s.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

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
          (IDENTITY_KINDS as readonly string[]).includes(kindName(v)) ? undefined : `must be one of ${IDENTITY_KINDS.join(", ")}`,
        match: (i, values) => values.some((v) => kindName(v) === kindOf(i)),
      },
    },
    groupOf: (i) => parentOf(i.uid),
  },
  render: (_ctx, i) => renderIdentity(i),
  create: (ctx, parent, body) => renderIdentity(createIdentity(ctx, parent, body)),
  update: { maskPaths: identityMaskPaths, run: updateIdentity },
  remove: deleteIdentity,
};
