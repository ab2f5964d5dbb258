/**
 * The descriptors built from the project's gRPC facts (api/grpc) read and write protojson: field
 * names in lowerCamelCase, int64 as strings, enums by name, Timestamps in RFC 3339 with 0, 3, 6
 * or 9 fraction digits, Durations as "<s>s", FieldMasks as comma-separated lowerCamelCase paths,
 * `null` as unset, typed details in an Any by `@type`.
 */
import { describe, expect, it } from "vitest";
import { fromJson, GRPC_PACKAGES, grpcRoot, parseField, toJson } from "../../api/grpc";

const type = (name: string) => grpcRoot().lookupType(name);
const roundTrip = (name: string, json: object) => {
  const t = type(name);
  return toJson(t, t.decode(t.encode(fromJson(t, json)).finish()));
};

describe("protojson through the descriptors", () => {
  it("writes Timestamps with 0, 3, 6 or 9 fraction digits, and reads any offset as the same instant", () => {
    const at = (createTime: string) => roundTrip("chainguard.platform.registry.v2beta1.Repo", { createTime }).createTime;
    expect(at("2024-05-01T10:00:00Z")).toBe("2024-05-01T10:00:00Z");
    expect(at("2024-05-01T10:00:00.000Z")).toBe("2024-05-01T10:00:00Z");
    expect(at("2024-05-01T10:00:00.120Z")).toBe("2024-05-01T10:00:00.120Z");
    expect(at("2024-05-01T10:00:00.1234Z")).toBe("2024-05-01T10:00:00.123400Z");
    expect(at("2024-05-01T10:00:00.123456789Z")).toBe("2024-05-01T10:00:00.123456789Z");
    expect(at("2024-05-01T12:00:00+02:00")).toBe("2024-05-01T10:00:00Z");
    expect(() => at("yesterday")).toThrow(/RFC 3339/);
  });

  it("int64 as strings, enums by name, null as unset, unknown members ignored", () => {
    const list = roundTrip("chainguard.platform.registry.v2beta1.ListReposResponse", {
      repos: [{ uid: "a", catalogTier: "CATALOG_TIER_BASE", syncConfig: null, sync_config: { uniqueTags: true }, extra: 1 }],
      totalCount: 12,
    });
    expect(list).toEqual({ repos: [{ uid: "a", catalogTier: "CATALOG_TIER_BASE", sync_config: { uniqueTags: true } }], totalCount: "12" });
  });

  it("Durations, FieldMasks and the error model's typed details", () => {
    expect(roundTrip("google.rpc.RetryInfo", { retryDelay: "1.500s" })).toEqual({ retryDelay: "1.500s" });
    expect(roundTrip(`chainguard.platform.iam.v2beta1.UpdateGroupRequest`, { updateMask: "description,resourceLimits" })).toEqual({
      updateMask: "description,resourceLimits",
    });
    const status = {
      code: 3,
      message: "Invalid argument: name: too long",
      details: [
        { "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: "INVALID_ARGUMENT", domain: "iam.chainguard.dev" },
        { "@type": "type.googleapis.com/google.rpc.BadRequest", fieldViolations: [{ field: "name", description: "too long" }] },
        { "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "2s" },
      ],
    };
    expect(roundTrip("google.rpc.Status", status)).toEqual(status);
  });

  it("every field's facts read, and every method's messages resolve", () => {
    expect(parseField("x", "4 map<int64,GitHubAppInstallations>")).toEqual({ number: 4, type: "GitHubAppInstallations", keyType: "int64" });
    expect(parseField("x", "9 SyncConfig json=sync_config")).toEqual({ number: 9, type: "SyncConfig", json: "sync_config" });
    expect(() => parseField("x", "nine string" as never)).toThrow(/field x/);
    for (const p of GRPC_PACKAGES)
      for (const [s, svc] of Object.entries(p.services ?? {}))
        for (const [m, facts] of Object.entries(svc.methods))
          if ("request" in facts) {
            const method = grpcRoot().lookupService(`${p.package}.${s}`).methods[m];
            method.resolve();
            expect([m, method.resolvedRequestType?.name, method.resolvedResponseType?.name]).toEqual([
              m,
              facts.request.split(".").pop(),
              facts.response.split(".").pop(),
            ]);
          }
  });
});
