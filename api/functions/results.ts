/**
 * The objects the functions return. Groups, roles and identities are their kinds' fields (from
 * api/kinds); repositories, tags and advisories are read-only collections with no kind, so their
 * fields are described here.
 */
import { common } from "../kinds";
import { kindResult, type ObjectDefinition } from "./definition";

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
  parent: { type: "string", description: "The owning group's uid.", optional: true },
});

export const Repo = {
  name: "Repo",
  module: "registry",
  description: "An image repository.",
  fields: {
    uid: { type: "string", description: "The repository's uid." },
    name: { type: "string", description: "Its name, e.g. `nginx`." },
    description: common.description,
    catalogTier: { type: "string", description: "Its catalog tier (`FREE`, `PREMIUM`, ...)." },
    aliases: { type: "string[]", description: "Other names it is known by." },
    bundles: { type: "string[]", description: "The bundles it belongs to." },
    activeTags: { type: "string[]", description: "The tags currently maintained." },
    visibility: { type: "string", description: "`public` or `private` where the API says (irv-server does); public repos need no credentials.", optional: true },
    createTime: common.createTime,
    updateTime: common.updateTime,
  },
} satisfies ObjectDefinition;

export const Tag = {
  name: "Tag",
  module: "registry",
  description: "A tag of a repository (its uid is under the repository's).",
  fields: {
    uid: { type: "string", description: "The tag's uid." },
    name: { type: "string", description: "The tag, e.g. `latest`." },
    digest: { type: "string", description: "The image digest it points at." },
    lastUpdated: { type: "string", description: "When it last moved (RFC 3339)." },
    deprecated: { type: "boolean", description: "Whether it is deprecated." },
    bundles: { type: "string[]", description: "The bundles it belongs to." },
    createTime: { ...common.createTime, optional: true },
  },
} satisfies ObjectDefinition;

export const AdvisorySeverity = {
  name: "AdvisorySeverity",
  module: "vulnerabilities",
  description: "A severity rating of an advisory by one source.",
  fields: {
    source: { type: "string", description: "Who rated it." },
    score: { type: "number", description: "The score (CVSS), when given.", optional: true },
    level: { type: "string", description: "The level (`LOW`, `HIGH`, ...), when given.", optional: true },
  },
} satisfies ObjectDefinition;

export const AdvisoryEvent = {
  name: "AdvisoryEvent",
  module: "vulnerabilities",
  description: "A step in an advisory's history.",
  fields: {
    type: { type: "string", description: "What happened (`DETECTED`, `FIXED`, ...)." },
    time: { type: "string", description: "When (RFC 3339)." },
  },
} satisfies ObjectDefinition;

export const Advisory = {
  name: "Advisory",
  module: "vulnerabilities",
  description: "A vulnerability advisory.",
  fields: {
    uid: { type: "string", description: "The advisory's uid." },
    advisoryId: { type: "string", description: "Its id, e.g. `CGA-xxxx-xxxx-xxxx`." },
    aliases: { type: "string[]", description: "CVE ids and other aliases." },
    artifactName: { type: "string", description: "The artifact it concerns." },
    artifactType: { type: "string", description: "The artifact's type." },
    artifactArchitecture: { type: "string", description: "The artifact's architecture." },
    componentName: { type: "string", description: "The vulnerable component." },
    componentType: { type: "string", description: "The component's type." },
    componentLocation: { type: "string", description: "Where the component sits in the artifact." },
    severities: { type: "AdvisorySeverity[]", description: "Its severity ratings." },
    events: { type: "AdvisoryEvent[]", description: "Its history." },
    createTime: common.createTime,
    updateTime: common.updateTime,
  },
} satisfies ObjectDefinition;

/** Every named object, for resolving field types such as `AdvisorySeverity[]`. */
export const OBJECTS: readonly ObjectDefinition[] = [GroupResult, RoleResult, IdentityResult, Repo, Tag, AdvisorySeverity, AdvisoryEvent, Advisory];
