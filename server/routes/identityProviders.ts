/** /iam/v2beta1/identityProviders */
import { identityProviders } from "../../api/kinds";
import { parentOf } from "../../api/uid";
import { exact } from "../list";
import {
  createIdentityProvider,
  deleteIdentityProvider,
  identityProviderMaskPaths,
  renderIdentityProvider,
  scalarFields,
  updateIdentityProvider,
} from "../model";
import type { IdentityProviderRecord } from "../store";
import { kindRoutes, parentGroup } from "./collection";

export const identityProviderRoutes = kindRoutes<IdentityProviderRecord>("identityProviders", {
  items: (ctx) => ctx.store.identityProviders,
  groupOf: parentGroup,
  list: {
    sortable: scalarFields<IdentityProviderRecord>(identityProviders),
    filters: { name: exact((p) => p.name) },
    groupOf: (p) => parentOf(p.uid),
  },
  render: (_ctx, p) => renderIdentityProvider(p),
  create: (ctx, parent, body, caller) => renderIdentityProvider(createIdentityProvider(ctx, parent, body, caller)),
  update: { maskPaths: identityProviderMaskPaths, run: updateIdentityProvider },
  remove: deleteIdentityProvider,
});
