/**
 * The registry's v1 service (`chainguard.platform.registry.Registry`) for what irv-server serves
 * of it: a package's version streams (`GetPackageVersionMetadata`), the repos and tags
 * (Create, Update, List, Delete of each; a source's sync count, a repo's tags summary) from the
 * same store as v2beta1's kinds, in v1's messages (routes/v1), and a repo's deployment
 * (`CreateDeployment`, `UpdateDeployment`, `GetDeployment`: api/kinds/repoDeployments.ts). Its
 * other methods answer UNIMPLEMENTED, with the REST mapping the SDK's .proto files give.
 */
import { repoDeployments } from "../kinds";
import { SDK_SERVICES } from "./catalog";
import { kindFacts } from "./kinds";
import { httpRuleOf, type ProtoMethod, type ProtoPackage } from "./proto";

const SERVICE = "chainguard.platform.registry.Registry";
const time = "google.protobuf.Timestamp";
const uidp = "chainguard.platform.common.UIDPFilter";

const served: Record<string, ProtoMethod> = {
  GetPackageVersionMetadata: {
    request: "PackageVersionMetadataRequest",
    response: "PackageVersionMetadata",
    http: { method: "get", path: "/registry/v1/versions/{package=**}" },
  },
  // Repos and tags: the v1 protos' mappings; authorization is the REST routes' (`repo.*`, `tag.*`).
  CreateRepo: { request: "CreateRepoRequest", response: "Repo", http: { method: "post", path: "/registry/v1/repos/{parent_id=**}", body: "repo" } },
  UpdateRepo: { request: "Repo", response: "Repo", http: { method: "put", path: "/registry/v1/repos/{id=**}", body: "*" } },
  ListRepos: { request: "RepoFilter", response: "RepoList", http: { method: "get", path: "/registry/v1/repos" } },
  DeleteRepo: { request: "DeleteRepoRequest", response: "google.protobuf.Empty", http: { method: "delete", path: "/registry/v1/repos/{id=**}" } },
  CreateTag: { request: "CreateTagRequest", response: "Tag", http: { method: "post", path: "/registry/v1/tags/{repo_id=**}", body: "tag" } },
  UpdateTag: { request: "Tag", response: "Tag", http: { method: "put", path: "/registry/v1/tags/{id=**}", body: "*" } },
  ListTags: { request: "TagFilter", response: "TagList", http: { method: "get", path: "/registry/v1/tags" } },
  DeleteTag: { request: "DeleteTagRequest", response: "google.protobuf.Empty", http: { method: "delete", path: "/registry/v1/tags/{id=**}" } },
  GetRepoCountBySource: {
    request: "GetRepoCountBySourceRequest",
    response: "RepoCount",
    http: { method: "get", path: "/registry/v1/repocountbysource/{id=**}" },
  },
  GetRepoTagsSummary: {
    request: "GetRepoTagsSummaryRequest",
    response: "RepoTagsSummary",
    http: { method: "get", path: "/registry/v1/repotagssummary/{repo_id=**}" },
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

const entry = { fields: { name: "1 string", content: "2 string" } } as const;

export const registryV1: ProtoPackage = {
  package: "chainguard.platform.registry",
  services: {
    Registry: {
      methods: Object.fromEntries(
        Object.entries(SDK_SERVICES[SERVICE]).map(([m, rule]): [string, ProtoMethod] => {
          const http = httpRuleOf(rule);
          return [m, served[m] ?? { served: false, ...(http ? { http } : {}) }];
        }),
      ),
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
    Repo: {
      fields: {
        id: "1 string",
        name: "2 string",
        catalog_tier: "3 CatalogTier",
        bundles: "4 repeated string",
        readme: "5 string",
        sync_config: "6 SyncConfig json=sync_config",
        custom_overlay: "7 CustomOverlay",
        aliases: "8 repeated string",
        create_time: `9 ${time}`,
        active_tags: "10 repeated string",
        description: "11 string",
      },
    },
    SyncConfig: {
      fields: {
        source: "1 string",
        unique_tags: "2 bool",
        expiration: `3 ${time}`,
        google: "4 string",
        amazon: "5 string",
        azure: "6 string",
        sync_apks: "7 bool",
        apko_overlay: "8 string",
        grace_period: "9 bool",
      },
    },
    CustomOverlay: {
      fields: {
        contents: "1 ImageContents",
        environment: "2 map<string,string>",
        annotations: "3 map<string,string>",
        accounts: "4 ApkoConfig.Accounts",
        certificates: "15 Certificates",
      },
      nested: { Certificates: { fields: { additional: "1 repeated AdditionalEntry", providers: "2 repeated string" }, nested: { AdditionalEntry: entry } } },
    },
    ImageContents: {
      fields: { packages: "1 repeated string", runtime_repositories: "2 repeated string", runtime_keyring: "3 repeated RuntimeKeyringEntry" },
      nested: { RuntimeKeyringEntry: entry },
    },
    // Only the accounts of apko's configuration (apko.platform.proto), which a custom overlay names.
    ApkoConfig: {
      fields: {},
      nested: {
        Accounts: {
          fields: { groups: "1 repeated Group", users: "2 repeated User", run_as: "3 string" },
          nested: {
            Group: { fields: { gid: "1 uint32", group_name: "2 string", members: "3 repeated string" } },
            User: {
              fields: { uid: "1 uint32", user_name: "2 string", gid: "3 optional uint32", group_name: "4 string", shell: "5 string", home_dir: "6 string" },
            },
          },
        },
      },
    },
    CreateRepoRequest: { fields: { parent_id: "1 string", repo: "2 Repo", prevent_existing: "3 bool" } },
    DeleteRepoRequest: { fields: { id: "1 string" } },
    RepoList: { fields: { items: "1 repeated Repo" } },
    RepoFilter: { fields: { uidp: `1 ${uidp}`, name: "2 string", id: "3 string" } },
    Tag: {
      fields: { id: "1 string", name: "2 string", digest: "3 string", last_updated: `4 ${time}`, deprecated: "5 bool", bundles: "6 repeated string" },
    },
    CreateTagRequest: { fields: { repo_id: "1 string", tag: "2 Tag" } },
    DeleteTagRequest: { fields: { id: "1 string" } },
    TagList: { fields: { items: "1 repeated Tag" } },
    GetRepoCountBySourceRequest: { fields: { id: "1 string" } },
    RepoCount: { fields: { count: "1 int64" } },
    GetRepoTagsSummaryRequest: { fields: { repo_id: "1 string", exclude_referrers: "2 bool", exclude_dates: "3 bool", exclude_epochs: "4 bool" } },
    RepoTagsSummary: { fields: { id: "1 string", tag_count: "2 int64", last_updated: `3 ${time}`, latest_tag: "4 Tag", latest_version: "5 string" } },
    TagFilter: {
      fields: {
        uidp: `1 ${uidp}`,
        name: "2 string",
        updated_since: `3 ${time}`,
        exclude_referrers: "6 bool",
        exclude_dates: "7 bool",
        exclude_epochs: "8 bool",
        id: "9 string",
        digest: "10 string",
      },
    },
  },
  enums: {
    CatalogTier: { values: { UNKNOWN: 0, APPLICATION: 4, BASE: 5, FIPS: 6, AI: 7, DEVTOOLS: 8, COMMERCIAL: 9 } },
  },
};
