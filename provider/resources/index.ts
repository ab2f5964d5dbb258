/** One dynamic provider per resource kind, keyed by kind (see provider/kinds.ts). */
import type { Kind } from "../kinds";
import { accountAssociations } from "./accountAssociations";
import { groupInvites } from "./groupInvites";
import { groups } from "./groups";
import { identities } from "./identities";
import { identityProviders } from "./identityProviders";
import { roleBindings } from "./roleBindings";
import { roles } from "./roles";

export * from "./groups";
export * from "./identities";
export * from "./roles";
export * from "./roleBindings";
export * from "./identityProviders";
export * from "./accountAssociations";
export * from "./groupInvites";
export { UNKNOWN } from "./values";
export { changesOf, validate, type KindSpec, type CommonInputs } from "./framework";

/** The provider of each kind. */
export const providers = {
  groups,
  identities,
  roles,
  roleBindings,
  identityProviders,
  accountAssociations,
  groupInvites,
} satisfies Record<Kind, unknown>;
