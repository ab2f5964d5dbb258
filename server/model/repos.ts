/**
 * The registry's repos: made by fixtures or by Create, changed by Update, deleted with their
 * tags. A synced repo's source is resolved to the source repo's uid, as the platform stores it,
 * and its sync stops SYNC_DAYS after creation unless the platform says otherwise.
 */
import { z } from "zod";
import { RepoCreate, RepoUpdate } from "../../api/bodies";
import { README_MAX, repoReadmeBody } from "../../api/registry";
import { SYNC_DAYS, type SyncConfigInput } from "../../api/kinds/repos";
import { UID } from "../../api/uid";
import { timestamp, type ServerContext } from "../context";
import { alreadyExists, invalidField } from "../errors";
import { applyPatch, maskPaths, resetMask } from "../masks";
import type { RepoRecord } from "../store";
import { parseBody } from "../validate";
import { changed, freshUid, pick, requireGroup, requireItem } from "./common";

export const repoMaskPaths = maskPaths(RepoUpdate, ["sync_config"]);

/** The members of a repo a request writes, by wire name. */
const WRITABLE = ["name", "description", "catalogTier", "bundles", "aliases", "activeTags", "sync_config"];

/**
 * The uid of the repo `source` names: its uid, or its catalog name (`chainguard/nginx`, with or
 * without the registry host), the repo of that name in a group of that name. INVALID_ARGUMENT
 * naming `sync_config.source` when there is none.
 */
function sourceUid(ctx: ServerContext, source: string, self?: string): string {
  let found: RepoRecord | undefined;
  if (UID.test(source)) found = ctx.store.repos.get(source);
  else {
    const parts = source.split("/");
    const name = parts.pop();
    const group = parts.pop();
    found = ctx.store.repos
      .all()
      .find((r) => r.name === name && (group === undefined || ctx.store.groups.get(r.uid.split("/").slice(0, -1).join("/"))?.name === group));
  }
  if (!found) throw invalidField("sync_config.source", `names no repo: give a repo's uid or its catalog name (chainguard/<name>)`);
  if (found.uid === self) throw invalidField("sync_config.source", "must not be the repo itself");
  return found.uid;
}

/** The stored `sync_config` of `input`: what the request gave, the source as a uid, and what the platform sets. */
function syncOf(
  ctx: ServerContext,
  input: SyncConfigInput | undefined,
  created: string,
  old: RepoRecord["sync_config"],
  self?: string,
): RepoRecord["sync_config"] {
  if (!input) return undefined;
  return {
    source: sourceUid(ctx, input.source, self),
    google: input.google ?? "",
    amazon: input.amazon ?? "",
    azure: input.azure ?? "",
    uniqueTags: old?.uniqueTags ?? false,
    expirationTime: old?.expirationTime ?? new Date(Date.parse(created) + SYNC_DAYS * 86_400_000).toISOString(),
    apkoOverlay: old?.apkoOverlay ?? "",
    gracePeriod: old?.gracePeriod ?? false,
  };
}

/** A repo's name is unique in its group. */
function requireFreeName(ctx: ServerContext, parent: string, name: string, self?: string): void {
  const taken = ctx.store.repos.childrenOf(parent).some((r) => r.name === name && r.uid !== self);
  if (taken) throw alreadyExists(`a repo named ${name} already exists in group ${parent}`);
}

/** Creates a repo under group `parent`. */
export function createRepo(ctx: ServerContext, parent: string, body: unknown): RepoRecord {
  requireGroup(ctx, parent);
  const input = parseBody(RepoCreate, body);
  requireFreeName(ctx, parent, input.name);
  const now = timestamp(ctx);
  const r: RepoRecord = {
    uid: freshUid(ctx.store.repos, parent),
    name: input.name,
    description: input.description ?? "",
    catalogTier: input.catalogTier ?? "CATALOG_TIER_UNSPECIFIED",
    bundles: input.bundles ?? [],
    aliases: input.aliases ?? [],
    activeTags: input.activeTags ?? [],
    sync_config: syncOf(ctx, input.sync_config, now, undefined),
    createTime: now,
    updateTime: now,
    visibility: "private",
  };
  ctx.store.repos.insert(r);
  return r;
}

/** Updates a repo's writable fields (under `mask`, or those the body holds). */
export function updateRepo(ctx: ServerContext, uid: string, body: unknown, mask: string[] | undefined): RepoRecord {
  const old = requireItem(ctx.store.repos, uid, "repo");
  const patch = parseBody(RepoUpdate, body);
  const current = pick(old, WRITABLE);
  if (current.sync_config) current.sync_config = pick(current.sync_config, ["source", "google", "amazon", "azure"]);
  const next = parseBody(RepoCreate, applyPatch(current, patch, mask, ["sync_config"]));
  const parent = uid.slice(0, uid.lastIndexOf("/"));
  if (next.name !== old.name) requireFreeName(ctx, parent, next.name, uid);
  const r: RepoRecord = {
    ...old,
    name: next.name,
    description: next.description ?? "",
    catalogTier: next.catalogTier ?? "CATALOG_TIER_UNSPECIFIED",
    bundles: next.bundles ?? [],
    aliases: next.aliases ?? [],
    activeTags: next.activeTags ?? [],
    sync_config: syncOf(ctx, next.sync_config, old.createTime ?? timestamp(ctx), old.sync_config, uid),
  };
  if (!changed({ ...old, updateTime: "" }, { ...r, updateTime: "" })) return old;
  const updated = { ...r, updateTime: timestamp(ctx) };
  ctx.store.repos.replace(updated);
  return updated;
}

/**
 * UpdateRepoReadme: sets the README of repo `uid`. Without a mask the fields the body carries
 * change (an empty `content` is no content, so clearing needs the `content` mask). The repo's
 * other fields and its updateTime stay: the README is kept apart from it.
 */
export function updateRepoReadme(ctx: ServerContext, uid: string, body: unknown, mask: string[] | undefined): RepoRecord {
  const old = requireItem(ctx.store.repos, uid, "repo");
  const { content } = parseBody(repoReadmeBody(), body);
  const next = mask?.includes("content") ? (content ?? "") : content || old.readme;
  if (next === old.readme || (next === "" && old.readme === undefined)) return old;
  const { readme: _old, ...rest } = old;
  const updated: RepoRecord = next ? { ...rest, readme: next } : rest;
  ctx.store.repos.replace(updated);
  return updated;
}

/** Deletes a repo, its tags and its deployment. */
export function deleteRepo(ctx: ServerContext, uid: string): void {
  requireItem(ctx.store.repos, uid, "repo");
  for (const t of ctx.store.tags.childrenOf(uid)) ctx.store.tags.remove(t.uid);
  if (ctx.store.repoDeployments.get(uid)) ctx.store.repoDeployments.remove(uid);
  ctx.store.repos.remove(uid);
}

/** A repo as the API writes it: unset messages as null (as the platform's gateway writes them), no README (GetRepoReadme reads it). */
export function renderRepo(r: RepoRecord): unknown {
  const { readme: _readme, ...rest } = r;
  return { ...rest, sync_config: r.sync_config ?? null, customOverlay: r.customOverlay ?? null };
}

/** A repo's README as a v1 request gives it (v1's Repo carries it; v2beta1 keeps it apart). */
const Readme = z.string().max(README_MAX, `must be at most ${README_MAX} characters`);

/**
 * `r` with README `readme` (v1's Repo carries it; v2beta1 keeps it apart, and so does the store:
 * writing it leaves the repo's update time, as UpdateRepoReadme does).
 */
function withReadme(ctx: ServerContext, r: RepoRecord, readme: unknown): RepoRecord {
  const content = parseBody(Readme, readme ?? "", "readme");
  return updateRepoReadme(ctx, r.uid, { content }, ["content"]);
}

/** A v1 body split into its README and the rest, which the v2beta1 model takes. */
function splitReadme(body: unknown): { readme: unknown; rest: unknown } {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return { readme: undefined, rest: body };
  const { readme, ...rest } = body as Record<string, unknown>;
  return { readme, rest };
}

/**
 * v1's CreateRepo: creates the repo, README included; a repo of that name already in the group is
 * updated instead (every writable field replaced, as v1's UpdateRepo does), unless
 * `preventExisting` (the request's `prevent_existing`), which makes the name collision ALREADY_EXISTS.
 */
export function createRepoV1(ctx: ServerContext, parent: string, body: unknown, preventExisting: boolean): { repo: RepoRecord; created: boolean } {
  const { readme, rest } = splitReadme(body);
  const name = typeof rest === "object" && rest !== null ? (rest as { name?: unknown }).name : undefined;
  const existing = preventExisting ? undefined : ctx.store.repos.childrenOf(parent).find((r) => r.name === name);
  if (existing) return { repo: updateRepoV1(ctx, existing.uid, body), created: false };
  return { repo: withReadme(ctx, createRepo(ctx, parent, rest), readme), created: true };
}

/** v1's UpdateRepo (a PUT): every writable field replaced, an omitted one reset, README included. */
export function updateRepoV1(ctx: ServerContext, uid: string, body: unknown): RepoRecord {
  const { readme, rest } = splitReadme(body);
  // A body without a sync_config unsets it (its members' paths would leave an empty one).
  const synced = typeof rest === "object" && rest !== null && (rest as { sync_config?: unknown }).sync_config != null;
  const mask = resetMask(repoMaskPaths, rest).filter((p) => synced || !p.startsWith("sync_config."));
  return withReadme(ctx, updateRepo(ctx, uid, rest, synced ? mask : [...mask, "sync_config"]), readme);
}

/** A repo as registry v1 writes it: as v2beta1 does, with its README. */
export function renderRepoV1(r: RepoRecord): unknown {
  return { ...(renderRepo(r) as object), readme: r.readme ?? "" };
}
