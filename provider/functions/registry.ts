/**
 * The registry functions: repositories and their tags. Public repos are readable without
 * credentials; a private one asked for without them fails naming the settings to set.
 */
import {
  OBJECTS,
  getVersions as GetVersions,
  pick,
  type ArgsOf,
  type FieldsMatch,
  type getRepo as GetRepo,
  type getRepos as GetRepos,
  type getTags as GetTags,
} from "../../api/functions";
import {
  PackageVersion as PackageVersionObject,
  PackageVersionMetadata as PackageVersionMetadataObject,
  PackageVersionSource as PackageVersionSourceObject,
  Repo as RepoObject,
  RepoSyncConfig as RepoSyncConfigObject,
  Tag as TagObject,
  Versions as VersionsObject,
} from "../../api/functions/results";
import type { ItemOf, tags } from "../../api/kinds";
import { NO_CREDENTIALS } from "../../client/auth";
import { ConfigurationError } from "../../client/errors";
import type { Item } from "../../client/shapes";
import { exactlyOne, listQuery, ownFilters, type ClientSource } from "./query";

/** Where a repository's images are synced from, and to which cloud registries besides. */
export interface RepoSyncConfig {
  source: string;
  uniqueTags: boolean;
  expirationTime?: string;
  google: string;
  amazon: string;
  azure: string;
  apkoOverlay: string;
  gracePeriod: boolean;
}
/** A repository. */
export interface Repo {
  uid: string;
  name: string;
  description: string;
  /** `CATALOG_TIER_BASE`, `CATALOG_TIER_APPLICATION`, ... */
  catalogTier: string;
  bundles: string[];
  aliases: string[];
  activeTags: string[];
  /** Set when it syncs from another repository (the API's `sync_config`). */
  syncConfig?: RepoSyncConfig;
  /** The apko overlay of custom assembly, as the API returns it. */
  customOverlay?: Record<string, unknown>;
  /** `public` or `private` where the API says (irv-server does); public repos need no credentials. */
  visibility?: string;
  createTime?: string;
  updateTime?: string;
  /** Its README (Markdown): getRepo reads it; getRepos leaves it out. */
  readme?: string;
}
/** A tag of a repository (its uid is under the repo's): its definition's fields (api/kinds). */
export type Tag = ItemOf<typeof tags>;

/** Where a version stream is built from. */
export interface PackageVersionSource {
  ref: string;
  sha: string;
}
/** One version stream of a package. */
export interface PackageVersion {
  version: string;
  latestVersion: string;
  releaseDate: string;
  eolDate: string;
  exists: boolean;
  fips: boolean;
  lts: boolean;
  eolBroken: boolean;
  versionSource?: PackageVersionSource;
}
/** A package's version streams and end-of-life data. */
export interface PackageVersionMetadata {
  latestVersion: string;
  lastUpdatedTimestamp: string;
  gracePeriodMonths: number;
  versions: PackageVersion[];
  eolVersions: PackageVersion[];
}
/** What `getVersions` returns: the package asked for and its version metadata. */
export interface VersionsResult {
  package: string;
  versions: PackageVersionMetadata;
}

// The interfaces above name exactly the fields of their definitions.
true satisfies FieldsMatch<Repo, typeof RepoObject> & FieldsMatch<RepoSyncConfig, typeof RepoSyncConfigObject> & FieldsMatch<Tag, typeof TagObject>;
true satisfies FieldsMatch<PackageVersionSource, typeof PackageVersionSourceObject> & FieldsMatch<PackageVersion, typeof PackageVersionObject>;
true satisfies FieldsMatch<PackageVersionMetadata, typeof PackageVersionMetadataObject> & FieldsMatch<VersionsResult, typeof VersionsObject>;

/** Filters of `getRepos`. */
export type GetReposArgs = ArgsOf<typeof GetRepos>;
/** One repository by uid, or by name (optionally under a group). */
export type GetRepoArgs = ArgsOf<typeof GetRepo>;
/** The package whose versions `getVersions` reads. */
export type GetVersionsArgs = ArgsOf<typeof GetVersions>;
/** Filters of `getTags`. */
export type GetTagsArgs = ArgsOf<typeof GetTags>;

const repo = (r: Item<"repos">) => pick<Repo>(RepoObject, r, OBJECTS);
const tag = (t: Item<"tags">) => pick<Tag>(TagObject, t, OBJECTS);
const anonymous = (clients: ClientSource) => clients({ anonymous: true });

/** Repositories matching the filters (e.g. `descendantsOf: org`), every page followed. */
export async function getRepos(clients: ClientSource, args: GetReposArgs = {}): Promise<{ repos: Repo[] }> {
  return { repos: (await anonymous(clients).collect("repos", listQuery(args, ownFilters(args)))).map(repo) };
}

/** One repository. Errors on zero or several matches. */
export async function getRepo(clients: ClientSource, args: GetRepoArgs): Promise<Repo> {
  const client = anonymous(clients);
  const withReadme = async (r: Repo): Promise<Repo> => ({ ...r, readme: await client.repoReadme(r.uid) });
  if (args.uid) return withReadme(repo(await client.get("repos", args.uid)));
  if (!args.name) throw new Error("getRepo: give uid or name");
  const found = (await client.collect("repos", listQuery({ descendantsOf: args.groupUid }, { name: args.name }))).filter((r) => r.name === args.name);
  // Without credentials only public repos are listed: say so when that is why nothing matched.
  if (found.length === 0 && client.anonymous)
    throw new ConfigurationError(`no public repo named "${args.name}"; private repos need credentials: ${NO_CREDENTIALS}`);
  return withReadme(repo(exactlyOne(found, `repo named "${args.name}"${args.groupUid ? ` under ${args.groupUid}` : ""}`)));
}

/** Tags matching the filters, every page followed. */
export async function getTags(clients: ClientSource, args: GetTagsArgs = {}): Promise<{ tags: Tag[] }> {
  const q = listQuery({ ...args, childrenOf: args.childrenOf ?? args.repoUid }, ownFilters(args, "repoUid"));
  const client = anonymous(clients);
  const tags = (await client.collect("tags", q)).map(tag);
  // Without credentials a private repo's tags are not listed: reading the repo says what to set.
  if (tags.length === 0 && client.anonymous && args.repoUid) await client.get("repos", args.repoUid);
  return { tags };
}

/**
 * A package's version streams (registry v1 GetPackageVersionMetadata). The arguments are checked
 * first, so a missing or overlong `package` fails naming it before any request.
 */
export async function getVersions(clients: ClientSource, args: GetVersionsArgs): Promise<VersionsResult> {
  const parsed = GetVersions.args.safeParse(args ?? {});
  if (!parsed.success)
    throw new ConfigurationError(`getVersions: ${parsed.error.issues.map((i) => `${i.path.join(".") || "(arguments)"}: ${i.message}`).join("; ")}`);
  const name = parsed.data.package;
  const metadata = await clients().packageVersions(name);
  return { package: name, versions: pick<PackageVersionMetadata>(PackageVersionMetadataObject, metadata, OBJECTS) };
}
