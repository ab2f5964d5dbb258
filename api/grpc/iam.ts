/**
 * The IAM v2beta1 services: every kind's Get, List, Create, Update and Delete, its message and the
 * messages and enums its fields name come from its definition (kinds.ts); written out here are
 * the methods beyond that pattern, which irv-server does not serve.
 */
import { COLLECTIONS } from "../collections";
import { IAM_PACKAGE } from "../kinds";
import type { ProtoMethod, ProtoPackage } from "./proto";
import { kindsPackage, notServed } from "./kinds";

/** The methods of each service beyond the pattern. */
const more: Record<string, Record<string, ProtoMethod>> = {
  GroupsService: {
    LookupGroup: notServed("get", `${COLLECTIONS.groups.path}:lookupGroup`),
    RequestGroupAccess: notServed("post", `${COLLECTIONS.groups.path}/{group_uid=**}:requestGroupAccess`, "*"),
    CheckEligibility: notServed("get", `${COLLECTIONS.groups.path}:checkEligibility`),
  },
  IdentitiesService: {
    LookupIdentity: {
      request: "LookupIdentityRequest",
      response: "LookupIdentityResponse",
      http: { method: "get", path: `${COLLECTIONS.identities.path}:lookupIdentity` },
    },
    UpdateIdentityMetadata: notServed("patch", `${COLLECTIONS.identities.path}:updateIdentityMetadata`, "*"),
  },
  RolesService: {},
  RoleBindingsService: { BatchCreateRoleBindings: notServed("post", `${COLLECTIONS.roleBindings.path}:batchCreate`, "*") },
  IdentityProvidersService: Object.fromEntries(
    ["generateScimToken", "regenerateScimToken", "revokeScimToken", "setScimEnabled"].map((v) => [
      v[0].toUpperCase() + v.slice(1),
      notServed("post", `${COLLECTIONS.identityProviders.path}/{identity_provider_uid=**}:${v}`, "*"),
    ]),
  ),
  AccountAssociationsService: { CheckAccountAssociation: notServed("post", `${COLLECTIONS.accountAssociations.path}/{uid=**}:checkAccountAssociation`, "*") },
  GroupInvitesService: {},
};

export const iam: ProtoPackage = kindsPackage(IAM_PACKAGE, {
  methods: more,
  messages: {
    LookupIdentityRequest: { fields: { issuer: "1 string", subject: "2 string" } },
    LookupIdentityResponse: { fields: { uid: "1 string" } },
  },
});
