/**
 * The IAM v2beta1 services: every kind's Get, List, Create, Update and Delete, its message and the
 * messages and enums its fields name come from its definition (kinds.ts); written out here are
 * the methods beyond that pattern, which irv-server does not serve.
 */
import { IAM_PACKAGE } from "../kinds";
import type { ProtoMethod, ProtoPackage } from "./proto";
import { kindsPackage, notServed } from "./kinds";

/** The methods of each service beyond the pattern. */
const more: Record<string, Record<string, ProtoMethod>> = {
  GroupsService: {
    LookupGroup: notServed("get", "/iam/v2beta1/groups:lookupGroup"),
    RequestGroupAccess: notServed("post", "/iam/v2beta1/groups/{group_uid=**}:requestGroupAccess", "*"),
    CheckEligibility: notServed("get", "/iam/v2beta1/groups:checkEligibility"),
  },
  IdentitiesService: {
    LookupIdentity: {
      request: "LookupIdentityRequest",
      response: "LookupIdentityResponse",
      http: { method: "get", path: "/iam/v2beta1/identities:lookupIdentity" },
    },
    UpdateIdentityMetadata: notServed("patch", "/iam/v2beta1/identities:updateIdentityMetadata", "*"),
  },
  RolesService: {},
  RoleBindingsService: { BatchCreateRoleBindings: notServed("post", "/iam/v2beta1/roleBindings:batchCreate", "*") },
  IdentityProvidersService: Object.fromEntries(
    ["generateScimToken", "regenerateScimToken", "revokeScimToken", "setScimEnabled"].map((v) => [
      v[0].toUpperCase() + v.slice(1),
      notServed("post", `/iam/v2beta1/identityProviders/{identity_provider_uid=**}:${v}`, "*"),
    ]),
  ),
  AccountAssociationsService: { CheckAccountAssociation: notServed("post", "/iam/v2beta1/accountAssociations/{uid=**}:checkAccountAssociation", "*") },
  GroupInvitesService: {},
};

export const iam: ProtoPackage = kindsPackage(IAM_PACKAGE, {
  methods: more,
  messages: {
    LookupIdentityRequest: { fields: { issuer: "1 string", subject: "2 string" } },
    LookupIdentityResponse: { fields: { uid: "1 string" } },
  },
});
