/**
 * Registry data sources: repositories and their tags, the functions of provider/functions with
 * the program's client. Public repos are readable without credentials; a private one asked for
 * without them fails naming the settings to set.
 */
import * as functions from "../../provider/functions/registry";
import { named, outputOf, programClient } from "../functions";
import type { GetRepoArgs, GetReposArgs, GetTagsArgs, GetVersionsArgs } from "../../provider/functions/registry";

// A function's repo and tag are `RepoResult` and `TagResult`: `Repo` and `Tag` are the resource classes.
export type {
  Repo as RepoResult,
  Tag as TagResult,
  GetRepoArgs,
  GetReposArgs,
  GetTagsArgs,
  GetVersionsArgs,
  PackageVersion,
  PackageVersionMetadata,
  PackageVersionSource,
  VersionsResult,
} from "../../provider/functions/registry";

/** Repositories matching the filters (e.g. `descendantsOf: org`), every page followed. */
export const getRepos = named("registry.getRepos", (args: GetReposArgs = {}) => functions.getRepos(programClient, args));
/** `getRepos` as an Output. */
export const getReposOutput = outputOf(getRepos);

/** One repository. Errors on zero or several matches. */
export const getRepo = named("registry.getRepo", (args: GetRepoArgs) => functions.getRepo(programClient, args));
/** `getRepo` as an Output. */
export const getRepoOutput = outputOf(getRepo);

/** Tags matching the filters, every page followed. */
export const getTags = named("registry.getTags", (args: GetTagsArgs = {}) => functions.getTags(programClient, args));
/** `getTags` as an Output. */
export const getTagsOutput = outputOf(getTags);

/** A package's version streams and end-of-life data (needs `version.list` on some group). */
export const getVersions = named("registry.getVersions", (args: GetVersionsArgs) => functions.getVersions(programClient, args));
/** `getVersions` as an Output. */
export const getVersionsOutput = outputOf(getVersions);
