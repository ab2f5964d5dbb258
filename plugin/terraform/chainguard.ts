/**
 * The platform's Terraform provider, `chainguard-dev/chainguard` v0.4.1, as facts: the resources
 * and data sources pulumi-irv takes over, each attribute and block with its Terraform schema
 * (type, required / optional / computed, replace on change, sensitive), as that provider declares
 * them (its `internal/provider/*.go`), and where each lands in pulumi-irv. The mapping the
 * resource plugin answers `pulumi convert` and `pulumi import` with (./mapping.ts) is derived
 * from this table and the kinds' and functions' definitions; nothing else names a Terraform
 * attribute.
 *
 * Where an attribute lands: by default the field of the camelCase name (`issuer_pattern` ->
 * `issuerPattern`), `to` where ours is named otherwise, `to: null` where nothing of ours holds it.
 * `note` says what a user must do by hand (a value written differently, an input that is an
 * output here); docs/from-terraform.md prints every note.
 */

import { SERVICE_PRINCIPALS } from "../../api/fields";

/** The provider's name in HCL (`chainguard_*`) and in the mapping requests. */
export const TERRAFORM_PROVIDER = "chainguard";
/** The provider's registry address and the version this table was written from. */
export const TERRAFORM_SOURCE = "chainguard-dev/chainguard";
export const TERRAFORM_VERSION = "0.4.1";

/** How a Terraform attribute is set: by the configuration, or by the provider. */
export type Use = "required" | "optional" | "computed" | "optional+computed";
/** A Terraform value type; `map`, `set` and `list` hold strings, `int-map` 32-bit integers. */
export type TfType = "string" | "bool" | "int" | "map" | "int-map" | "set" | "list";

interface Landing {
  /** Our name, when it is not the camelCase of the Terraform name; null when nothing holds the value. */
  to?: string | null;
  /** What a user must know or do by hand. */
  note?: string;
}

/** An attribute. */
export interface TfAttribute extends Landing {
  type: TfType;
  use: Use;
  forceNew?: true;
  sensitive?: true;
  deprecated?: string;
}

/**
 * A nested object: a block (`single`: `claim_match { ... }`, `list`: repeatable blocks) or a
 * nested attribute (`object`: one object, `object-list`: a list of them, as data sources return).
 */
export interface TfNested extends Landing {
  /** `object-map`: a map of objects (a data source's `version_map`), which nothing of ours holds. */
  nested: "single" | "list" | "object" | "object-list" | "object-map";
  use?: Use;
  forceNew?: true;
  deprecated?: string;
  attributes: Record<string, TfMember>;
}

export type TfMember = TfAttribute | TfNested;

/** A resource: the kind it becomes, and its attributes and blocks. */
export interface TfResource {
  kind: string;
  attributes: Record<string, TfMember>;
}

/** A data source: the function it becomes, and its attributes. */
export interface TfDataSource {
  function: string;
  attributes: Record<string, TfMember>;
  note?: string;
}

const a = (type: TfType, use: Use, more: Partial<TfAttribute> = {}): TfAttribute => ({ type, use, ...more });
const str = (use: Use, more: Partial<TfAttribute> = {}) => a("string", use, more);
/** Every resource's `id`: its uid. */
const ID = str("computed", { to: "uid" });
/** The group a resource lives in (`parent_id`, or `group`): our parent field, `groupUid`. */
const GROUP = str("required", { forceNew: true, to: "groupUid" });

const ORG_KIND = "pulumi-irv does not manage an organization's kind (a verified organization's, set by the platform): leave it out.";
/** Terraform names a service principal without the enum's prefix (`INGESTER`), which pulumi-irv takes as it is. */
const ours = SERVICE_PRINCIPALS.find((v) => v.endsWith("INGESTER")) ?? "INGESTER";
const SERVICE_PRINCIPAL = `Terraform's values as they are (\`INGESTER\`); pulumi-irv sends the API's \`${ours}\`, and takes that spelling too.`;
/** An invite's lifetime: the API takes a `ttl` and answers the expiration. */
const INVITE_EXPIRATION = 'An output in pulumi-irv: give the invite\'s lifetime as `ttl` (seconds, `"604800s"`) instead, and remove this.';
const GITHUB =
  "Not converted: Terraform flattens GitHub App installations (`app_id`, `installation_id`, `name`); restate them in the association's `github` block by hand.";

export const TERRAFORM_RESOURCES: Record<string, TfResource> = {
  chainguard_group: {
    kind: "groups",
    attributes: {
      id: ID,
      parent_id: str("optional", {
        forceNew: true,
        to: "parentUid",
        note: "Required in pulumi-irv: organizations (groups without a parent) belong to the platform, and a program refers to its organization by uid.",
      }),
      name: str("required"),
      description: str("optional"),
      verified: a("bool", "optional", { note: "An output in pulumi-irv: the platform verifies a group. Remove it from the converted program." }),
      verified_protection: a("bool", "optional", { to: null, note: "pulumi-irv never unverifies a group, so there is nothing to protect: remove it." }),
      kind: str("optional+computed", { to: null, note: ORG_KIND }),
      resource_limits: a("int-map", "computed", { to: "resourceLimits" }),
    },
  },
  chainguard_identity: {
    kind: "identities",
    attributes: {
      id: ID,
      parent_id: GROUP,
      name: str("required"),
      description: str("optional"),
      service_principal: str("optional", { forceNew: true, note: SERVICE_PRINCIPAL }),
      created_at: str("computed", { to: "createTime" }),
      updated_at: str("computed", { to: "updateTime" }),
      last_seen: str("computed", { to: "lastSeenTime" }),
      aws_identity: {
        nested: "single",
        attributes: {
          aws_account: str("optional"),
          aws_user_id: str("optional", { to: "userId" }),
          aws_user_id_pattern: str("optional", { to: "userIdPattern" }),
          aws_arn: str("optional", { to: "arn" }),
          aws_arn_pattern: str("optional", { to: "arnPattern" }),
        },
      },
      claim_match: {
        nested: "single",
        attributes: {
          issuer: str("optional"),
          issuer_pattern: str("optional"),
          subject: str("optional"),
          subject_pattern: str("optional"),
          claims: a("map", "optional"),
          claim_patterns: a("map", "optional"),
          audience: str("optional"),
          audience_pattern: str("optional"),
        },
      },
      static: {
        nested: "single",
        forceNew: true,
        to: "staticKeys",
        attributes: {
          issuer: str("optional"),
          subject: str("optional"),
          issuer_keys: str("optional"),
          expiration: str("optional", { to: "expirationTime" }),
        },
      },
    },
  },
  chainguard_role: {
    kind: "roles",
    attributes: {
      id: ID,
      name: str("required"),
      description: str("optional"),
      parent_id: GROUP,
      capabilities: a("set", "required", { note: "The same dotted names (`groups.list`, `role_bindings.create`)." }),
    },
  },
  chainguard_rolebinding: {
    kind: "roleBindings",
    attributes: {
      id: ID,
      group: GROUP,
      identity: str("required", { to: "identityUid" }),
      role: str("required", { to: "roleUid" }),
    },
  },
  chainguard_identity_provider: {
    kind: "identityProviders",
    attributes: {
      id: ID,
      parent_id: GROUP,
      name: str("required"),
      description: str("optional"),
      default_role: str("required", { to: "defaultRoleUid" }),
      oidc: {
        nested: "single",
        attributes: {
          issuer: str("optional"),
          client_id: str("optional"),
          client_secret: str("optional", {
            sensitive: true,
            note: "Secret in pulumi-irv's state too; give it from secret config (`pulumi config set --secret`) rather than the literal the conversion copies.",
          }),
          additional_scopes: a("list", "optional"),
        },
      },
    },
  },
  chainguard_account_associations: {
    kind: "accountAssociations",
    attributes: {
      id: ID,
      name: str("required"),
      description: str("optional"),
      group: GROUP,
      amazon: { nested: "single", attributes: { account: str("optional") } },
      google: { nested: "single", attributes: { project_id: str("optional"), project_number: str("optional") } },
      chainguard: { nested: "single", attributes: { service_bindings: a("map", "optional") } },
      azure: { nested: "single", attributes: { tenant_id: str("optional"), client_ids: a("map", "optional") } },
      // Our association has a `github` block too, of another shape: the converter writes these
      // members into it, and check names each as unknown.
      github: {
        nested: "single",
        note: GITHUB,
        deprecated: "Use github_installation blocks instead. This block supports only a single installation.",
        attributes: {
          host: str("computed", { to: null, deprecated: "This field is no longer populated and will be removed in a future version." }),
          app_id: a("int", "optional+computed", { to: null }),
          installation_id: a("int", "optional", { to: null }),
          name: str("optional", { to: null }),
        },
      },
      github_installation: {
        nested: "list",
        to: null,
        note: GITHUB,
        attributes: { app_id: a("int", "required"), installation_id: a("int", "required"), name: str("optional") },
      },
    },
  },
  chainguard_group_invite: {
    kind: "groupInvites",
    attributes: {
      id: ID,
      group: GROUP,
      expiration: str("required", { forceNew: true, to: "expirationTime", note: INVITE_EXPIRATION }),
      role: str("required", { forceNew: true, to: "roleUid" }),
      email: str("optional", { forceNew: true }),
      code: str("computed", { sensitive: true }),
    },
  },
  chainguard_image_repo: {
    kind: "repos",
    attributes: {
      id: ID,
      name: str("required"),
      parent_id: str("required", { forceNew: true, to: "parentUid" }),
      bundles: a("list", "optional"),
      readme: str("optional", {
        note: "Written after the repo with `UpdateRepoReadme` (the platform keeps it apart from the repo) and read back on refresh; left out, the live README is left alone, as Terraform leaves an unset optional attribute.",
      }),
      description: str("optional"),
      tier: str("optional", {
        to: "catalogTier",
        note: "Terraform's `APPLICATION` is taken as it is; it reads back as the API's enum name, `CATALOG_TIER_APPLICATION`.",
      }),
      aliases: a("list", "optional"),
      active_tags: a("list", "optional"),
      create_time: str("computed"),
      sync_config: {
        nested: "single",
        to: "syncConfig",
        attributes: {
          source: str("optional", { note: "Stored and read back as the source repo's uid: give the uid, or every preview shows a change." }),
          expiration: str("optional+computed", {
            to: null,
            note: "Set by the platform (14 days after creation): the repo's `syncConfig` output holds it as `expirationTime`; leave it out.",
          }),
          unique_tags: a("bool", "computed", { to: null, note: "The organization's setting: the `syncConfig` output holds it as `uniqueTags`." }),
          grace_period: a("bool", "optional+computed", {
            to: null,
            note: "The organization's setting: the `syncConfig` output holds it as `gracePeriod`; leave it out.",
          }),
          amazon: str("optional"),
          google: str("optional"),
          azure: str("optional"),
          apko_overlay: str("optional", { to: null, note: "Set by the platform: the `syncConfig` output holds it as `apkoOverlay`; leave it out." }),
        },
      },
    },
  },
  chainguard_image_tag: {
    kind: "tags",
    attributes: {
      id: ID,
      name: str("required", { note: "A new name replaces the tag here (the API has no update of a tag; Terraform's renames it through v1)." }),
      repo_id: str("required", { forceNew: true, to: "repoUid" }),
      bundles: a("list", "optional"),
      digest: str("computed", {
        note: "Terraform reads it; pulumi-irv's tag is created pointing at it (the API requires it): add `digest` to the converted resource.",
      }),
      deprecated: a("bool", "optional+computed", { note: "A change replaces the tag here (no update of a tag in the API's v2beta1)." }),
      last_updated: str("computed", { to: "updateTime" }),
    },
  },
  chainguard_image_repo_deployment: {
    kind: "repoDeployments",
    attributes: {
      // The deployment's id is its repo's: the one input naming the repo.
      id: str("required", { forceNew: true, to: "repoUid" }),
      charts: {
        nested: "object-list",
        use: "required",
        attributes: {
          repo: str("required"),
          source: str("optional"),
          chart: str("optional"),
        },
        note: "The same charts, member for member.",
      },
      ignore_errors: a("bool", "optional", {
        to: null,
        note: "pulumi-irv never hides a failed write: give the resource `retainOnDelete: true` (or `ignoreChanges`) where a refusal must not stop a run.",
      }),
    },
  },
  chainguard_subscription: {
    kind: "subscriptions",
    attributes: {
      id: ID,
      parent_id: str("required", { forceNew: true, to: "parentUid" }),
      sink: str("required", {
        forceNew: true,
        note: "Terraform takes a plain `http` sink and leaves the check to the API; pulumi-irv refuses one at preview, as the API refuses it: a sink must use the https scheme.",
      }),
    },
  },
};

/** What a role and a repository read as in a data source's `items`. */
const ROLE_ITEM = { id: str("computed", { to: "uid" }), name: str("computed"), description: str("computed"), capabilities: a("list", "computed") };
const repoItems = (use: Use): Record<string, TfMember> => ({
  id: str("computed", { to: "uid" }),
  name: str("computed"),
  bundles: a("list", use),
  readme: str(use, { note: "`getRepo` returns a repo's README (one more request a repo); `getRepos` leaves it out." }),
  tier: str(use, { to: "catalogTier" }),
  description: str("computed"),
  sync_config: {
    nested: "object",
    use,
    to: "syncConfig",
    attributes: {
      source: str("computed"),
      expiration: str("computed", { to: "expirationTime" }),
      unique_tags: a("bool", "computed", { to: "uniqueTags" }),
      grace_period: a("bool", "computed", { to: "gracePeriod" }),
      google: str("computed"),
      amazon: str("computed"),
      azure: str("computed"),
      apko_overlay: str("computed", { to: "apkoOverlay" }),
    },
  },
  aliases: a("list", use),
  active_tags: a("list", use),
});
/** A version stream in `chainguard_versions`: what Terraform reads of the API's `PackageVersion`. */
const versionStream = (more: Record<string, TfMember>): Record<string, TfMember> => ({
  ...more,
  exists: a("bool", "computed"),
  fips: a("bool", "computed"),
  release_date: str("computed"),
  version: str("computed"),
});
const UID_FILTER = "Give `ids: [<uid>]` instead: the function takes a list of uids.";

export const TERRAFORM_DATA_SOURCES: Record<string, TfDataSource> = {
  chainguard_group: {
    function: "getGroup",
    note: '`parent_id = "/"` (organizations only) has no counterpart: look an organization up by `uid`.',
    attributes: { id: str("optional", { to: "uid" }), name: str("optional"), description: str("computed"), parent_id: str("optional", { to: "parentUid" }) },
  },
  chainguard_identity: {
    function: "getIdentity",
    attributes: {
      id: str("computed", {
        to: "uid",
        note: "The same lookup (the platform's v1 `Identities.Lookup`): a person (`github\\|<id>` at `https://auth.chainguard.dev/`) or a workload identity whose claimMatch names exactly both. Where the HCL wraps a missing identity in `try(...)` and `compact()`, give `allowMissing: true` and keep the results whose `found` is true ([examples/github-team](../examples/github-team/README.md)).",
      }),
      issuer: str("required"),
      subject: str("required"),
    },
  },
  chainguard_role: {
    function: "getRoles",
    attributes: {
      id: str("optional", { to: null, note: UID_FILTER }),
      name: str("optional"),
      parent: str("optional", { to: "groupUid" }),
      items: { nested: "object-list", use: "computed", to: "roles", attributes: ROLE_ITEM },
    },
  },
  chainguard_image_repo: {
    function: "getRepos",
    attributes: {
      id: str("optional", { to: null, note: UID_FILTER }),
      name: str("optional"),
      parent_id: str("optional", { to: "childrenOf" }),
      items: { nested: "object-list", use: "computed", to: "repos", attributes: repoItems("optional") },
    },
  },
  chainguard_image_repos: {
    function: "getRepos",
    note: "Terraform's `name` matches part of a name; pulumi-irv's `name` matches the whole name.",
    attributes: {
      id: str("computed", { to: null, note: "A placeholder Terraform makes from the filters: nothing to carry over." }),
      name: str("optional"),
      parent_id: str("optional", { to: "childrenOf" }),
      items: { nested: "object-list", use: "computed", to: "repos", attributes: repoItems("computed") },
    },
  },
  chainguard_versions: {
    function: "getVersions",
    attributes: {
      package: str("required"),
      variant: str("optional", {
        to: null,
        note: "No counterpart: the API has no variants; each stream says whether a FIPS package of it exists (`fips`): keep the streams whose `fips` is true.",
      }),
      versions: {
        nested: "object",
        use: "computed",
        attributes: {
          eol_versions: { nested: "object-list", use: "computed", attributes: versionStream({ eol_date: str("computed"), eol_broken: a("bool", "computed") }) },
          grace_period_months: a("int", "computed"),
          last_updated_timestamp: str("computed"),
          latest_version: str("computed"),
          versions: { nested: "object-list", use: "computed", attributes: versionStream({}) },
        },
      },
      ordered_keys: a("list", "computed", {
        to: null,
        note: "Terraform sorts the streams' names itself: take `versions.versions[].version` (newest first, as the API orders them), and `versions.eolVersions[].version` after.",
      }),
      version_map: {
        nested: "object-map",
        use: "computed",
        attributes: {
          eol: a("bool", "computed"),
          eol_date: str("computed"),
          exists: a("bool", "computed"),
          fips: a("bool", "computed"),
          is_latest: a("bool", "computed"),
          lts: str("computed"),
          main: str("computed"),
          release_date: str("computed"),
          version: str("computed"),
        },
        to: null,
        note: "Terraform builds it from the streams: key `versions.versions` and `versions.eolVersions` by `version`; a stream is end of life when it is in `eolVersions`, and the latest when its `latestVersion` is the package's.",
      },
    },
  },
};

/**
 * What the Terraform provider manages that pulumi-irv does not: left out of the mapping, so the
 * converter reports them as having no mapping (docs/from-terraform.md lists them).
 */
export const NOT_MAPPED: { resources: string[]; dataSources: string[] } = {
  resources: ["chainguard_apko_build"],
  dataSources: [],
};
