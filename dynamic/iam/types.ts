/**
 * The named types the generated resource classes use (dynamic/iam/<class>.ts, written by
 * `npm run gen:sdk-classes`), from the kinds' definitions in api/kinds: a field's `type` (and
 * `argType`) names one of these.
 */
import type { OidcInput } from "../../api/kinds/identityProviders";
import type { DeepInput } from "../resource";

export type { Capability } from "../../api/kinds/roles";
export type { AwsIdentity, ClaimMatch, ServicePrincipal, StaticKeys } from "../../api/kinds/identities";
export type { BoundIdentity, BoundRef } from "../../api/kinds/roleBindings";
export type { AccountBlock } from "../../api/kinds/accountAssociations";
export type { InviteRole } from "../../api/kinds/groupInvites";
export type { OidcOutput as Oidc, Scim } from "../../api/kinds/identityProviders";

/** The OIDC connection of an identity provider, as a program gives it (the client secret is stored secret). */
export type OidcArgs = { [K in keyof OidcInput]: DeepInput<OidcInput[K]> };
