/**
 * The v1 IAM services (`chainguard.platform.iam`) for what irv-server serves as v1 REST: groups,
 * identities, roles, role bindings, account associations (List, Create, Update, Delete), group
 * invites (Create, List, Delete), and the identities' Lookup. Their other methods answer UNIMPLEMENTED.
 */
import type { HttpRule, ProtoMessage, ProtoMethod, ProtoPackage } from "./proto";

/** An identity's claim match: the same message in v1 and v2beta1. */
export const CLAIM_MATCH: ProtoMessage = {
  fields: {
    issuer: "1 string oneof=iss",
    issuer_pattern: "2 string oneof=iss",
    subject: "3 string oneof=sub",
    subject_pattern: "4 string oneof=sub",
    audience: "5 string oneof=aud",
    audience_pattern: "6 string oneof=aud",
    claims: "7 map<string,string>",
    claim_patterns: "8 map<string,string>",
  },
};

const time = "google.protobuf.Timestamp";
const notServed = (method: HttpRule["method"], path: string, body?: string): ProtoMethod => ({
  served: false,
  http: { method, path, ...(body ? { body } : {}) },
});

/** Create, Update (PUT of the whole item), List and Delete of a v1 collection. */
function v1Methods(M: string, path: string, parent: string, body: string): Record<string, ProtoMethod> {
  return {
    Create: { request: `Create${M}Request`, response: M, http: { method: "post", path: `${path}/{${parent}=**}`, body } },
    Update: { request: M, response: M, http: { method: "put", path: `${path}/{id=**}`, body: "*" } },
    List: { request: `${M}Filter`, response: `${M}List`, http: { method: "get", path } },
    Delete: { request: `Delete${M}Request`, response: "google.protobuf.Empty", http: { method: "delete", path: `${path}/{id=**}` } },
  };
}

export const iamV1: ProtoPackage = {
  package: "chainguard.platform.iam",
  services: {
    Groups: {
      methods: {
        ...v1Methods("Group", "/iam/v1/groups", "parent", "group"),
        LookupGroup: notServed("get", "/iam/v1/groups:lookupGroup"),
        RequestGroupAccess: notServed("post", "/iam/v1/groups/{group_id=**}:requestGroupAccess", "*"),
        CheckEligibility: notServed("get", "/iam/v1/groups:checkEligibility"),
      },
    },
    Identities: {
      methods: {
        ...v1Methods("Identity", "/iam/v1/identities", "parent_id", "identity"),
        Lookup: { request: "LookupRequest", response: "Identity", http: { method: "get", path: "/iam/v1/identities/lookup" } },
      },
    },
    Roles: { methods: v1Methods("Role", "/iam/v1/roles", "parent_id", "role") },
    RoleBindings: {
      methods: {
        Create: {
          request: "CreateRoleBindingRequest",
          response: "RoleBinding",
          http: { method: "post", path: "/iam/v1/rolebindings/{parent=**}", body: "role_binding" },
        },
        CreateBatch: notServed("post", "/iam/v1/rolebindings/batch/{parent=**}", "role_bindings"),
        Update: { request: "RoleBinding", response: "RoleBinding", http: { method: "put", path: "/iam/v1/rolebindings/{id=**}", body: "*" } },
        List: { request: "RoleBindingFilter", response: "RoleBindingList", http: { method: "get", path: "/iam/v1/rolebindings" } },
        Delete: { request: "DeleteRoleBindingRequest", response: "google.protobuf.Empty", http: { method: "delete", path: "/iam/v1/rolebindings/{id=**}" } },
      },
    },
    GroupAccountAssociations: {
      methods: {
        Create: {
          request: "AccountAssociations",
          response: "AccountAssociations",
          http: { method: "post", path: "/iam/v1/account_associations/{group=**}", body: "*" },
        },
        Update: {
          request: "AccountAssociations",
          response: "AccountAssociations",
          http: { method: "put", path: "/iam/v1/account_associations/{group=**}", body: "*" },
        },
        List: { request: "AccountAssociationsFilter", response: "AccountAssociationsList", http: { method: "get", path: "/iam/v1/account_associations" } },
        Delete: {
          request: "DeleteAccountAssociationsRequest",
          response: "google.protobuf.Empty",
          http: { method: "delete", path: "/iam/v1/account_associations/{group=**}" },
        },
        Check: notServed("post", "/iam/v1/account_associations/{group=**}:check", "*"),
      },
    },
    GroupInvites: {
      methods: {
        Create: { request: "GroupInviteRequest", response: "GroupInvite", http: { method: "post", path: "/iam/v1/group_invites/{group=**}", body: "*" } },
        CreateWithGroup: { served: false },
        List: { request: "GroupInviteFilter", response: "GroupInviteList", http: { method: "get", path: "/iam/v1/group_invites" } },
        Delete: { request: "DeleteGroupInviteRequest", response: "google.protobuf.Empty", http: { method: "delete", path: "/iam/v1/group_invites/{id=**}" } },
      },
    },
  },
  messages: {
    Group: {
      fields: {
        id: "1 string",
        name: "2 string",
        description: "3 string",
        resource_limits: "4 map<string,int32>",
        verified: "5 bool",
        kind: "6 OrgKind",
        status: "7 OrgStatus",
      },
    },
    GroupList: { fields: { items: "1 repeated Group" } },
    GroupFilter: { fields: { id: "1 string", uidp: "2 chainguard.platform.common.UIDPFilter", name: "3 string" } },
    CreateGroupRequest: { fields: { parent: "1 string", group: "2 Group" } },
    DeleteGroupRequest: { fields: { id: "1 string" } },
    Identity: {
      fields: {
        id: "1 string",
        name: "2 string",
        description: "3 string",
        created_at: `4 ${time}`,
        updated_at: `5 ${time}`,
        last_seen: `9 ${time}`,
        claim_match: "10 ClaimMatch oneof=relationship",
        static: "11 StaticKeys oneof=relationship",
        service_principal: "12 ServicePrincipal oneof=relationship",
        aws_identity: "13 AWSIdentity oneof=relationship",
      },
      nested: {
        ClaimMatch: CLAIM_MATCH,
        StaticKeys: { fields: { issuer: "1 string", subject: "2 string", issuer_keys: "4 string", expiration: `5 ${time}`, audiences: "6 repeated string" } },
        AWSIdentity: {
          fields: {
            aws_account: "1 string",
            arn: "3 string oneof=aws_arn",
            arn_pattern: "4 string oneof=aws_arn",
            user_id: "5 string oneof=aws_user_id",
            user_id_pattern: "6 string oneof=aws_user_id",
          },
        },
      },
    },
    IdentityList: { fields: { items: "1 repeated Identity" } },
    IdentityFilter: { fields: { uidp: "1 chainguard.platform.common.UIDPFilter", id: "2 string" } },
    CreateIdentityRequest: { fields: { parent_id: "1 string", identity: "2 Identity" } },
    DeleteIdentityRequest: { fields: { id: "1 string" } },
    LookupRequest: { fields: { issuer: "1 string", subject: "2 string" } },
    Role: { fields: { id: "1 string", name: "2 string", description: "3 string", capabilities: "4 repeated string" } },
    RoleList: { fields: { items: "1 repeated Role" } },
    RoleFilter: { fields: { id: "1 string", name: "2 string", parent: "3 string", uidp: "4 chainguard.platform.common.UIDPFilter" } },
    CreateRoleRequest: { fields: { parent_id: "1 string", role: "2 Role" } },
    DeleteRoleRequest: { fields: { id: "1 string" } },
    RoleBinding: { fields: { id: "1 string", identity: "2 string", group: "3 string", role: "4 string" } },
    RoleBindingFilter: { fields: { id: "1 string", uidp: "2 chainguard.platform.common.UIDPFilter" } },
    RoleBindingList: {
      fields: { items: "1 repeated Binding" },
      nested: {
        Binding: {
          fields: {
            id: "1 string",
            group: "2 Group",
            identity: "3 string",
            role: "4 Role",
            email: "5 string",
            claim_match_issuer: "6 string",
            claim_match_subject: "7 string",
            created_at: `8 ${time}`,
            email_unverified: "9 string",
          },
        },
      },
    },
    CreateRoleBindingRequest: { fields: { parent: "1 string", role_binding: "2 RoleBinding" } },
    DeleteRoleBindingRequest: { fields: { id: "1 string" } },
    AccountAssociations: {
      fields: {
        group: "1 string",
        amazon: "2 Amazon",
        google: "3 Google",
        chainguard: "7 Chainguard",
        azure: "8 Azure",
        name: "4 string",
        description: "5 string",
        github: "9 GitHub",
      },
      nested: {
        Amazon: { fields: { account: "1 string" } },
        Google: { fields: { project_id: "1 string", project_number: "2 string" } },
        GitHub: { fields: { app_installations: "2 map<int64,GitHubAppInstallations>" } },
        GitHubAppInstallations: { fields: { installations: "1 repeated GitHubInstallation" } },
        GitHubInstallation: { fields: { installation_id: "1 int64", name: "2 string" } },
        Chainguard: { fields: { service_bindings: "1 map<string,string>" } },
        Azure: { fields: { tenant_id: "1 string", client_ids: "2 map<string,string>" } },
      },
    },
    AccountAssociationsFilter: { fields: { group: "1 string", name: "2 string" } },
    AccountAssociationsList: { fields: { items: "1 repeated AccountAssociations" } },
    DeleteAccountAssociationsRequest: { fields: { group: "1 string" } },
    GroupInviteRequest: { fields: { group: "1 string", ttl: "2 google.protobuf.Duration", role: "3 string", email: "4 string", single_use: "5 bool" } },
    GroupInvite: { fields: { id: "1 string", expiration: `2 ${time}`, key_id: "3 string", role: "4 Role", code: "5 string" } },
    StoredGroupInvite: {
      fields: { id: "1 string", expiration: `2 ${time}`, key_id: "3 string", role: "4 Role", email: "5 string", created_at: `6 ${time}`, single_use: "7 bool" },
    },
    GroupInviteFilter: { fields: { group: "1 string", id: "2 string", key_id: "3 string" } },
    GroupInviteList: { fields: { items: "1 repeated StoredGroupInvite" } },
    DeleteGroupInviteRequest: { fields: { id: "1 string" } },
  },
  enums: {
    OrgKind: {
      values: { ORG_KIND_UNSPECIFIED: 0, ORG_KIND_STARTER: 1, ORG_KIND_CUSTOMER: 2, ORG_KIND_DEV: 3, ORG_KIND_INFRA: 4, ORG_KIND_AWS_MARKETPLACE: 5 },
    },
    OrgStatus: { values: { ORG_STATUS_UNSPECIFIED: 0, ORG_STATUS_INITIALIZING: 1, ORG_STATUS_READY: 2, ORG_STATUS_SUSPENDED: 3 } },
    ServicePrincipal: {
      values: Object.fromEntries(
        [
          "UNKNOWN",
          "COSIGNED",
          "INGESTER",
          "CATALOG_SYNCER",
          "APKO_BUILDER",
          "ENTITLEMENT_SYNCER",
          "TENANT_SCANNER",
          "SEDIMENTOLOGY",
          "SKILLUP",
          "MATERIALIZER",
          "MICROFLOW",
          "GUARDENER",
          "MICROVM",
          "SKILLS",
        ].map((v, i) => [v, i]),
      ),
    },
  },
};
