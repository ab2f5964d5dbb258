import { z } from "zod";
import * as f from "../fields";
import { CATALOG_TIERS, README_MAX } from "../registry";
import { withSuggestion } from "../suggest";
import { common, enumeration, numbered, scalar, named } from "./common";
import { once } from "../once";
import { defineKind, outputOnly, REGISTRY_PACKAGE, type ProtoField } from "./definition";

/** How long a synced repo keeps syncing when nobody says otherwise: the protos' "14 days from creation". */
export const SYNC_DAYS = 14;
/** The most bundles, aliases or active tags a repo takes: irv-server's bound (the platform states none). */
export const REPO_LIST_MAX = 100;

const label = () => z.string().min(1, "must not be empty").max(f.NAME_MAX, `must be at most ${f.NAME_MAX} characters`);
const labels = (what: string) => z.array(label()).max(REPO_LIST_MAX, `must hold at most ${REPO_LIST_MAX} ${what}`);

const TIER_PREFIX = "CATALOG_TIER_";
/** The tiers as the Terraform provider (and the v1 API) spells them: `APPLICATION`. */
const SHORT_TIERS = CATALOG_TIERS.filter((t) => t !== "CATALOG_TIER_UNSPECIFIED").map((t) => t.slice(TIER_PREFIX.length));

/** A repo's catalog tier, by its enum name (the Terraform provider's `APPLICATION` is taken too: see the codec). */
export const catalogTier = once(() =>
  z
    .enum(CATALOG_TIERS, {
      error: (iss) =>
        withSuggestion(`is not a catalog tier: one of ${SHORT_TIERS.join(", ")}, with or without the ${TIER_PREFIX} prefix`, iss.input, [
          ...CATALOG_TIERS,
          ...SHORT_TIERS,
        ]),
    })
    .meta({
      id: "CatalogTier",
      description:
        "A repo's catalog tier: `CATALOG_TIER_APPLICATION`, `CATALOG_TIER_BASE`, ... (`APPLICATION`, as the Terraform provider writes it, is taken too).",
    }),
);

/** A short tier (`BASE`) as the API's enum name; anything else as it is. */
const tierCodec = {
  toWire: (v: unknown) => (typeof v === "string" && SHORT_TIERS.includes(v) ? `${TIER_PREFIX}${v}` : v),
  fromWire: (v: unknown) => v,
};

/**
 * A repo's `sync_config`, as a request gives it: where its images come from, and which cloud
 * registries get them besides. The platform sets the rest (`uniqueTags`, `expirationTime`,
 * `apkoOverlay`, `gracePeriod`); a request that sends them has them ignored.
 */
export const syncConfig = once(() =>
  z
    .strictObject({
      source: f
        .required()
        .max(f.NAME_MAX, `must be at most ${f.NAME_MAX} characters`)
        .describe("The repo to sync from: its uid, or its catalog name (`chainguard/nginx`, `cgr.dev/chainguard/nginx`). The API stores and returns the uid."),
      google: z.string().max(f.NAME_MAX).optional().describe("A GCP Artifact Registry repository to sync the images to besides."),
      amazon: z.string().max(f.NAME_MAX).optional().describe("An AWS ECR repository to sync the images to besides."),
      azure: z.string().max(f.NAME_MAX).optional().describe("An Azure ACR repository to sync the images to besides."),
    })
    .meta({ id: "SyncConfig", description: "Where a repo's images are synced from, and which cloud registries they are synced to besides." }),
);
export type SyncConfigInput = z.infer<ReturnType<typeof syncConfig>>;
/** A repo's `syncConfig` as a program gives it and reads it back: the request's members, and those the platform sets. */
export type SyncConfigValue = SyncConfigInput & { uniqueTags?: boolean; expirationTime?: string; apkoOverlay?: string; gracePeriod?: boolean };

const readSync = once(() =>
  z.looseObject({
    source: z.string().default(""),
    google: z.string().default(""),
    amazon: z.string().default(""),
    azure: z.string().default(""),
    uniqueTags: z.boolean().default(false),
    expirationTime: z.string().optional(),
    apkoOverlay: z.string().default(""),
    gracePeriod: z.boolean().default(false),
  }),
);

/** A repo's custom overlay as the API returns it (set by the platform for repos with custom assembly). */
const d = <T extends z.ZodType>(t: T, description: string) => t.optional().describe(description);
const entry = (id: string, description: string) =>
  z
    .looseObject({ name: z.string().default("").describe("Its file name."), content: z.string().default("").describe("Its PEM content.") })
    .meta({ id, description });
const OverlayUser = () =>
  z
    .looseObject({
      username: z.string().describe("The user name."),
      uid: d(z.number(), "The user id."),
      gid: d(z.number(), "The primary group id."),
      groupName: d(z.string(), "The primary group's name."),
      shell: d(z.string(), "The login shell."),
      homeDir: d(z.string(), "The home directory."),
    })
    .meta({ id: "OverlayUser", description: "A user account added to the image." });
const OverlayGroup = () =>
  z
    .looseObject({ groupname: z.string().describe("The group name."), gid: d(z.number(), "The group id."), members: d(z.array(z.string()), "Its members.") })
    .meta({ id: "OverlayGroup", description: "A group account added to the image." });
export const customOverlay = once(() =>
  z
    .looseObject({
      contents: d(
        z
          .looseObject({
            packages: d(z.array(z.string()), "Packages appended to the image."),
            runtimeRepositories: d(z.array(z.string()), "APK repository URLs written to /etc/apk/repositories."),
            runtimeKeyring: d(
              z.array(entry("RuntimeKeyringEntry", "An APK signing public key written to /etc/apk/keys.")),
              "APK signing public keys written to /etc/apk/keys.",
            ),
          })
          .meta({ id: "ImageContents", description: "Packages added to the image, and the APK repositories and keys it uses." }),
        "What the image holds beyond its own packages.",
      ),
      environment: d(z.record(z.string(), z.string()), "Environment variables set in the image."),
      annotations: d(z.record(z.string(), z.string()), "OCI annotations added to the image."),
      accounts: d(
        z
          .looseObject({
            runAs: d(z.string(), "The user the image runs as."),
            users: d(z.array(OverlayUser()), "User accounts added."),
            groups: d(z.array(OverlayGroup()), "Group accounts added."),
          })
          .meta({ id: "OverlayAccounts", description: "The user and group accounts of the image." }),
        "User and group accounts.",
      ),
      certificates: d(
        z
          .looseObject({
            additional: d(z.array(entry("CertificateEntry", "A certificate added to the image.")), "Certificates added."),
            providers: d(z.array(z.string()), "Packages that provide certificates."),
          })
          .meta({ id: "OverlayCertificates", description: "Certificates added to the image." }),
        "Certificates.",
      ),
    })
    .meta({ id: "CustomOverlay", description: "The apko configuration applied when a repo's images are rebuilt (custom assembly)." }),
);
export type CustomOverlay = z.infer<ReturnType<typeof customOverlay>>;

const str = (number: number): ProtoField => ({ number, type: "string" });
const strs = (number: number): ProtoField => ({ number, type: "string", repeated: true });
const map = (number: number): ProtoField => ({ number, type: "string", keyType: "string" });

/** The messages a repo's fields name, as `chainguard.platform.registry.v2beta1` nests them. */
const PROTO_MESSAGES = [
  {
    name: "SyncConfig",
    fields: {
      source: str(1),
      uniqueTags: outputOnly(2, "bool"),
      expirationTime: outputOnly(3, "google.protobuf.Timestamp"),
      google: str(4),
      amazon: str(5),
      azure: str(6),
      apkoOverlay: outputOnly(7),
      gracePeriod: outputOnly(8, "bool"),
    },
  },
  {
    name: "CustomOverlay",
    fields: {
      contents: { number: 1, type: "ImageContents" },
      environment: map(2),
      annotations: map(3),
      accounts: { number: 4, type: "Accounts" },
      certificates: { number: 5, type: "Certificates" },
    },
  },
  {
    name: "CustomOverlay.ImageContents",
    fields: { packages: strs(1), runtimeRepositories: strs(2), runtimeKeyring: { number: 3, type: "RuntimeKeyringEntry", repeated: true } },
  },
  { name: "CustomOverlay.ImageContents.RuntimeKeyringEntry", fields: { name: str(1), content: str(2) } },
  {
    name: "CustomOverlay.Accounts",
    fields: { runAs: str(1), users: { number: 2, type: "User", repeated: true }, groups: { number: 3, type: "Group", repeated: true } },
  },
  {
    name: "CustomOverlay.Accounts.User",
    fields: { username: str(1), uid: { number: 2, type: "int32" }, gid: { number: 3, type: "int32" }, groupName: str(4), shell: str(5), homeDir: str(6) },
  },
  { name: "CustomOverlay.Accounts.Group", fields: { groupname: str(1), gid: { number: 2, type: "int32" }, members: strs(3) } },
  { name: "CustomOverlay.Certificates", fields: { additional: { number: 1, type: "AdditionalEntry", repeated: true }, providers: strs(2) } },
  { name: "CustomOverlay.Certificates.AdditionalEntry", fields: { name: str(1), content: str(2) } },
] as const;

/**
 * An image repository of the registry (the platform's `chainguard.platform.registry.v2beta1.Repo`,
 * and `chainguard_image_repo` in its Terraform provider): a name under a group that images are
 * pushed or synced to. README: the platform keeps it apart from the repo (`GetRepoReadme`,
 * `UpdateRepoReadme`), so `readme` is a part of it (see `FieldDefinition.part`).
 */
export const repos = defineKind({
  kind: "repos",
  module: "registry",
  className: "Repo",
  label: "repo",
  description: "An image repository of the registry: a name under a group that images are pushed or synced to.",
  parentField: "parentUid",
  proto: {
    package: REGISTRY_PACKAGE,
    service: "ReposService",
    message: "Repo",
    uid: 1,
    list: { filters: { name: { number: 2, type: "string" } }, paging: [4, 5, 6, 7] },
    messages: PROTO_MESSAGES,
    enums: [{ name: "CatalogTier", values: Object.fromEntries(CATALOG_TIERS.map((t, i) => [t, i])) }],
  },
  capability: "repo",
  events: {
    created: "dev.chainguard.api.platform.registry.repo.created.v1",
    updated: "dev.chainguard.api.platform.registry.repo.updated.v1",
    deleted: "dev.chainguard.api.platform.registry.repo.deleted.v1",
  },
  example: {
    name: "nginx",
    inputs: { parentUid: "${group}", name: "nginx", description: "Our nginx, synced from the catalog", bundles: ["application"], activeTags: ["latest"] },
    notes: [
      "Changing the group replaces the repo; a new name renames it in place. Deleting a repo deletes its tags (the Terraform provider's delete leaves the repo behind; pulumi-irv's deletes it).",
      "A synced repo's source is stored as the source repo's uid: give the uid, or a catalog name once and then the uid the repo reads back, or every preview shows a change.",
    ],
  },
  fields: () => ({
    parentUid: common.groupUid("The group the repo lives in."),
    name: common.name("The repo's name, as images are pulled by it (`<registry>/<group>/<name>`).", 2),
    description: numbered.description(3),
    readme: {
      type: "string",
      description:
        "Its README (Markdown). The platform keeps it apart from the repo (`UpdateRepoReadme`): given, it is written after the repo and read back on refresh; left out, the live README is left alone.",
      input: true,
      computedWhenOmitted: true,
      part: { suffix: "readme", member: "content" },
      schema: z.string().max(README_MAX, `must be at most ${README_MAX} characters`).optional(),
    },
    catalogTier: enumeration(
      { number: 4, type: "CatalogTier", behavior: ["OPTIONAL"] },
      {
        description: "Its catalog tier (`CATALOG_TIER_APPLICATION`, `CATALOG_TIER_BASE`, ...); a synced repo takes its source's.",
        input: true,
        default: "CATALOG_TIER_UNSPECIFIED",
        codec: tierCodec,
        schema: catalogTier().optional(),
        read: z.string().default("CATALOG_TIER_UNSPECIFIED"),
      },
    ),
    bundles: scalar(
      { number: 5, type: "string", repeated: true, behavior: ["OPTIONAL"] },
      {
        description: "Sales grouping labels.",
        input: true,
        default: [],
        schema: labels("bundles").optional(),
      },
    ),
    aliases: scalar(
      { number: 7, type: "string", repeated: true, behavior: ["OPTIONAL"] },
      {
        description: "Other names of the same image.",
        input: true,
        default: [],
        schema: labels("aliases").optional(),
      },
    ),
    activeTags: scalar(
      { number: 8, type: "string", repeated: true, behavior: ["OPTIONAL"] },
      {
        description: "The tags actively maintained.",
        input: true,
        default: [],
        schema: labels("tags").optional(),
      },
    ),
    syncConfig: named({
      description: `Where its images are synced from (and to); the platform stops syncing ${SYNC_DAYS} days after creation unless it says otherwise.`,
      input: true,
      block: true,
      computedMembers: ["uniqueTags", "expirationTime", "apkoOverlay", "gracePeriod"],
      proto: { number: 9, type: "SyncConfig", name: "sync_config", json: "sync_config", behavior: ["OPTIONAL"] },
      schema: syncConfig().optional(),
      read: readSync().optional(),
    }),
    customOverlay: named({
      description: "The apko overlay applied when its images are rebuilt (repos with custom assembly; set by the platform).",
      proto: { number: 10, type: "CustomOverlay", behavior: ["OPTIONAL"] },
      read: customOverlay().optional(),
    }),
    createTime: numbered.createTime(11),
    updateTime: numbered.updateTime(12),
  }),
});
