/**
 * The well-known messages the platform's services use (`google.protobuf`), and the error model
 * (`google.rpc.Status` and its typed details), in the project's own record.
 */
import type { ProtoPackage } from "./proto";

export const protobuf: ProtoPackage = {
  package: "google.protobuf",
  messages: {
    Timestamp: { fields: { seconds: "1 int64", nanos: "2 int32" } },
    Duration: { fields: { seconds: "1 int64", nanos: "2 int32" } },
    FieldMask: { fields: { paths: "1 repeated string" } },
    Empty: { fields: {} },
    // protobufjs's own Any wrapper reads these two by their proto names.
    Any: { fields: { type_url: "1 string json=type_url", value: "2 bytes" } },
  },
};

export const rpc: ProtoPackage = {
  package: "google.rpc",
  messages: {
    Status: { fields: { code: "1 int32", message: "2 string", details: "3 repeated google.protobuf.Any" } },
    ErrorInfo: { fields: { reason: "1 string", domain: "2 string", metadata: "3 map<string,string>" } },
    RetryInfo: { fields: { retry_delay: "1 google.protobuf.Duration" } },
    DebugInfo: { fields: { stack_entries: "1 repeated string", detail: "2 string" } },
    QuotaFailure: {
      fields: { violations: "1 repeated Violation" },
      nested: {
        Violation: {
          fields: {
            subject: "1 string",
            description: "2 string",
            api_service: "3 string",
            quota_metric: "4 string",
            quota_id: "5 string",
            quota_dimensions: "6 map<string,string>",
            quota_value: "7 int64",
            future_quota_value: "8 optional int64",
          },
        },
      },
    },
    PreconditionFailure: {
      fields: { violations: "1 repeated Violation" },
      nested: { Violation: { fields: { type: "1 string", subject: "2 string", description: "3 string" } } },
    },
    BadRequest: {
      fields: { field_violations: "1 repeated FieldViolation" },
      nested: {
        FieldViolation: { fields: { field: "1 string", description: "2 string", reason: "3 string", localized_message: "4 LocalizedMessage" } },
      },
    },
    RequestInfo: { fields: { request_id: "1 string", serving_data: "2 string" } },
    ResourceInfo: { fields: { resource_type: "1 string", resource_name: "2 string", owner: "3 string", description: "4 string" } },
    Help: { fields: { links: "1 repeated Link" }, nested: { Link: { fields: { description: "1 string", url: "2 string" } } } },
    LocalizedMessage: { fields: { locale: "1 string", message: "2 string" } },
  },
};
