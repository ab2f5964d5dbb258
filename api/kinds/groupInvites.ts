import { z } from "zod";
import * as f from "../fields";
import type { Known } from "./derive";
import { common, numbered, scalar, named, type InputIssue } from "./common";
import { once } from "../once";
import { defineKind, IAM_PACKAGE, outputOnly } from "./definition";

/** A protobuf Duration as JSON: seconds with an `s`, e.g. `86400s`. */
export const DURATION = /^\d+(\.\d{1,9})?s$/;
/** The longest an invite may live. */
export const INVITE_MAX_TTL_SECONDS = 30 * 24 * 3600;

/**
 * The problem of an invite's `ttl` (a protobuf Duration, "86400s"): outside 1s to
 * INVITE_MAX_TTL_SECONDS. The server refuses it; check reports it at preview. A value not yet
 * known (or not well-formed, which the schema reports) is skipped.
 */
export function lifetimeIssues(i: { ttl?: unknown }, known: (v: string) => boolean = () => true): InputIssue[] {
  if (typeof i.ttl !== "string" || !known(i.ttl) || !DURATION.test(i.ttl)) return [];
  const s = parseFloat(i.ttl);
  return s <= 0 || s > INVITE_MAX_TTL_SECONDS ? [{ path: ["ttl"], message: `must be between 1s and ${INVITE_MAX_TTL_SECONDS}s` }] : [];
}

/** The lifetime of a `ttl`, ms (at least 1: a positive ttl below a millisecond must not make an invite already expired). */
export function ttlMs(ttl: string): number {
  return Math.max(1, Math.round(parseFloat(ttl) * 1000));
}

/** When an invite made at `now` with `ttl` expires. */
export function expiresAt(ttl: string, now: number): { expirationTime: string } {
  return { expirationTime: new Date(now + ttlMs(ttl)).toISOString() };
}

/** The `ttl` an invite `live` was made with (its expiration less its creation), as a Duration: what an import declares. */
export function ttlOf(live: { expirationTime?: unknown; createTime?: unknown }): string | undefined {
  const ms = Date.parse(String(live.expirationTime)) - Date.parse(String(live.createTime));
  return Number.isFinite(ms) && ms > 0 ? `${ms % 1000 === 0 ? ms / 1000 : (ms / 1000).toFixed(3)}s` : undefined;
}

/** Whether an invite `live` lives exactly `ttl` (an imported invite has no ttl in state: a program's ttl matches then). */
export function livesFor(live: { expirationTime?: unknown; createTime?: unknown }, ttl: string): boolean {
  return DURATION.test(ttl) && ttlMs(ttl) === Date.parse(String(live.expirationTime)) - Date.parse(String(live.createTime));
}

/** The role an invite grants, as the API hydrates it. */
export type InviteRole = Known<z.output<ReturnType<typeof inviteRole>>>;
/** The role an invite grants, as the API hydrates it (its capabilities by friendly name). */
export const inviteRole = once(() =>
  z
    .looseObject({
      uid: z.string().describe("The role's uid."),
      name: z.string().describe("The role's name."),
      description: z.string().default("").describe("The role's description."),
      capabilities: z.array(z.string()).default([]).describe("The role's capabilities."),
    })
    .meta({ id: "InviteRole", description: "The role a group invite grants, as the API hydrates it." }),
);

/** Every input of an invite replaces it: the API cannot update one. */
export const groupInvites = defineKind({
  kind: "groupInvites",
  module: "iam",
  className: "GroupInvite",
  label: "group invite",
  parentField: "groupUid",
  exported: false,
  proto: {
    package: IAM_PACKAGE,
    service: "GroupInvitesService",
    message: "GroupInvite",
    uid: 1,
    list: { filters: { key_id: { number: 2, type: "string" } }, paging: [3, 4, 5, 6] },
    noUpdate: true,
    messages: [
      {
        name: "GroupInviteRole",
        fields: {
          uid: outputOnly(1),
          name: outputOnly(2),
          description: outputOnly(3),
          capabilities: { ...outputOnly(4, "chainguard.capabilities.Capability"), repeated: true },
        },
      },
    ],
  },
  defaultOrder: "create_time desc",
  capability: "group_invites",
  events: {
    created: "dev.chainguard.api.iam.group_invite.created.v1",
    deleted: "dev.chainguard.api.iam.group_invite.deleted.v1",
    keep: ["uid", "expirationTime"],
  },
  description: "An invitation to join a group with a role. Its `code` is secret.",
  example: {
    name: "security-invite",
    inputs: { groupUid: "${group}", roleUid: "${role}", ttl: "86400s", singleUse: true },
    notes: [
      "Invites cannot be updated: changing any input replaces the invite.",
      "`ttl` is required; `expirationTime` is what the API computes from it. The `code` output is secret and returned by create only.",
    ],
    importNotes: [
      "An imported invite declares the `ttl` it was made with (its expiration less its creation); its `code` is null, because only create returns it.",
    ],
  },
  fields: () => ({
    groupUid: common.groupUid("The group the invitee joins."),
    roleUid: scalar(
      { number: 2, type: "string", behavior: ["REQUIRED"] },
      {
        description: "The role the invitee gets.",
        input: true,
        replace: true,
        refersTo: "roles",
        schema: f.uid(),
      },
    ),
    ttl: scalar(
      { number: 4, type: "google.protobuf.Duration", behavior: ["REQUIRED", "INPUT_ONLY"] },
      {
        description: 'How long the invite lives, in seconds ("86400s"); input only: the API answers `expirationTime`.',
        input: true,
        replace: true,
        writeOnly: true,
        schema: z.string().regex(DURATION, 'must be a duration in seconds such as "86400s"'),
      },
    ),
    expirationTime: scalar(
      { number: 5, type: "google.protobuf.Timestamp", behavior: ["OUTPUT_ONLY"] },
      {
        description: "When the invite expires (RFC 3339): its creation plus `ttl`.",
        read: z.string(),
      },
    ),
    email: scalar(
      { number: 3, type: "string" },
      {
        description: "The invitee's email, if the invite is for one person.",
        input: true,
        replace: true,
        default: "",
        schema: z.email({ message: "must be an email address" }).optional(),
      },
    ),
    singleUse: scalar(
      { number: 6, type: "bool" },
      {
        description: "Whether the invite works once only.",
        input: true,
        replace: true,
        default: false,
        schema: z.boolean().optional(),
      },
    ),
    role: named({
      description: "The role the invitee gets, as the API hydrates it (absent once the role is gone).",
      proto: { number: 10, type: "GroupInviteRole", behavior: ["OUTPUT_ONLY"] },
      read: inviteRole().optional(),
    }),
    keyId: scalar({ number: 8, type: "string", behavior: ["OUTPUT_ONLY"] }, { description: "The invite's key id.", read: z.string() }),
    /** Present in the create response only. */
    code: {
      type: "string | null",
      description: "The invite code: returned by create only, so null for an adopted or read-only invite.",
      secret: true,
      writeOnly: true,
      proto: { number: 7, type: "string", behavior: ["OUTPUT_ONLY"] },
      read: z.string().optional(),
    },
    createTime: numbered.createTime(9),
  }),
});
