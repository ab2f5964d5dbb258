/**
 * Registry data sources: repositories and their tags. Public repos are readable without
 * credentials; a private one asked for without them fails naming the settings to set.
 */
import { NO_CREDENTIALS } from "../../client/auth";
import { ConfigurationError } from "../../client/errors";
import type { Item } from "../../client/shapes";
import { exactlyOne, listQuery, outputOf, programClient, type ListArgs } from "../client";

/** A repository. */
export interface Repo {
  uid: string;
  name: string;
  description: string;
  catalogTier: string;
  aliases: string[];
  bundles: string[];
  activeTags: string[];
  /** `public` or `private` where the API says (irv-server does); public repos need no credentials. */
  visibility?: string;
  createTime: string;
  updateTime: string;
}
/** A tag of a repository (its uid is under the repo's). */
export interface Tag {
  uid: string;
  name: string;
  digest: string;
  lastUpdated: string;
  deprecated: boolean;
  bundles: string[];
  createTime?: string;
}

const registryClient = () => programClient({ anonymous: true });

const repo = (r: Item<"repos">): Repo => ({
  uid: r.uid,
  name: r.name,
  description: r.description,
  catalogTier: r.catalogTier,
  aliases: r.aliases,
  bundles: r.bundles,
  activeTags: r.activeTags,
  ...(r.visibility === undefined ? {} : { visibility: r.visibility }),
  createTime: r.createTime,
  updateTime: r.updateTime,
});
const tag = (t: Item<"tags">): Tag => ({
  uid: t.uid,
  name: t.name,
  digest: t.digest,
  lastUpdated: t.lastUpdated,
  deprecated: t.deprecated,
  bundles: t.bundles,
  createTime: t.createTime,
});

/** Filters of `getRepos`. */
export interface GetReposArgs extends ListArgs {
  /** Exact name. */
  name?: string;
}

/** Repositories matching the filters (e.g. `descendantsOf: org`), every page followed. */
export async function getRepos(args: GetReposArgs = {}): Promise<{ repos: Repo[] }> {
  return { repos: (await registryClient().collect("repos", listQuery(args, { name: args.name }))).map(repo) };
}
/** `getRepos` as an Output. */
export const getReposOutput = outputOf(getRepos);

/** One repository by uid, or by name (optionally under a group). */
export interface GetRepoArgs {
  uid?: string;
  name?: string;
  /** Search under this group and its descendants. */
  groupUid?: string;
}

/** One repository. Errors on zero or several matches. */
export async function getRepo(args: GetRepoArgs): Promise<Repo> {
  const client = registryClient();
  if (args.uid) return repo(await client.get("repos", args.uid));
  if (!args.name) throw new Error("getRepo: give uid or name");
  const found = (await client.collect("repos", listQuery({ descendantsOf: args.groupUid }, { name: args.name }))).filter((r) => r.name === args.name);
  // Without credentials only public repos are listed: say so when that is why nothing matched.
  if (found.length === 0 && client.anonymous)
    throw new ConfigurationError(`no public repo named "${args.name}"; private repos need credentials: ${NO_CREDENTIALS}`);
  return repo(exactlyOne(found, `repo named "${args.name}"${args.groupUid ? ` under ${args.groupUid}` : ""}`));
}
/** `getRepo` as an Output. */
export const getRepoOutput = outputOf(getRepo);

/** Filters of `getTags`. */
export interface GetTagsArgs extends ListArgs {
  /** The repository whose tags to list. */
  repoUid?: string;
  /** Exact tag name. */
  name?: string;
  /** Exact digest. */
  digest?: string;
  /** Only tags updated at or after this time (RFC 3339). */
  updatedSince?: string;
}

/** Tags matching the filters, every page followed. */
export async function getTags(args: GetTagsArgs = {}): Promise<{ tags: Tag[] }> {
  const q = listQuery({ ...args, childrenOf: args.childrenOf ?? args.repoUid }, { name: args.name, digest: args.digest, updatedSince: args.updatedSince });
  const client = registryClient();
  const tags = (await client.collect("tags", q)).map(tag);
  // Without credentials a private repo's tags are not listed: reading the repo says what to set.
  if (tags.length === 0 && client.anonymous && args.repoUid) await client.get("repos", args.repoUid);
  return { tags };
}
/** `getTags` as an Output. */
export const getTagsOutput = outputOf(getTags);
