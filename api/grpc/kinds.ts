/**
 * The seven IAM kinds' messages. TEMPORARY: written out until each kind's definition carries its
 * proto facts (api/kinds), from which these are then derived.
 */
import type { EnumFacts, MessageFacts } from "./facts";

const time = "google.protobuf.Timestamp";

export const KIND_MESSAGES: Record<string, MessageFacts> = {
  Group: {
    fields: {
      uid: "1 string", name: "2 string", description: "3 string", resource_limits: "4 map<string,int32>", verified: "5 bool",
      create_time: `6 ${time}`, update_time: `7 ${time}`, kind: "8 OrgKind", status: "9 OrgStatus",
    },
  },
  Identity: {
    fields: {
      uid: "1 string", name: "2 string", description: "3 string", email: "4 string", email_unverified: "5 string", company: "6 string",
      last_seen_time: `8 ${time}`, create_time: `9 ${time}`, update_time: `10 ${time}`,
      claim_match: "20 ClaimMatch oneof=relationship", static_keys: "21 StaticKeys oneof=relationship",
      aws_identity: "22 AWSIdentity oneof=relationship", service_principal: "23 ServicePrincipal oneof=relationship",
    },
    nested: {
      ClaimMatch: {
        fields: {
          issuer: "1 string oneof=iss", issuer_pattern: "2 string oneof=iss", subject: "3 string oneof=sub", subject_pattern: "4 string oneof=sub",
          audience: "5 string oneof=aud", audience_pattern: "6 string oneof=aud", claims: "7 map<string,string>", claim_patterns: "8 map<string,string>",
        },
      },
      StaticKeys: { fields: { issuer: "1 string", subject: "2 string", issuer_keys: "3 string", expiration_time: `4 ${time}`, audiences: "5 repeated string" } },
      AWSIdentity: {
        fields: { aws_account: "1 string", arn: "2 string oneof=aws_arn", arn_pattern: "3 string oneof=aws_arn", user_id: "4 string oneof=aws_user_id", user_id_pattern: "5 string oneof=aws_user_id" },
      },
    },
  },
  Role: {
    fields: { uid: "1 string", name: "2 string", description: "3 string", capabilities: "4 repeated chainguard.capabilities.Capability", create_time: `5 ${time}`, update_time: `6 ${time}` },
  },
  RoleBinding: {
    fields: {
      uid: "1 string", identity: "2 RoleBindingIdentity", group: "3 RoleBindingGroup", role: "4 RoleBindingRole", create_time: `5 ${time}`,
      identity_uid: "6 string", role_uid: "7 string",
    },
  },
  IdentityProvider: {
    fields: {
      uid: "1 string", name: "2 string", description: "3 string", create_time: `4 ${time}`, update_time: `5 ${time}`, default_role: "6 string",
      oidc: "20 OIDC oneof=configuration", scim: "21 SCIM",
    },
    nested: {
      OIDC: {
        fields: {
          issuer: "1 string", client_id: "2 string", client_secret: "3 string", additional_scopes: "4 repeated string", groups_claim: "5 string",
          correlation_rule: "6 CorrelationRule", pkce_enabled: "7 bool",
        },
        nested: { CorrelationRule: { values: { CORRELATION_RULE_UNSPECIFIED: 0, CORRELATION_RULE_SUB_EQUALS_EXTERNAL_ID: 1, CORRELATION_RULE_OID_EQUALS_EXTERNAL_ID: 2 } } },
      },
      SCIM: {
        fields: {
          enabled: "1 bool", endpoint_url: "3 string", token_expire_time: `4 ${time}`, previous_token_expire_time: `5 ${time}`, credential_state: "6 CredentialState", etag: "7 string",
        },
        nested: {
          CredentialState: {
            values: {
              CREDENTIAL_STATE_UNSPECIFIED: 0, CREDENTIAL_STATE_NOT_ISSUED: 1, CREDENTIAL_STATE_LIVE: 2, CREDENTIAL_STATE_EXPIRED: 3, CREDENTIAL_STATE_REVOKED: 4, CREDENTIAL_STATE_ROTATING: 5,
            },
          },
        },
      },
    },
  },
  AccountAssociation: {
    fields: {
      uid: "1 string", name: "2 string", description: "3 string", amazon: "4 Amazon", google: "5 Google", chainguard: "7 Chainguard", azure: "8 Azure",
      create_time: `9 ${time}`, update_time: `10 ${time}`, github: "11 GitHub",
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
  GroupInvite: {
    fields: {
      uid: "1 string", role_uid: "2 string", role: "10 GroupInviteRole", email: "3 string", ttl: "4 google.protobuf.Duration", expiration_time: `5 ${time}`,
      single_use: "6 bool", code: "7 string", key_id: "8 string", create_time: `9 ${time}`,
    },
  },
};

/** The enums of the kinds' fields. */
export const KIND_ENUMS: Record<string, EnumFacts> = {
  ServicePrincipal: {
    values: Object.fromEntries(
      ["UNSPECIFIED", "COSIGNED", "INGESTER", "CATALOG_SYNCER", "APKO_BUILDER", "ENTITLEMENT_SYNCER", "TENANT_SCANNER", "SEDIMENTOLOGY", "SKILLUP", "MATERIALIZER", "MICROFLOW", "GUARDENER", "MICROVM", "SKILLS"].map((v, i) => [`SERVICE_PRINCIPAL_${v}`, i]),
    ),
  },
};
