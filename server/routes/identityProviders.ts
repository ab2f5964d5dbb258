/** /iam/v2beta1/identityProviders */
import { parentOf } from "../../api/uid";
import { exact } from "../list";
import {
  createIdentityProvider,
  deleteIdentityProvider,
  fields,
  identityProviderMaskPaths,
  renderIdentityProvider,
  updateIdentityProvider,
} from "../model";
import type { IdentityProviderRecord } from "../store";
import { kindFacts, parentGroup, type CollectionRoutes } from "./collection";

export const identityProviderRoutes: CollectionRoutes<IdentityProviderRecord> = {
  ...kindFacts("identityProviders"),
  items: (ctx) => ctx.store.identityProviders,
  groupOf: parentGroup,
  list: {
    name: "identityProviders",
    sortable: fields<IdentityProviderRecord>("uid", "name", "description", "defaultRole", "createTime", "updateTime"),
    filters: { name: exact((p) => p.name) },
    groupOf: (p) => parentOf(p.uid),
  },
  render: (_ctx, p) => renderIdentityProvider(p),
  create: (ctx, parent, body, caller) => renderIdentityProvider(createIdentityProvider(ctx, parent, body, caller)),
  update: { maskPaths: identityProviderMaskPaths, run: updateIdentityProvider },
  remove: deleteIdentityProvider,
};
