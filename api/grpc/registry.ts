/** The registry's v2beta1 services (repos and tags), and the UIDP filter every List takes. */
import { REGISTRY_PACKAGE } from "../kinds";
import { kindsPackage } from "./kinds";
import type { ProtoPackage } from "./proto";

export const common: ProtoPackage = {
  package: "chainguard.platform.common",
  messages: {
    UIDPFilter: { fields: { ancestors_of: "1 string", descendants_of: "2 string", children_of: "3 string", in_root: "4 bool", ids: "5 repeated string" } },
  },
};

/** The registry's package: its repos and tags derived from their kinds (kinds.ts), with the README methods the pattern lacks (a repo's README is kept apart from it). */
const repoKinds = kindsPackage(REGISTRY_PACKAGE, {
  methods: {
    ReposService: {
      GetRepoReadme: { request: "GetRepoReadmeRequest", response: "RepoReadme", http: { method: "get", path: "/registry/v2beta1/repos/{uid=**}/readme" } },
      UpdateRepoReadme: {
        request: "UpdateRepoReadmeRequest",
        response: "RepoReadme",
        http: { method: "patch", path: "/registry/v2beta1/repos/{repo_readme.uid=**}/readme", body: "repo_readme" },
      },
    },
  },
  messages: {
    RepoReadme: { fields: { uid: "1 string", content: "2 string" } },
    GetRepoReadmeRequest: { fields: { uid: "1 string" } },
    UpdateRepoReadmeRequest: { fields: { repo_readme: "1 RepoReadme", update_mask: "2 google.protobuf.FieldMask" } },
  },
});

export const registry: ProtoPackage = repoKinds;
