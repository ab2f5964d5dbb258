/**
 * A package's version streams and end-of-life data, as the platform's registry v1
 * `GetPackageVersionMetadata` (`GET /registry/v1/versions/{package=**}`) answers them: the
 * `PackageVersionMetadata` message, read with proto3 JSON's defaults (an absent field is its zero).
 */
import { z } from "zod";
import { once } from "./once";
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

/**
 * `PackageVersionMetadata`: the streams still supported, those past end of life, the latest
 * version. Built on the first call: the plugin's client loads this module at its start, and
 * reads versions only in a function's call.
 */
export const packageVersionMetadata = once(() => {
  /** `PackageVersion.VersionSource`: where a version stream is built from. */
  const VersionSource = z.looseObject({ ref: str(), sha: str() });

  /** `PackageVersion`: one version stream. */
  const PackageVersion = z.looseObject({
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

  const PackageVersionMetadata = z.looseObject({
    latestVersion: str(),
    lastUpdatedTimestamp: str(),
    gracePeriodMonths: orElse(z.number().int(), 0),
    versions: orElse(z.array(PackageVersion), []),
    eolVersions: orElse(z.array(PackageVersion), []),
  });
  return PackageVersionMetadata;
});
export type PackageVersionMetadata = z.infer<ReturnType<typeof packageVersionMetadata>>;
/** `PackageVersion`: one version stream. */
export type PackageVersion = PackageVersionMetadata["versions"][number];
