/**
 * The IAM v2beta1 services: every kind's Get, List, Create, Update and Delete follow one pattern
 * (`crud`), with each kind's List filters and the methods irv-server does not serve written out.
 * The kinds' own messages, and the messages and enums their fields name, come from their
 * definitions (kinds.ts).
 */
import type { ProtoFieldText, ProtoMessage, ProtoMethod, ProtoPackage, ProtoService } from "./proto";
import { COLLECTIONS } from "../collections";
import { KINDS, pluralOf, type Kind, type KindDefinition } from "../kinds";
import { KIND_FACTS } from "./kinds";

/** One kind's names in the pattern. */
interface Crud {
  /** The message: `RoleBinding`. */
  message: string;
  /** Its plural in method names: `RoleBindings`. */
  plural: string;
  /** The REST collection path. */
  path: string;
  /** The List request's filters beyond `uidp` and paging, with their numbers. */
  filters: Record<string, ProtoFieldText>;
  /** The numbers of page_size, page_token, order_by, skip in the List request. */
  paging: [number, number, number, number];
  /** Methods the kind lacks (an invite has no Update). */
  without?: string[];
}

const snake = (s: string) => s.replace(/(?<!^)[A-Z]/g, (c) => `_${c}`).toLowerCase();

/** A kind's service and request messages, as the platform's protos lay them out for every kind. */
function crud(c: Crud): { service: ProtoService; messages: Record<string, ProtoMessage> } {
  const field = snake(c.message);
  const M = c.message;
  const methods: Record<string, ProtoMethod> = {
    [`Get${M}`]: { request: `Get${M}Request`, response: M, http: { method: "get", path: `${c.path}/{uid=**}` } },
    [`List${c.plural}`]: { request: `List${c.plural}Request`, response: `List${c.plural}Response`, http: { method: "get", path: c.path } },
    [`Create${M}`]: { request: `Create${M}Request`, response: M, http: { method: "post", path: `${c.path}/{parent=**}`, body: field } },
    [`Update${M}`]: { request: `Update${M}Request`, response: M, http: { method: "patch", path: `${c.path}/{${field}.uid=**}`, body: field } },
    [`Delete${M}`]: { request: `Delete${M}Request`, response: "google.protobuf.Empty", http: { method: "delete", path: `${c.path}/{uid=**}` } },
  };
  for (const w of c.without ?? []) delete methods[`${w}${M}`];
  const [size, token, order, skip] = c.paging;
  const messages: Record<string, ProtoMessage> = {
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

const notServed = (method: ProtoMethod["http"]["method"], path: string, body?: string): ProtoMethod => ({ served: false, http: { method, path, ...(body ? { body } : {}) } });

/** Each kind's List filters (beyond `uidp`) and the numbers of its paging fields. */
const LISTS: Record<Kind, Pick<Crud, "filters" | "paging" | "without">> = {
  groups: { filters: { name: "2 string" }, paging: [3, 4, 5, 6] },
  identities: { filters: { name: "2 string", relationship_type: "3 RelationshipType" }, paging: [4, 5, 6, 7] },
  roles: { filters: { name: "2 string" }, paging: [3, 4, 5, 6] },
  roleBindings: { filters: { identity: "2 string", group: "3 string", role: "4 string" }, paging: [5, 6, 7, 8] },
  identityProviders: { filters: { name: "2 string" }, paging: [10, 11, 12, 13] },
  accountAssociations: { filters: { name: "2 string" }, paging: [3, 4, 5, 6] },
  groupInvites: { filters: { key_id: "2 string" }, paging: [3, 4, 5, 6], without: ["Update"] },
};

/** Every kind's service, by its name in the kind's definition. */
const kinds = Object.fromEntries(
  (KINDS as readonly KindDefinition[]).map((d) => [
    d.proto.service,
    crud({ message: d.proto.message, plural: pluralOf(d.proto.message), path: COLLECTIONS[d.kind as Kind].path, ...LISTS[d.kind as Kind] }),
  ]),
);

/** The methods of each service beyond the pattern: irv-server does not serve them. */
const more: Record<string, Record<string, ProtoMethod>> = {
  GroupsService: {
    LookupGroup: notServed("get", "/iam/v2beta1/groups:lookupGroup"),
    RequestGroupAccess: notServed("post", "/iam/v2beta1/groups/{group_uid=**}:requestGroupAccess", "*"),
    CheckEligibility: notServed("get", "/iam/v2beta1/groups:checkEligibility"),
  },
  IdentitiesService: {
    LookupIdentity: { request: "LookupIdentityRequest", response: "LookupIdentityResponse", http: { method: "get", path: "/iam/v2beta1/identities:lookupIdentity" } },
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

export const iam: ProtoPackage = {
  package: "chainguard.platform.iam.v2beta1",
  services: Object.fromEntries(Object.entries(kinds).map(([k, v]) => [k, { methods: { ...v.service.methods, ...more[k] } }])),
  messages: {
    ...Object.assign({}, ...Object.values(kinds).map((k) => k.messages)),
    ...KIND_FACTS.messages,
    LookupIdentityRequest: { fields: { issuer: "1 string", subject: "2 string" } },
    LookupIdentityResponse: { fields: { uid: "1 string" } },
  },
  enums: KIND_FACTS.enums,
};
