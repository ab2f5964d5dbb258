/**
 * The IAM v2beta1 services: every kind's Get, List, Create, Update and Delete follow one pattern
 * (`crud`), with each kind's List filters and the methods irv-server does not serve written out.
 * The kinds' own messages come from their definitions (kinds.ts).
 */
import type { FieldFacts, MessageFacts, MethodFacts, PackageFacts, ServiceFacts } from "./facts";
import { KIND_ENUMS, KIND_MESSAGES } from "./kinds";

/** One kind's names in the pattern. */
interface Crud {
  /** The message: `RoleBinding`. */
  message: string;
  /** Its plural in method names: `RoleBindings`. */
  plural: string;
  /** The REST collection path. */
  path: string;
  /** The List request's filters beyond `uidp` and paging, with their numbers. */
  filters: Record<string, FieldFacts>;
  /** The numbers of page_size, page_token, order_by, skip in the List request. */
  paging: [number, number, number, number];
  /** Methods the kind lacks (an invite has no Update). */
  without?: string[];
}

const snake = (s: string) => s.replace(/(?<!^)[A-Z]/g, (c) => `_${c}`).toLowerCase();

/** A kind's service and request messages, as the platform's protos lay them out for every kind. */
function crud(c: Crud): { service: ServiceFacts; messages: Record<string, MessageFacts> } {
  const field = snake(c.message);
  const M = c.message;
  const methods: Record<string, MethodFacts> = {
    [`Get${M}`]: { request: `Get${M}Request`, response: M, http: { method: "get", path: `${c.path}/{uid=**}` } },
    [`List${c.plural}`]: { request: `List${c.plural}Request`, response: `List${c.plural}Response`, http: { method: "get", path: c.path } },
    [`Create${M}`]: { request: `Create${M}Request`, response: M, http: { method: "post", path: `${c.path}/{parent=**}`, body: field } },
    [`Update${M}`]: { request: `Update${M}Request`, response: M, http: { method: "patch", path: `${c.path}/{${field}.uid=**}`, body: field } },
    [`Delete${M}`]: { request: `Delete${M}Request`, response: "google.protobuf.Empty", http: { method: "delete", path: `${c.path}/{uid=**}` } },
  };
  for (const w of c.without ?? []) delete methods[`${w}${M}`];
  const [size, token, order, skip] = c.paging;
  const messages: Record<string, MessageFacts> = {
    [`Get${M}Request`]: { fields: { uid: "1 string" } },
    [`Delete${M}Request`]: { fields: { uid: "1 string" } },
    [`Create${M}Request`]: { fields: { parent: "1 string", [field]: `2 ${M}` } },
    [`Update${M}Request`]: { fields: { [field]: `1 ${M}`, update_mask: "2 google.protobuf.FieldMask" } },
    [`List${c.plural}Request`]: {
      fields: { uidp: "1 chainguard.platform.common.UIDPFilter", ...c.filters, page_size: `${size} int32`, page_token: `${token} string`, order_by: `${order} string`, skip: `${skip} int32` },
    },
    [`List${c.plural}Response`]: {
      fields: { [snake(c.plural)]: `1 repeated ${M}`, next_page_token: "2 string", total_count: "3 optional int64", skipped: "4 int32" },
    },
  };
  if (c.without?.includes("Update")) delete messages[`Update${M}Request`];
  return { service: { methods }, messages };
}

const notServed = (method: MethodFacts["http"]["method"], path: string, body?: string): MethodFacts => ({ served: false, http: { method, path, ...(body ? { body } : {}) } });

const kinds = {
  GroupsService: crud({ message: "Group", plural: "Groups", path: "/iam/v2beta1/groups", filters: { name: "2 string" }, paging: [3, 4, 5, 6] }),
  IdentitiesService: crud({
    message: "Identity",
    plural: "Identities",
    path: "/iam/v2beta1/identities",
    filters: { name: "2 string", relationship_type: "3 RelationshipType" },
    paging: [4, 5, 6, 7],
  }),
  RolesService: crud({ message: "Role", plural: "Roles", path: "/iam/v2beta1/roles", filters: { name: "2 string" }, paging: [3, 4, 5, 6] }),
  RoleBindingsService: crud({
    message: "RoleBinding",
    plural: "RoleBindings",
    path: "/iam/v2beta1/roleBindings",
    filters: { identity: "2 string", group: "3 string", role: "4 string" },
    paging: [5, 6, 7, 8],
  }),
  IdentityProvidersService: crud({ message: "IdentityProvider", plural: "IdentityProviders", path: "/iam/v2beta1/identityProviders", filters: { name: "2 string" }, paging: [10, 11, 12, 13] }),
  AccountAssociationsService: crud({ message: "AccountAssociation", plural: "AccountAssociations", path: "/iam/v2beta1/accountAssociations", filters: { name: "2 string" }, paging: [3, 4, 5, 6] }),
  GroupInvitesService: crud({ message: "GroupInvite", plural: "GroupInvites", path: "/iam/v2beta1/groupInvites", filters: { key_id: "2 string" }, paging: [3, 4, 5, 6], without: ["Update"] }),
};

/** The methods of each service beyond the pattern: irv-server does not serve them. */
const more: Record<keyof typeof kinds, Record<string, MethodFacts>> = {
  GroupsService: {
    LookupGroup: notServed("get", "/iam/v2beta1/groups:lookupGroup"),
    RequestGroupAccess: notServed("post", "/iam/v2beta1/groups/{group_uid=**}:requestGroupAccess", "*"),
    CheckEligibility: notServed("get", "/iam/v2beta1/groups:checkEligibility"),
  },
  IdentitiesService: {
    LookupIdentity: notServed("get", "/iam/v2beta1/identities:lookupIdentity"),
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

export const iam: PackageFacts = {
  package: "chainguard.platform.iam.v2beta1",
  services: Object.fromEntries(Object.entries(kinds).map(([k, v]) => [k, { methods: { ...v.service.methods, ...more[k as keyof typeof kinds] } }])),
  messages: {
    ...Object.assign({}, ...Object.values(kinds).map((k) => k.messages)),
    ...KIND_MESSAGES,
    // What a role binding and an invite carry of the items they name.
    RoleBindingIdentity: { fields: { uid: "1 string", name: "2 string", description: "3 string", subject: "4 string", issuer: "5 string", email: "6 string" } },
    RoleBindingGroup: { fields: { uid: "1 string", name: "2 string", description: "3 string" } },
    RoleBindingRole: { fields: { uid: "1 string", name: "2 string", description: "3 string" } },
    GroupInviteRole: { fields: { uid: "1 string", name: "2 string", description: "3 string", capabilities: "4 repeated chainguard.capabilities.Capability" } },
  },
  enums: {
    ...KIND_ENUMS,
    RelationshipType: {
      values: {
        RELATIONSHIP_TYPE_UNSPECIFIED: 0,
        RELATIONSHIP_TYPE_CLAIM_MATCH: 1,
        RELATIONSHIP_TYPE_STATIC: 2,
        RELATIONSHIP_TYPE_AWS_IDENTITY: 3,
        RELATIONSHIP_TYPE_SERVICE_PRINCIPAL: 4,
      },
    },
    OrgKind: { values: { ORG_KIND_UNSPECIFIED: 0, ORG_KIND_STARTER: 1, ORG_KIND_CUSTOMER: 2, ORG_KIND_DEV: 3, ORG_KIND_INFRA: 4, ORG_KIND_AWS_MARKETPLACE: 5 } },
    OrgStatus: { values: { ORG_STATUS_UNSPECIFIED: 0, ORG_STATUS_INITIALIZING: 1, ORG_STATUS_READY: 2, ORG_STATUS_SUSPENDED: 3 } },
  },
};
