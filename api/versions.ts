/**
 * A package's version streams and end-of-life data, as the platform's registry v1
 * `GetPackageVersionMetadata` (`GET /registry/v1/versions/{package=**}`) answers them: the
 * `PackageVersionMetadata` message, read with proto3 JSON's defaults (an absent field is its zero).
 */
import { z } from "zod";
import { bool, orElse, str, unset } from "./wire";

/** The longest package name asked for (bounds the path irv-server matches). */
export const PACKAGE_NAME_MAX = 256;

/**
 * What is wrong with a package name as a path variable, if anything: it is required, bounded, and
 * has no empty, `.` or `..` segment (which would resolve to another path).
 */
export function packageNameProblem(name: string): string | undefined {
  if (name === "") return "is required";
  if (name.length > PACKAGE_NAME_MAX) return `must be at most ${PACKAGE_NAME_MAX} characters`;
  if (name.split("/").some((seg) => seg === "" || seg === "." || seg === "..")) return 'must not have empty, "." or ".." segments';
  return undefined;
}

/** `PackageVersion.VersionSource`: where a version stream is built from. */
export const VersionSource = z.looseObject({ ref: str(), sha: str() });

/** `PackageVersion`: one version stream. */
export const PackageVersion = z.looseObject({
  version: str(),
  latestVersion: str(),
  releaseDate: str(),
  eolDate: str(),
  exists: bool(),
  fips: bool(),
  lts: bool(),
  eolBroken: bool(),
  versionSource: unset(VersionSource),
});
export type PackageVersion = z.infer<typeof PackageVersion>;

/** `PackageVersionMetadata`: the streams still supported, those past end of life, the latest version. */
export const PackageVersionMetadata = z.looseObject({
  latestVersion: str(),
  lastUpdatedTimestamp: str(),
  gracePeriodMonths: orElse(z.number().int(), 0),
  versions: orElse(z.array(PackageVersion), []),
  eolVersions: orElse(z.array(PackageVersion), []),
});
export type PackageVersionMetadata = z.infer<typeof PackageVersionMetadata>;
