import { z } from "zod";
import { common, scalar } from "./common";
import { once } from "../once";
import { defineKind, REGISTRY_PACKAGE } from "./definition";
import { REPO_LIST_MAX } from "./repos";

/** A manifest digest as the registry writes it. */
export const digest = once(() => z.string().regex(/^sha256:[0-9a-f]{64}$/, "must be sha256:<64 lowercase hex>"));

/** A tag name, as OCI distribution allows one: a word character, then up to 127 of `[A-Za-z0-9_.-]`. */
export const tagName = once(() =>
  z.string().regex(/^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$/, "must be a tag: a letter, digit or _, then up to 127 of letters, digits, _, . and -"),
);

/**
 * A tag of an image repo (the platform's `chainguard.platform.registry.v2beta1.Tag`, and
 * `chainguard_image_tag` in its Terraform provider): a name in the repo that points at a manifest
 * digest. The service has Create (which creates or updates the tag of that name), Get, List and
 * Delete, no Update: a changed input replaces it, the old tag deleted first since the new one
 * takes its name. Tags are what pushes and syncs make by the hundred: `irv export` leaves them out.
 */
export const tags = defineKind({
  kind: "tags",
  module: "registry",
  className: "Tag",
  label: "tag",
  description: "A tag of an image repo: a name that points at a manifest digest.",
  parentField: "repoUid",
  proto: {
    package: REGISTRY_PACKAGE,
    service: "TagsService",
    message: "Tag",
    uid: 1,
    list: {
      filters: {
        name: { number: 2, type: "string" },
        updated_since: { number: 3, type: "google.protobuf.Timestamp" },
        include_referrers: { number: 4, type: "bool" },
        include_dates: { number: 5, type: "bool" },
        include_epochs: { number: 6, type: "bool" },
        digest: { number: 7, type: "string" },
      },
      paging: [10, 11, 12, 13],
    },
    noUpdate: true,
  },
  capability: "tag",
  // `updated`: registry v1's UpdateTag (v2beta1 has no update).
  events: {
    created: "dev.chainguard.api.platform.registry.tag.created.v1",
    updated: "dev.chainguard.api.platform.registry.tag.updated.v1",
    deleted: "dev.chainguard.api.platform.registry.tag.deleted.v1",
    group: "root",
  },
  deleteBeforeReplace: true,
  exported: false,
  example: {
    name: "stable",
    inputs: { repoUid: "${repo}", name: "stable", digest: "sha256:0f8a5e2c1b4d7e9f0a3c6b8d1e4f7a2c5b8e1d4f7a0c3b6e9d2f5a8c1b4e7d0a" },
    notes: ["Tags cannot be updated: any change replaces the tag (the old one is deleted first, since the new one takes its name)."],
  },
  fields: () => ({
    repoUid: common.repoUid("The repo the tag is in."),
    name: scalar(
      { number: 2, type: "string", behavior: ["REQUIRED"] },
      {
        description: "The tag, e.g. `stable`.",
        input: true,
        replace: true,
        schema: tagName(),
      },
    ),
    digest: scalar(
      { number: 3, type: "string", behavior: ["REQUIRED"] },
      {
        description: "The digest of the manifest it points at (`sha256:<64 hex>`).",
        input: true,
        replace: true,
        schema: digest(),
      },
    ),
    deprecated: scalar(
      { number: 5, type: "bool", behavior: ["OPTIONAL"] },
      {
        description: "Whether it is deprecated.",
        input: true,
        replace: true,
        default: false,
        schema: z.boolean().optional(),
      },
    ),
    bundles: scalar(
      { number: 6, type: "string", repeated: true, behavior: ["OPTIONAL"] },
      {
        description: "Sales grouping labels.",
        input: true,
        replace: true,
        default: [],
        schema: z.array(z.string().min(1, "must not be empty")).max(REPO_LIST_MAX, `must hold at most ${REPO_LIST_MAX} bundles`).optional(),
      },
    ),
    updateTime: scalar(
      { number: 4, type: "google.protobuf.Timestamp", behavior: ["OUTPUT_ONLY"] },
      {
        description: "When it last moved (RFC 3339).",
        read: z.string().optional(),
      },
    ),
  }),
});
