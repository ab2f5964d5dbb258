/**
 * The registry's tags: loaded by fixtures or made by Create, which creates the tag of that name in
 * its repo or moves the one there (the platform's "creates (or updates)"); Delete. v2beta1 has no
 * Update; registry v1 has one (UpdateTag), and its Create takes a tag without a digest (v1's Tag
 * marks no field required: the platform's Terraform provider creates tags so).
 */
import { z } from "zod";
import { TagCreate } from "../../api/bodies";
import { digest } from "../../api/kinds/tags";
import { timestamp, type ServerContext } from "../context";
import { alreadyExists } from "../errors";
import type { TagRecord } from "../store";
import { parseBody } from "../validate";
import { freshUid, requireItem } from "./common";

/** A v1 Tag in a request (Create and Update): the v2beta1 body's members, its digest optional ("" or absent: none given). */
const TagV1 = TagCreate.extend({ digest: z.union([z.literal(""), digest()]).optional() });

/** Creates (or moves) the tag of the body's name in repo `repo`. */
export function createTag(ctx: ServerContext, repo: string, body: unknown): TagRecord {
  requireItem(ctx.store.repos, repo, "repo");
  return putTag(ctx, repo, parseBody(TagCreate, body));
}

/** v1's CreateTag: as createTag, the digest optional (a new tag without one has none; an existing tag keeps its own). */
export function createTagV1(ctx: ServerContext, repo: string, body: unknown): TagRecord {
  requireItem(ctx.store.repos, repo, "repo");
  return putTag(ctx, repo, parseBody(TagV1, body));
}

function putTag(ctx: ServerContext, repo: string, input: z.infer<typeof TagV1>): TagRecord {
  const old = ctx.store.tags.childrenOf(repo).find((t) => t.name === input.name);
  const t: TagRecord = {
    uid: old?.uid ?? freshUid(ctx.store.tags, repo),
    name: input.name,
    digest: input.digest || old?.digest || "",
    deprecated: input.deprecated ?? false,
    bundles: input.bundles ?? [],
    updateTime: timestamp(ctx),
  };
  if (old) ctx.store.tags.replace(t);
  else ctx.store.tags.insert(t);
  return t;
}

/**
 * v1's UpdateTag (a PUT): replaces the tag's name, deprecation and bundles (an omitted one reset);
 * a digest given moves the tag, none keeps it where it is. A name another tag of the repo has is
 * ALREADY_EXISTS.
 */
export function updateTagV1(ctx: ServerContext, uid: string, body: unknown): TagRecord {
  const old = requireItem(ctx.store.tags, uid, "tag");
  const input = parseBody(TagV1, body);
  const repo = uid.slice(0, uid.lastIndexOf("/"));
  if (ctx.store.tags.childrenOf(repo).some((t) => t.name === input.name && t.uid !== uid))
    throw alreadyExists(`a tag named ${input.name} already exists in repo ${repo}`);
  const t: TagRecord = {
    ...old,
    name: input.name,
    digest: input.digest || old.digest,
    deprecated: input.deprecated ?? false,
    bundles: input.bundles ?? [],
    updateTime: timestamp(ctx),
  };
  ctx.store.tags.replace(t);
  return t;
}

/** Deletes a tag. */
export function deleteTag(ctx: ServerContext, uid: string): void {
  requireItem(ctx.store.tags, uid, "tag");
  ctx.store.tags.remove(uid);
}
