/**
 * Registry v1's read-only repo and tag methods beyond the collections (index.ts): how many repos
 * sync from a repo (`GetRepoCountBySource`, `GET /registry/v1/repocountbysource/{id=**}`, needs
 * `repo.list` on the source's group) and a summary of a repo's tags (`GetRepoTagsSummary`,
 * `GET /registry/v1/repotagssummary/{repo_id=**}`, needs `tag.list` on the repo's group), both
 * from the same store as v2beta1. A count is of the repos the caller may list: irv-server tells
 * no caller about repos of groups its bindings do not reach.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { HIDDEN_TAGS } from "../../../api/registry";
import { parentOf } from "../../../api/uid";
import { callerOf, type ServerContext } from "../../context";
import { notFound } from "../../errors";
import type { RawQuery } from "../../list";
import type { TagRecord } from "../../store";
import { parseUid } from "../../validate";
import { booleanParams } from "./params";

/** A repo's uid from the path, its group's `capability` required before its existence is told. */
function requireRepo(ctx: ServerContext, req: FastifyRequest, field: string, capability: string): string {
  const uid = parseUid((req.params as { "*": string })["*"], field);
  ctx.authz.require(callerOf(req), capability, parentOf(uid) ?? uid);
  if (!ctx.store.repos.get(uid)) throw notFound(`repo ${uid}`);
  return uid;
}

/** v1's exclude_* flags, by proto name, and the tags each leaves out. */
const EXCLUDED = Object.fromEntries(Object.entries(HIDDEN_TAGS).map(([flag, is]) => [flag.replace(/^include_/, "exclude_"), is]));

/** The time a tag last moved, for ordering (a tag without one is oldest). */
const movedAt = (t: TagRecord) => (t.updateTime ? Date.parse(t.updateTime) : 0);

/** `RepoTagsSummary` of `tags`: their count, the latest update, the `latest` tag (else the newest), and the longest other name of its digest. */
function summary(repo: string, tags: TagRecord[]): Record<string, unknown> {
  if (tags.length === 0) return { id: repo, tagCount: "0" };
  const newest = tags.reduce((a, b) => (movedAt(b) > movedAt(a) ? b : a));
  const latest = tags.find((t) => t.name === "latest") ?? newest;
  const version = tags
    .filter((t) => t.digest === latest.digest && t.digest !== "" && t.name !== "latest" && t.name !== "latest-dev")
    .reduce((a, t) => (t.name.length > a.length ? t.name : a), "");
  return {
    id: repo,
    tagCount: String(tags.length),
    ...(newest.updateTime ? { lastUpdated: newest.updateTime } : {}),
    latestTag: {
      id: latest.uid,
      name: latest.name,
      digest: latest.digest,
      lastUpdated: latest.updateTime,
      deprecated: latest.deprecated,
      bundles: latest.bundles,
    },
    ...(version ? { latestVersion: version } : {}),
  };
}

export function registerV1RegistryRoutes(app: FastifyInstance, ctx: ServerContext): void {
  app.get("/registry/v1/repocountbysource/*", async (req) => {
    const source = requireRepo(ctx, req, "id", "repo.list");
    booleanParams(req.query as RawQuery, [], "is not a query parameter of GetRepoCountBySource");
    const caller = callerOf(req);
    const count = ctx.store.repos.all().filter((r) => r.sync_config?.source === source && ctx.authz.can(caller, "repo.list", parentOf(r.uid)!)).length;
    return { count: String(count) };
  });

  app.get("/registry/v1/repotagssummary/*", async (req) => {
    const repo = requireRepo(ctx, req, "repo_id", "tag.list");
    const excluded = booleanParams(req.query as RawQuery, Object.keys(EXCLUDED), "is not a query parameter of GetRepoTagsSummary");
    const hidden = Object.keys(EXCLUDED).filter((f) => excluded[f]);
    return summary(
      repo,
      ctx.store.tags.childrenOf(repo).filter((t) => !hidden.some((f) => EXCLUDED[f](t.name))),
    );
  });
}
