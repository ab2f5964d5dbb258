/** /registry/v2beta1/repos and /registry/v2beta1/tags: read-only, loaded from fixtures. */
import { HIDDEN_TAGS } from "../../api/registry";
import { parentOf } from "../../api/uid";
import { exact } from "../list";
import { fields } from "../model";
import type { RepoRecord, TagRecord } from "../store";
import { parentGroup, type CollectionRoutes } from "./collection";

const readOnly = "the registry is read-only in irv-server: load repos and tags with --fixtures";

export const repoRoutes: CollectionRoutes<RepoRecord> = {
  label: "repo",
  capability: "repo",
  items: (ctx) => ctx.store.repos,
  groupOf: parentGroup,
  list: {
    name: "repos",
    sortable: fields<RepoRecord>("uid", "name", "description", "catalogTier", "createTime", "updateTime"),
    // ListReposRequest: `uidp` and `name`.
    filters: { name: exact((r) => r.name, true) },
    groupOf: (r) => parentOf(r.uid),
  },
  // Unset messages are written as null, as the platform's gateway writes them.
  render: (_ctx, r) => ({ ...r, sync_config: r.sync_config ?? null, customOverlay: r.customOverlay ?? null }),
  readOnly,
  isPublic: (_ctx, r) => r.visibility === "public",
};

/** A tag's group is its repo's group: tags live under their repo's uid. */
const tagGroup = (uid: string) => {
  const repo = parentOf(uid);
  return repo === undefined ? undefined : parentOf(repo);
};

export const tagRoutes: CollectionRoutes<TagRecord> = {
  label: "tag",
  capability: "tag",
  items: (ctx) => ctx.store.tags,
  // A uid too short to be a tag has no group; its lookup then answers NOT_FOUND.
  groupOf: tagGroup,
  list: {
    name: "tags",
    sortable: fields<TagRecord>("uid", "name", "digest", "updateTime", "deprecated"),
    // ListTagsRequest: `uidp`, `name`, `updated_since`, `digest`, and the include_* flags below.
    filters: {
      name: exact((t) => t.name, true),
      digest: exact((t) => t.digest, true),
      updated_since: {
        check: (v) => (Number.isNaN(Date.parse(v)) ? "must be an RFC 3339 timestamp" : undefined),
        match: (t, values) => t.updateTime !== undefined && Date.parse(t.updateTime) >= Date.parse(values[0]),
      },
    },
    hidden: Object.fromEntries(Object.entries(HIDDEN_TAGS).map(([flag, is]) => [flag, (t: TagRecord) => is(t.name)])),
    groupOf: (t) => tagGroup(t.uid),
  },
  render: (_ctx, t) => t,
  readOnly,
  // A tag is as public as its repo.
  isPublic: (ctx, t) => ctx.store.repos.get(parentOf(t.uid)!)?.visibility === "public",
};
