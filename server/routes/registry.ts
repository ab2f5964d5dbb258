/**
 * /registry/v2beta1/repos (the repos kind: create, get, list, update, delete, and a repo's README
 * at `<uid>/readme`) and /registry/v2beta1/tags (the tags kind: create, get, list, delete); and
 * what registry v1 (`/registry/v1/repos`, `/registry/v1/tags`, routes/v1) does otherwise.
 */
import { repos, tags } from "../../api/kinds";
import { HIDDEN_TAGS } from "../../api/registry";
import { parentOf } from "../../api/uid";
import { exact } from "../list";
import {
  createRepo,
  createRepoV1,
  createTag,
  createTagV1,
  deleteRepo,
  deleteTag,
  renderRepo,
  renderRepoV1,
  repoMaskPaths,
  scalarFields,
  updateRepo,
  updateRepoReadme,
  updateRepoV1,
  updateTagV1,
} from "../model";
import type { RepoRecord, TagRecord } from "../store";
import { kindRoutes, parentGroup } from "./collection";

/** UpdateRepoReadme's mask paths: the README's one writable field. */
const README_MASK_PATHS = new Set(["content"]);

export const repoRoutes = kindRoutes<RepoRecord>("repos", {
  items: (ctx) => ctx.store.repos,
  groupOf: parentGroup,
  list: {
    sortable: scalarFields<RepoRecord>(repos),
    // ListReposRequest: `uidp` and `name`.
    filters: { name: exact((r) => r.name, true) },
    groupOf: (r) => parentOf(r.uid),
  },
  render: (_ctx, r) => renderRepo(r),
  create: (ctx, parent, body) => renderRepo(createRepo(ctx, parent, body)),
  update: { maskPaths: repoMaskPaths, run: (ctx, uid, body, mask) => updateRepo(ctx, uid, body, mask) },
  remove: deleteRepo,
  // GetRepoReadme and UpdateRepoReadme at `<uid>/readme`: read as the repo is, written as it is updated.
  suffixes: {
    readme: {
      read: (_ctx, r) => ({ uid: r.uid, content: r.readme ?? "" }),
      update: { maskPaths: README_MASK_PATHS, run: updateRepoReadme },
    },
  },
  isPublic: (_ctx, r) => r.visibility === "public",
  // Registry v1's Repo carries its README; its CreateRepo updates a repo of that name unless `prevent_existing`.
  v1: {
    render: renderRepoV1,
    create: {
      query: ["prevent_existing"],
      run: (ctx, parent, body, q) => {
        const { repo, created } = createRepoV1(ctx, parent, body, q.prevent_existing ?? false);
        return { item: repo, created };
      },
    },
    update: updateRepoV1,
  },
});

/** A tag's group is its repo's group: tags live under their repo's uid. */
const tagGroup = (uid: string) => {
  const repo = parentOf(uid);
  return repo === undefined ? undefined : parentOf(repo);
};

export const tagRoutes = kindRoutes<TagRecord>("tags", {
  items: (ctx) => ctx.store.tags,
  // A uid too short to be a tag has no group; its lookup then answers NOT_FOUND.
  groupOf: tagGroup,
  list: {
    sortable: scalarFields<TagRecord>(tags),
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
  create: (ctx, repo, body) => createTag(ctx, repo, body),
  remove: deleteTag,
  readOnly: "tags cannot be changed: create the tag again (Create moves a tag of that name) or delete it",
  // A tag is as public as its repo.
  isPublic: (ctx, t) => ctx.store.repos.get(parentOf(t.uid)!)?.visibility === "public",
  // Registry v1 creates a tag without a digest, and updates one (UpdateTag): v2beta1 does neither.
  v1: {
    create: { query: [], run: (ctx, repo, body) => ({ item: createTagV1(ctx, repo, body), created: true }) },
    update: updateTagV1,
  },
});
