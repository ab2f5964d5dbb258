/** The registry's v2beta1 services irv-server reads (repos and tags), and the UIDP filter every List takes. */
import type { ProtoPackage } from "./proto";

export const common: ProtoPackage = {
  package: "chainguard.platform.common",
  messages: {
    UIDPFilter: { fields: { ancestors_of: "1 string", descendants_of: "2 string", children_of: "3 string", in_root: "4 bool", ids: "5 repeated string" } },
  },
};

const readOnly = { served: false } as const;

export const registry: ProtoPackage = {
  package: "chainguard.platform.registry.v2beta1",
  services: {
    ReposService: {
      methods: {
        GetRepo: { request: "GetRepoRequest", response: "Repo", http: { method: "get", path: "/registry/v2beta1/repos/{uid=**}" } },
        CreateRepo: { ...readOnly, http: { method: "post", path: "/registry/v2beta1/repos/{parent=**}", body: "repo" } },
        UpdateRepo: { ...readOnly, http: { method: "patch", path: "/registry/v2beta1/repos/{repo.uid=**}", body: "repo" } },
        DeleteRepo: { ...readOnly, http: { method: "delete", path: "/registry/v2beta1/repos/{uid=**}" } },
        ListRepos: { request: "ListReposRequest", response: "ListReposResponse", http: { method: "get", path: "/registry/v2beta1/repos" } },
        GetRepoReadme: { ...readOnly, http: { method: "get", path: "/registry/v2beta1/repos/{uid=**}/readme" } },
        UpdateRepoReadme: { ...readOnly, http: { method: "patch", path: "/registry/v2beta1/repos/{repo_readme.uid=**}/readme", body: "repo_readme" } },
      },
    },
    TagsService: {
      methods: {
        GetTag: { request: "GetTagRequest", response: "Tag", http: { method: "get", path: "/registry/v2beta1/tags/{uid=**}" } },
        ListTags: { request: "ListTagsRequest", response: "ListTagsResponse", http: { method: "get", path: "/registry/v2beta1/tags" } },
        CreateTag: { ...readOnly, http: { method: "post", path: "/registry/v2beta1/tags/{parent=**}", body: "tag" } },
        DeleteTag: { ...readOnly, http: { method: "delete", path: "/registry/v2beta1/tags/{uid=**}" } },
      },
    },
  },
  messages: {
    Repo: {
      fields: {
        uid: "1 string",
        name: "2 string",
        description: "3 string",
        catalog_tier: "4 CatalogTier",
        bundles: "5 repeated string",
        aliases: "7 repeated string",
        active_tags: "8 repeated string",
        sync_config: "9 SyncConfig json=sync_config",
        custom_overlay: "10 CustomOverlay",
        create_time: "11 google.protobuf.Timestamp",
        update_time: "12 google.protobuf.Timestamp",
      },
    },
    SyncConfig: {
      fields: {
        source: "1 string",
        unique_tags: "2 bool",
        expiration_time: "3 google.protobuf.Timestamp",
        google: "4 string",
        amazon: "5 string",
        azure: "6 string",
        apko_overlay: "7 string",
        grace_period: "8 bool",
      },
    },
    CustomOverlay: {
      fields: {
        contents: "1 ImageContents",
        environment: "2 map<string,string>",
        annotations: "3 map<string,string>",
        accounts: "4 Accounts",
        certificates: "5 Certificates",
      },
      nested: {
        ImageContents: {
          fields: { packages: "1 repeated string", runtime_repositories: "2 repeated string", runtime_keyring: "3 repeated RuntimeKeyringEntry" },
          nested: { RuntimeKeyringEntry: { fields: { name: "1 string", content: "2 string" } } },
        },
        Accounts: {
          fields: { run_as: "1 string", users: "2 repeated User", groups: "3 repeated Group" },
          nested: {
            User: { fields: { username: "1 string", uid: "2 int32", gid: "3 int32", group_name: "4 string", shell: "5 string", home_dir: "6 string" } },
            Group: { fields: { groupname: "1 string", gid: "2 int32", members: "3 repeated string" } },
          },
        },
        Certificates: {
          fields: { additional: "1 repeated AdditionalEntry", providers: "2 repeated string" },
          nested: { AdditionalEntry: { fields: { name: "1 string", content: "2 string" } } },
        },
      },
    },
    GetRepoRequest: { fields: { uid: "1 string" } },
    ListReposRequest: {
      fields: { uidp: "1 chainguard.platform.common.UIDPFilter", name: "2 optional string", page_size: "4 int32", page_token: "5 string", order_by: "6 string", skip: "7 int32" },
    },
    ListReposResponse: { fields: { repos: "1 repeated Repo", next_page_token: "2 string", total_count: "3 optional int64", skipped: "4 int32" } },
    Tag: {
      fields: { uid: "1 string", name: "2 string", digest: "3 string", update_time: "4 google.protobuf.Timestamp", deprecated: "5 bool", bundles: "6 repeated string" },
    },
    GetTagRequest: { fields: { uid: "1 string" } },
    ListTagsRequest: {
      fields: {
        uidp: "1 chainguard.platform.common.UIDPFilter",
        name: "2 string",
        updated_since: "3 google.protobuf.Timestamp",
        include_referrers: "4 bool",
        include_dates: "5 bool",
        include_epochs: "6 bool",
        digest: "7 string",
        page_size: "10 int32",
        page_token: "11 string",
        order_by: "12 string",
        skip: "13 int32",
      },
    },
    ListTagsResponse: { fields: { tags: "1 repeated Tag", next_page_token: "2 string", total_count: "3 optional int64", skipped: "4 int32" } },
  },
  enums: {
    CatalogTier: {
      values: {
        CATALOG_TIER_UNSPECIFIED: 0,
        CATALOG_TIER_APPLICATION: 1,
        CATALOG_TIER_BASE: 2,
        CATALOG_TIER_FIPS: 3,
        CATALOG_TIER_AI: 4,
        CATALOG_TIER_DEVTOOLS: 5,
        CATALOG_TIER_COMMERCIAL: 6,
      },
    },
  },
};
