/** The vulnerabilities v2beta1 service irv-server reads: advisories. */
import type { ProtoMessage, ProtoPackage } from "./proto";

const note: ProtoMessage = { fields: { note: "1 string" } };

export const vulnerabilities: ProtoPackage = {
  package: "chainguard.platform.vulnerabilities.v2beta1",
  services: {
    AdvisoriesService: {
      methods: {
        GetAdvisory: { request: "GetAdvisoryRequest", response: "Advisory", http: { method: "get", path: "/vulnerabilities/v2beta1/advisories/{uid=**}" } },
        ListAdvisories: {
          request: "ListAdvisoriesRequest",
          response: "ListAdvisoriesResponse",
          http: { method: "get", path: "/vulnerabilities/v2beta1/advisories" },
        },
      },
    },
  },
  messages: {
    Advisory: {
      fields: {
        uid: "1 string",
        advisory_id: "2 string",
        create_time: "3 google.protobuf.Timestamp",
        update_time: "4 google.protobuf.Timestamp",
        delete_time: "5 optional google.protobuf.Timestamp",
        author: "6 string",
        artifact_name: "7 string",
        artifact_type: "8 string",
        artifact_architecture: "9 string",
        component_name: "10 string",
        component_location: "11 string",
        component_type: "12 string",
        aliases: "13 repeated string",
        events: "14 repeated AdvisoryEvent",
        legacy_advisory_id: "15 optional string",
        severities: "16 repeated Severity",
      },
    },
    Severity: {
      fields: { type: "1 Type", score: "2 string" },
      nested: { Type: { values: { TYPE_UNSPECIFIED: 0, TYPE_CVSS_V2: 1, TYPE_CVSS_V3: 2, TYPE_CVSS_V4: 3 } } },
    },
    AdvisoryEvent: {
      fields: {
        uid: "1 string",
        create_time: "2 google.protobuf.Timestamp",
        findings: "3 bytes",
        author: "4 string",
        reviewer: "5 string",
        review_state: "6 ReviewState",
        issue: "7 optional string",
        detection: "10 Detection oneof=type",
        fixed: "11 Fixed oneof=type",
        false_positive_determination: "12 FalsePositiveDetermination oneof=type",
        analysis_not_planned: "13 AnalysisNotPlanned oneof=type",
        fix_not_planned: "14 FixNotPlanned oneof=type",
        pending_upstream_fix: "15 PendingUpstreamFix oneof=type",
        true_positive_determination: "16 TruePositiveDetermination oneof=type",
        patched: "17 Patched oneof=type",
      },
      nested: {
        Detection: {
          fields: { nvdapi: "1 NVDAPI oneof=type", manual: "2 Manual oneof=type", scanv1: "3 ScanV1 oneof=type" },
          nested: {
            NVDAPI: { fields: { cpe_searched: "1 string", cpe_found: "2 string" } },
            Manual: { fields: {} },
            ScanV1: {
              fields: {
                scanner: "1 string",
                subpackage: "2 string",
                component_id: "3 string",
                component: "4 string",
                component_version: "5 string",
                component_type: "6 string",
                component_location: "7 string",
                artifact_version: "8 string",
                scanner_version: "9 string",
                grype_db_built: "10 string",
                grype_db_checksum: "11 string",
              },
            },
          },
        },
        Fixed: {
          fields: { fixed_version: "1 string", note: "2 string", scanner_version: "3 string", grype_db_built: "4 string", grype_db_checksum: "5 string" },
        },
        TruePositiveDetermination: note,
        FalsePositiveDetermination: {
          fields: { type: "1 Type", note: "2 string" },
          nested: {
            Type: {
              values: {
                TYPE_UNSPECIFIED: 0,
                TYPE_VULNERABILITY_RECORD_ANALYSIS_CONTESTED: 1,
                TYPE_COMPONENT_VULNERABILITY_MISMATCH: 2,
                TYPE_VULNERABLE_CODE_VERSION_NOT_USED: 3,
                TYPE_VULNERABLE_CODE_NOT_INCLUDED_IN_PACKAGE: 4,
                TYPE_VULNERABLE_CODE_NOT_IN_EXECUTION_PATH: 5,
                TYPE_VULNERABLE_CODE_CANNOT_BE_CONTROLLED_BY_ADVERSARY: 6,
                TYPE_INLINE_MITIGATIONS_EXIST: 7,
              },
            },
          },
        },
        AnalysisNotPlanned: note,
        FixNotPlanned: note,
        PendingUpstreamFix: note,
        Patched: { fields: { patched_versions: "1 repeated string", note: "2 string" } },
      },
    },
    GetAdvisoryRequest: { fields: { uid: "1 string" } },
    ListAdvisoriesRequest: {
      fields: {
        uidp: "1 chainguard.platform.common.UIDPFilter",
        advisory_ids: "2 repeated string",
        legacy_advisory_ids: "3 repeated string",
        artifact_names: "4 repeated string",
        artifact_types: "5 repeated string",
        artifact_architectures: "6 repeated string",
        component_names: "7 repeated string",
        component_types: "8 repeated string",
        component_locations: "9 repeated string",
        aliases: "10 repeated string",
        origin: "11 optional string",
        event_review_states: "21 repeated ReviewState",
        event_authors: "22 repeated string",
        exclude_event_authors: "23 repeated string",
        event_reviewers: "24 repeated string",
        event_types: "25 repeated EventTypeFilter",
        latest_event_type: "26 optional EventTypeFilter",
        page_size: "30 int32",
        page_token: "31 string",
        order_by: "32 string",
        skip: "34 int32",
        query: "35 string",
      },
    },
    ListAdvisoriesResponse: { fields: { advisories: "1 repeated Advisory", next_page_token: "2 string", total_count: "3 optional int64", skipped: "4 int32" } },
  },
  enums: {
    ReviewState: {
      values: { REVIEW_STATE_UNSPECIFIED: 0, REVIEW_STATE_PENDING: 1, REVIEW_STATE_APPROVED: 2, REVIEW_STATE_REQUEST_CHANGES: 3, REVIEW_STATE_REJECTED: 4 },
    },
    EventTypeFilter: {
      values: {
        EVENT_TYPE_FILTER_UNSPECIFIED: 0,
        EVENT_TYPE_FILTER_DETECTION: 1,
        EVENT_TYPE_FILTER_TRUE_POSITIVE_DETERMINATION: 2,
        EVENT_TYPE_FILTER_FIXED: 3,
        EVENT_TYPE_FILTER_FALSE_POSITIVE_DETERMINATION: 4,
        EVENT_TYPE_FILTER_ANALYSIS_NOT_PLANNED: 5,
        EVENT_TYPE_FILTER_FIX_NOT_PLANNED: 6,
        EVENT_TYPE_FILTER_PENDING_UPSTREAM_FIX: 7,
        EVENT_TYPE_FILTER_PATCHED: 8,
      },
    },
  },
};
