/**
 * The objects the functions return. Groups, roles, identities, repos and tags are their kinds'
 * fields (from api/kinds); advisories and package versions are read-only collections with no
 * kind, so their fields are described here.
 */
import { repos, tags } from "../kinds";
import { kindField, kindResult, type ObjectDefinition, type ResultField } from "./definition";

export const GroupResult = kindResult("groups", {
  name: "GroupResult",
  parent: { type: "string", description: "The parent group's uid; absent for the organization itself.", optional: true },
});

export const RoleResult = kindResult("roles", {
  name: "RoleResult",
  parent: { type: "string", description: "The group of a custom role; absent for a built-in one.", optional: true },
  extra: { builtin: { type: "boolean", description: "A built-in role (viewer, editor, owner, registry.pull, registry.push)." } },
});

export const IdentityResult = kindResult("identities", {
  name: "IdentityResult",
  description:
    "An identity as getIdentity returns it: a workload identity's fields, a person's those the platform's lookup gives (uid, name, description, times); with `allowMissing` and no match, `found: false` alone.",
  parent: { type: "string", description: "The owning group's uid; absent for a person (people belong to no group).", optional: true },
  extra: {
    found: {
      type: "boolean",
      description: "Whether an identity was found: always true unless `allowMissing` is set and none matches (then nothing else is set).",
    },
  },
  // Absent when nothing was found (allowMissing); a person has no relationship type, emails or company in the lookup.
  optional: (name) => name !== "found",
});

const time = (what: string) => ({ type: "string", description: `${what} (RFC 3339).` }) satisfies ResultField;
const text = (description: string) => ({ type: "string", description }) satisfies ResultField;
const texts = (description: string) => ({ type: "string[]", description }) satisfies ResultField;
const optional = <F extends ResultField>(f: F) => ({ ...f, optional: true }) satisfies ResultField;
/** A named object of the vulnerabilities module. */
const advisoryObject = <F extends Record<string, ResultField>>(name: string, description: string, fields: F) =>
  ({ name, module: "vulnerabilities", description, fields }) satisfies ObjectDefinition;

export const RepoSyncConfig = {
  name: "RepoSyncConfig",
  module: "registry",
  description: "Where a repository's images are synced from, and to which cloud registries besides.",
  fields: {
    source: text("The repository synced from (its uid)."),
    uniqueTags: { type: "boolean", description: "Whether exported tags are uniquely labeled (the organization's setting)." },
    expirationTime: optional(time("When syncing stops")),
    google: text("A GCP Artifact Registry repository also synced to."),
    amazon: text("An AWS ECR repository also synced to."),
    azure: text("An Azure ACR repository also synced to."),
    apkoOverlay: text("The apko overlay applied when images are rebuilt during sync (set by the platform)."),
    gracePeriod: { type: "boolean", description: "Whether the end-of-life grace period is on (the organization's setting)." },
  },
} satisfies ObjectDefinition;

/** Field `name` of a repo (api/kinds/repos.ts), as the results report it. */
const repoField = (name: keyof typeof repos.fields) => kindField("repos", name);
/** Field `name` of a tag (api/kinds/tags.ts), as the results report it. */
const tagField = (name: keyof typeof tags.fields) => kindField("tags", name);

/**
 * A repo as the functions read it: its kind's fields but the parent, with irv-server's
 * `visibility`, and its times optional (the functions take a repo whose API leaves them out, as
 * api/resources.ts reads one).
 */
export const Repo = {
  name: "RepoResult",
  module: "registry",
  description: "An image repository, as the functions read it.",
  fields: {
    uid: text("The repository's uid."),
    name: repoField("name"),
    description: repoField("description"),
    catalogTier: repoField("catalogTier"),
    bundles: repoField("bundles"),
    aliases: repoField("aliases"),
    activeTags: repoField("activeTags"),
    // The block as the API returns it, with the members the platform sets, which the kind's request rule (`SyncConfig`) leaves out.
    syncConfig: { ...repoField("syncConfig"), type: "RepoSyncConfig" },
    // As the API writes it: the SDK's result leaves it untyped.
    customOverlay: { ...repoField("customOverlay"), type: "object" },
    visibility: optional(text("`public` or `private` where the API says (irv-server does); public repos need no credentials.")),
    // Which function reads it, not how a resource writes it (the kind's description).
    readme: optional({
      ...repoField("readme"),
      description: "Its README (Markdown), as the API's GetRepoReadme returns it: getRepo reads it; getRepos leaves it out.",
    }),
    createTime: optional(repoField("createTime")),
    updateTime: optional(repoField("updateTime")),
  },
} satisfies ObjectDefinition;

/** A tag as the functions read it: its kind's fields but the parent. */
export const Tag = {
  name: "TagResult",
  module: "registry",
  description: "A tag of a repository (its uid is under the repository's).",
  fields: {
    uid: text("The tag's uid."),
    name: tagField("name"),
    digest: tagField("digest"),
    updateTime: tagField("updateTime"),
    deprecated: tagField("deprecated"),
    bundles: tagField("bundles"),
  },
} satisfies ObjectDefinition;

export const AdvisorySeverity = advisoryObject("AdvisorySeverity", "A severity score of the vulnerability an advisory concerns.", {
  type: text("How it is scored: `TYPE_CVSS_V2`, `TYPE_CVSS_V3`, `TYPE_CVSS_V4` (or `TYPE_UNSPECIFIED`)."),
  score: text("The score: a CVSS vector, or a number, as the type says."),
});

export const AdvisoryNote = advisoryObject(
  "AdvisoryNote",
  "An event that carries only a comment (a true positive, analysis or fix not planned, a pending upstream fix).",
  { note: text("Why.") },
);

export const AdvisoryNvdApiDetection = advisoryObject("AdvisoryNvdApiDetection", "A detection through the NVD API.", {
  cpeSearched: text("The name or keyword searched."),
  cpeFound: text("The CPE found that matches the artifact."),
});

export const AdvisoryManualDetection = advisoryObject("AdvisoryManualDetection", "A manual detection (it carries nothing more).", {});

export const AdvisoryScanDetection = advisoryObject("AdvisoryScanDetection", "A detection by a scanner, with what it matched.", {
  scanner: text("The scanner."),
  subpackage: text("The subpackage it was found in (the advisory's artifact)."),
  componentId: text("The scanner's id of the component."),
  component: text("The component's name."),
  componentVersion: text("The component's version."),
  componentType: text("The component's type."),
  componentLocation: text("Where the component sits in the subpackage."),
  artifactVersion: text("The version of the artifact scanned."),
  scannerVersion: text("The scanner's (grype's) version."),
  grypeDbBuilt: text("When the grype database used was built (RFC 3339)."),
  grypeDbChecksum: text("The grype database's checksum."),
});

export const AdvisoryDetection = advisoryObject("AdvisoryDetection", "How a vulnerability was detected: exactly one of its members is set.", {
  nvdapi: { type: "AdvisoryNvdApiDetection", description: "Through the NVD API.", optional: true },
  manual: { type: "AdvisoryManualDetection", description: "By hand.", optional: true },
  scanv1: { type: "AdvisoryScanDetection", description: "By a scanner.", optional: true },
});

export const AdvisoryFixed = advisoryObject("AdvisoryFixed", "The vulnerability is fixed from a version on.", {
  fixedVersion: text("The first version of the artifact in which it is fixed."),
  note: text("Comments on the fix."),
  scannerVersion: text("The scanner's (grype's) version that found it fixed."),
  grypeDbBuilt: text("When the grype database used was built (RFC 3339)."),
  grypeDbChecksum: text("The grype database's checksum."),
});

export const AdvisoryFalsePositive = advisoryObject("AdvisoryFalsePositive", "The vulnerability does not affect the artifact.", {
  type: text("Why not: a `TYPE_*` of the API's FalsePositiveDetermination (e.g. `TYPE_VULNERABLE_CODE_NOT_IN_EXECUTION_PATH`)."),
  note: text("Comments."),
});

export const AdvisoryPatched = advisoryObject("AdvisoryPatched", "The artifact was patched against the vulnerability.", {
  patchedVersions: texts("The versions of the artifact patched."),
  note: text("Comments on the patch."),
});

const event = (type: string, description: string): ResultField => ({ type, description, optional: true });

export const AdvisoryEvent = advisoryObject(
  "AdvisoryEvent",
  "A step in an advisory's life. Exactly one of `detection`, `fixed`, `falsePositiveDetermination`, `analysisNotPlanned`, `fixNotPlanned`, `pendingUpstreamFix`, `truePositiveDetermination` and `patched` is set.",
  {
    uid: text("The event's uid (under the advisory's)."),
    createTime: optional(time("When it was recorded")),
    findings: text("The scanner's findings: JSON, base64-encoded."),
    author: text("Who recorded it."),
    reviewer: text("Who reviewed it."),
    reviewState: text(
      "Its review: `REVIEW_STATE_PENDING`, `REVIEW_STATE_APPROVED`, `REVIEW_STATE_REQUEST_CHANGES`, `REVIEW_STATE_REJECTED` (or `REVIEW_STATE_UNSPECIFIED`).",
    ),
    issue: optional(text("The CVE dashboard issue it came from.")),
    detection: event("AdvisoryDetection", "The vulnerability was detected."),
    fixed: event("AdvisoryFixed", "It is fixed from a version on."),
    falsePositiveDetermination: event("AdvisoryFalsePositive", "It does not affect the artifact."),
    analysisNotPlanned: event("AdvisoryNote", "No analysis is planned."),
    fixNotPlanned: event("AdvisoryNote", "No fix is planned."),
    pendingUpstreamFix: event("AdvisoryNote", "A fix is pending upstream."),
    truePositiveDetermination: event("AdvisoryNote", "It does affect the artifact."),
    patched: event("AdvisoryPatched", "The artifact was patched."),
  },
);

export const Advisory = advisoryObject("Advisory", "A vulnerability advisory: how one vulnerability relates to one component of one artifact.", {
  uid: text("The advisory's uid."),
  advisoryId: text("Its id, e.g. `CGA-xxxx-xxxx-xxxx`."),
  createTime: optional(time("When it was created")),
  updateTime: optional(time("When it was last updated")),
  deleteTime: optional(time("When it was deleted, if it was")),
  author: text("Who created it."),
  artifactName: text("The artifact it concerns (a package, an image)."),
  artifactType: text("The artifact's type (`apk`, `image`, ...)."),
  artifactArchitecture: text("The artifact's architecture."),
  componentName: text("The vulnerable component."),
  componentLocation: text("Where the component sits in the artifact."),
  componentType: text("The component's ecosystem (`go-module`, `python`, ...)."),
  aliases: texts("CVE, GHSA and other ids of the vulnerability."),
  events: { type: "AdvisoryEvent[]", description: "Its history, oldest first." },
  legacyAdvisoryId: optional(text("Its id in the GitHub advisory repositories, if it was migrated from there.")),
  severities: { type: "AdvisorySeverity[]", description: "Scores of the vulnerability (from its aliases' records)." },
});

const flag = (description: string) => ({ type: "boolean", description }) satisfies ResultField;

export const PackageVersionSource = {
  name: "PackageVersionSource",
  module: "registry",
  description: "Where a version stream is built from.",
  fields: { ref: text("The source's ref (a branch or tag)."), sha: text("The commit built.") },
} satisfies ObjectDefinition;

export const PackageVersion = {
  name: "PackageVersion",
  module: "registry",
  description: "One version stream of a package (the API's `PackageVersion`).",
  fields: {
    version: text("The stream, e.g. `22` or `3.13`."),
    latestVersion: text("The latest version of this stream."),
    releaseDate: text("When the stream was first released."),
    eolDate: text("When the stream reaches (or reached) its end of life."),
    exists: flag("Whether the package of this stream exists in an APK repository."),
    fips: flag("Whether a FIPS-enabled package of this stream exists."),
    lts: flag("Whether upstream calls this stream long-term support."),
    eolBroken: flag("Whether an end-of-life stream can no longer be built (its dependencies are gone)."),
    versionSource: { type: "PackageVersionSource", description: "Where it is built from, when the platform says.", optional: true },
  },
} satisfies ObjectDefinition;

export const PackageVersionMetadata = {
  name: "PackageVersionMetadata",
  module: "registry",
  description: "A package's version streams and end-of-life data, as the API's registry v1 GetPackageVersionMetadata returns them.",
  fields: {
    latestVersion: text("The latest version of the software."),
    lastUpdatedTimestamp: text("When this data was last updated."),
    gracePeriodMonths: { type: "number", description: "The months of grace by which end of life is extended (0: none)." },
    versions: { type: "PackageVersion[]", description: "The streams still supported, newest first." },
    eolVersions: { type: "PackageVersion[]", description: "The streams past their end of life." },
  },
} satisfies ObjectDefinition;

export const Versions = {
  name: "VersionsResult",
  module: "registry",
  description: "A package and its version metadata.",
  fields: {
    package: text("The package asked for."),
    versions: { type: "PackageVersionMetadata", description: "Its version streams and end-of-life data." },
  },
} satisfies ObjectDefinition;

/** Every named object, for resolving field types such as `AdvisorySeverity[]`. */
export const OBJECTS: readonly ObjectDefinition[] = [
  GroupResult,
  RoleResult,
  IdentityResult,
  RepoSyncConfig,
  Repo,
  Tag,
  AdvisorySeverity,
  AdvisoryNote,
  AdvisoryNvdApiDetection,
  AdvisoryManualDetection,
  AdvisoryScanDetection,
  AdvisoryDetection,
  AdvisoryFixed,
  AdvisoryFalsePositive,
  AdvisoryPatched,
  AdvisoryEvent,
  Advisory,
  PackageVersionSource,
  PackageVersion,
  PackageVersionMetadata,
  Versions,
];
