/**
 * Package versions (registry v1 GetPackageVersionMetadata): the same answer on REST and gRPC,
 * from the built-in sample and from fixtures; a missing, overlong or unknown package and a caller
 * without `version.list` refused with the API's error model on both.
 */
import { status } from "@grpc/grpc-js";
import { describe, expect, it } from "vitest";
import { PACKAGE_NAME_MAX } from "../../api/versions";
import { grpcFor, type GrpcResult } from "../support/grpc";
import { apiFor, startTestServer, useServer } from "../support/server";
import { bind, expectError, expectFieldViolation, mkIdentity, ok, role } from "../support/server-helpers";

const REGISTRY = "chainguard.platform.registry.Registry";
const METHOD = "GetPackageVersionMetadata";
const sample = useServer();

const failure = (r: GrpcResult) => {
  if (!("error" in r)) throw new Error(`expected an error, got ${JSON.stringify(r.ok)}`);
  return { code: status[r.error.code], status: r.status };
};

describe("GET /registry/v1/versions/{package}", () => {
  it("answers the sample's streams, supported and past end of life, the same on gRPC", async () => {
    const rest = ok(await sample.api.get("/registry/v1/versions/nodejs"));
    expect(rest.latestVersion).toBe("24.11.1");
    expect(rest.gracePeriodMonths).toBe(6);
    expect(rest.versions.map((v: { version: string }) => v.version)).toEqual(["24", "22", "20"]);
    expect(rest.eolVersions[0]).toEqual({
      version: "18",
      latestVersion: "18.20.8",
      releaseDate: "2022-04-19",
      eolDate: "2025-04-30",
      exists: true,
      fips: false,
      lts: true,
      eolBroken: false,
    });
    const g = grpcFor(sample.server.url, sample.server.token);
    try {
      const r = await g.call(REGISTRY, METHOD, { package: "nodejs" });
      expect("ok" in r && r.ok).toMatchObject({ latestVersion: "24.11.1", gracePeriodMonths: 6, lastUpdatedTimestamp: rest.lastUpdatedTimestamp });
      const viaGrpc = (r as { ok: any }).ok;
      expect(viaGrpc.versions.map((v: { version: string; latestVersion: string }) => [v.version, v.latestVersion])).toEqual(
        rest.versions.map((v: any) => [v.version, v.latestVersion]),
      );
      expect(viaGrpc.eolVersions[0]).toMatchObject({ version: "18", eolDate: "2025-04-30", lts: true, exists: true });
    } finally {
      g.close();
    }
  });

  it("answers a package the fixtures name, slashes included, with absent fields as their zero", async () => {
    const srv = await startTestServer({
      fixtures: {
        packageVersions: { "py3/requests": { latestVersion: "2.32.5", versions: [{ version: "2.32", versionSource: { ref: "v2.32.5", sha: "abc" } }] } },
      },
    });
    try {
      const got = ok(await srv.api.get("/registry/v1/versions/py3/requests"));
      expect(got).toEqual({
        latestVersion: "2.32.5",
        lastUpdatedTimestamp: "",
        gracePeriodMonths: 0,
        eolVersions: [],
        versions: [
          {
            version: "2.32",
            latestVersion: "",
            releaseDate: "",
            eolDate: "",
            exists: false,
            fips: false,
            lts: false,
            eolBroken: false,
            versionSource: { ref: "v2.32.5", sha: "abc" },
          },
        ],
      });
      expectError(await srv.api.get("/registry/v1/versions/nodejs"), "NOT_FOUND");
    } finally {
      await srv.close();
    }
  });

  it("refuses a missing or overlong package naming it, an unknown one as NOT_FOUND, on REST and gRPC", async () => {
    expectFieldViolation(await sample.api.get("/registry/v1/versions/"), "package");
    expectFieldViolation(await sample.api.get(`/registry/v1/versions/${"p".repeat(PACKAGE_NAME_MAX + 1)}`), "package");
    const missing = expectError(await sample.api.get("/registry/v1/versions/no-such-package"), "NOT_FOUND");
    expect(missing.message).toContain('"no-such-package"');
    const g = grpcFor(sample.server.url, sample.server.token);
    try {
      const empty = failure(await g.call(REGISTRY, METHOD, { package: "" }));
      expect(empty.code).toBe("INVALID_ARGUMENT");
      expect(JSON.stringify(empty.status)).toContain('"package"');
      expect(failure(await g.call(REGISTRY, METHOD, { package: "no-such-package" })).code).toBe("NOT_FOUND");
    } finally {
      g.close();
    }
  });

  it("needs version.list on some group: an identity with no binding is denied, a viewer anywhere is not", async () => {
    const org = sample.server.organization;
    const id = await mkIdentity(sample.api, org, "versions-reader");
    const token = await sample.server.issueToken(id.uid);
    const denied = expectError(await apiFor(sample.server.url, token).get("/registry/v1/versions/nodejs"), "PERMISSION_DENIED");
    expect(denied.message).toContain("version.list");
    expectError(await apiFor(sample.server.url, null).get("/registry/v1/versions/nodejs"), "UNAUTHENTICATED");
    await bind(sample.api, org, id.uid, role.viewer);
    expect(ok(await apiFor(sample.server.url, token).get("/registry/v1/versions/nodejs")).latestVersion).toBe("24.11.1");
  });
});
