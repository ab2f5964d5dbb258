/** The registry's v2beta1 services irv-server reads (repos and tags), and the UIDP filter every List takes. */
import { REGISTRY_PACKAGE } from "../kinds";
import { kindsPackage } from "./kinds";
import type { ProtoPackage } from "./proto";

export const common: ProtoPackage = {
  package: "chainguard.platform.common",
  messages: {
    UIDPFilter: { fields: { ancestors_of: "1 string", descendants_of: "2 string", children_of: "3 string", in_root: "4 bool", ids: "5 repeated string" } },
  },
};

const readOnly = { served: false } as const;

/**
 * The registry's package: its repos derived from the repos kind (kinds.ts), with the README
 * methods the pattern lacks; its tags, read-only, written here.
 */
const repoKinds = kindsPackage(REGISTRY_PACKAGE, {
  methods: {
    ReposService: {
      GetRepoReadme: { request: "GetRepoReadmeRequest", response: "RepoReadme", http: { method: "get", path: "/registry/v2beta1/repos/{uid=**}/readme" } },
      UpdateRepoReadme: { ...readOnly, http: { method: "patch", path: "/registry/v2beta1/repos/{repo_readme.uid=**}/readme", body: "repo_readme" } },
    },
  },
  messages: {
    RepoReadme: { fields: { uid: "1 string", content: "2 string" } },
    GetRepoReadmeRequest: { fields: { uid: "1 string" } },
  },
});

export const registry: ProtoPackage = {
  ...repoKinds,
  services: {
    ...repoKinds.services,
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
    ...repoKinds.messages,
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
  enums: repoKinds.enums,
};
