/**
 * The registry's tags: loaded by fixtures or made by Create, which creates the tag of that name in
 * its repo or moves the one there (the platform's "creates (or updates)"); no Update; Delete.
 */
import { TagCreate } from "../../api/bodies";
import { timestamp, type ServerContext } from "../context";
import type { TagRecord } from "../store";
import { parseBody } from "../validate";
import { freshUid, requireItem } from "./common";

/** Creates (or moves) the tag of the body's name in repo `repo`. */
export function createTag(ctx: ServerContext, repo: string, body: unknown): TagRecord {
  requireItem(ctx.store.repos, repo, "repo");
  const input = parseBody(TagCreate, body);
  const old = ctx.store.tags.childrenOf(repo).find((t) => t.name === input.name);
  const t: TagRecord = {
    uid: old?.uid ?? freshUid(ctx.store.tags, repo),
    name: input.name,
    digest: input.digest,
    deprecated: input.deprecated ?? false,
    bundles: input.bundles ?? [],
    updateTime: timestamp(ctx),
  };
  if (old) ctx.store.tags.replace(t);
  else ctx.store.tags.insert(t);
  return t;
}

/** Deletes a tag. */
export function deleteTag(ctx: ServerContext, uid: string): void {
  requireItem(ctx.store.tags, uid, "tag");
  ctx.store.tags.remove(uid);
}
