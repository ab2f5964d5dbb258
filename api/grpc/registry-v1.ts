/**
 * The registry's v1 service (`chainguard.platform.registry.Registry`) for what irv-server serves
 * of it: `GetPackageVersionMetadata`, a package's version streams, and a repo's deployment
 * (`CreateDeployment`, `UpdateDeployment`, `GetDeployment`: api/kinds/repoDeployments.ts). Its other methods answer
 * UNIMPLEMENTED; the SDK's descriptors do not link their REST mappings (catalog.ts), so they are
 * recorded by name only.
 */
import { repoDeployments } from "../kinds";
import { SDK_SERVICES } from "./catalog";
import { kindFacts } from "./kinds";
import type { ProtoMethod, ProtoPackage } from "./proto";

const SERVICE = "chainguard.platform.registry.Registry";

const served: Record<string, ProtoMethod> = {
  GetPackageVersionMetadata: {
    request: "PackageVersionMetadataRequest",
    response: "PackageVersionMetadata",
    http: { method: "get", path: "/registry/v1/versions/{package=**}" },
  },
  // A repo's deployment (server/routes/v1/deployments.ts).
  CreateDeployment: {
    request: "CreateDeploymentRequest",
    response: "Deployment",
    http: { method: "post", path: "/registry/v1/repos/{parent_id=**}/deployment", body: "*" },
  },
  UpdateDeployment: {
    request: "UpdateDeploymentRequest",
    response: "Deployment",
    http: { method: "put", path: "/registry/v1/repos/{repo_id=**}/deployment", body: "*" },
  },
  GetDeployment: { request: "GetDeploymentRequest", response: "Deployment", http: { method: "get", path: "/registry/v1/repos/{repo_id=**}/deployment" } },
};

export const registryV1: ProtoPackage = {
  package: "chainguard.platform.registry",
  services: {
    Registry: {
      methods: Object.fromEntries(Object.keys(SDK_SERVICES[SERVICE]).map((m): [string, ProtoMethod] => [m, served[m] ?? { served: false }])),
    },
  },
  messages: {
    // A repo's deployment: `Deployment` and `HelmChart` from its kind's definition.
    ...kindFacts([repoDeployments]).messages,
    CreateDeploymentRequest: { fields: { parent_id: "1 string", charts: "2 repeated HelmChart" } },
    UpdateDeploymentRequest: { fields: { repo_id: "1 string", charts: "2 repeated HelmChart" } },
    GetDeploymentRequest: { fields: { repo_id: "1 string" } },
    PackageVersionMetadataRequest: { fields: { package: "1 string" } },
    PackageVersionMetadata: {
      fields: {
        eolVersions: "1 repeated PackageVersion",
        lastUpdatedTimestamp: "2 string",
        latestVersion: "3 string",
        versions: "4 repeated PackageVersion",
        gracePeriodMonths: "5 int32",
      },
    },
    PackageVersion: {
      fields: {
        eolDate: "1 string",
        exists: "2 bool",
        fips: "3 bool",
        legacy_lts: "4 string",
        lts: "9 bool",
        releaseDate: "5 string",
        version: "6 string",
        eolBroken: "7 bool",
        latestVersion: "8 string",
        versionSource: "10 VersionSource",
      },
      nested: { VersionSource: { fields: { ref: "1 string", sha: "2 string" } } },
    },
  },
};
