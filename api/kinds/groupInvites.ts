import { z } from "zod";
import * as f from "../fields";
import { common, defineKind, expiryProblem, type InputIssue } from "./definition";

/** A protobuf Duration as JSON: seconds with an `s`, e.g. `86400s`. */
export const DURATION = /^\d+(\.\d{1,9})?s$/;
/** The longest an invite may live. */
export const INVITE_MAX_TTL_SECONDS = 30 * 24 * 3600;
/** How long an invite lives when neither `ttl` nor `expirationTime` is given. */
export const INVITE_DEFAULT_TTL_SECONDS = 7 * 24 * 3600;

/** An invite's lifetime as its inputs give it: a `ttl`, an `expirationTime`, or neither. */
interface Lifetime {
  ttl?: string;
  expirationTime?: string;
}

/**
 * The problems of an invite's lifetime at `now`: an expiration in the past or more than
 * INVITE_MAX_TTL_SECONDS ahead, a ttl outside 1s to that. The server refuses them; check reports
 * them at preview. Values that are not yet known (or not well-formed, which the schema reports)
 * are skipped.
 */
export function lifetimeIssues(i: Lifetime, now: number, known: (v: string) => boolean = () => true): InputIssue[] {
  const issues: InputIssue[] = [];
  if (typeof i.expirationTime === "string" && known(i.expirationTime)) {
    const problem = expiryProblem(i.expirationTime, now, INVITE_MAX_TTL_SECONDS / 86_400);
    if (problem) issues.push({ path: ["expirationTime"], message: problem });
  }
  if (typeof i.ttl === "string" && DURATION.test(i.ttl)) {
    const s = parseFloat(i.ttl);
    if (s <= 0 || s > INVITE_MAX_TTL_SECONDS) issues.push({ path: ["ttl"], message: `must be between 1s and ${INVITE_MAX_TTL_SECONDS}s` });
  }
  return issues;
}

/** The lifetime of a `ttl`, ms (at least 1: a positive ttl below a millisecond must not make an invite already expired). */
export function ttlMs(ttl: string): number {
  return Math.max(1, Math.round(parseFloat(ttl) * 1000));
}

/** When an invite made at `now` with a lifetime that passed `lifetimeIssues` expires: as given, after its ttl, or after the default. */
export function expiresAt(i: Lifetime, now: number): { expirationTime: string } {
  const t = i.expirationTime !== undefined ? Date.parse(i.expirationTime) : now + (i.ttl !== undefined ? ttlMs(i.ttl) : INVITE_DEFAULT_TTL_SECONDS * 1000);
  return { expirationTime: new Date(t).toISOString() };
}

/** Whether an invite `live` lives exactly `ttl` (an imported invite has no ttl in state: a program's ttl matches then). */
export function livesFor(live: { expirationTime?: unknown; createTime?: unknown }, ttl: string): boolean {
  return DURATION.test(ttl) && ttlMs(ttl) === Date.parse(String(live.expirationTime)) - Date.parse(String(live.createTime));
}

/** Every input of an invite replaces it: the API cannot update one. */
export const groupInvites = defineKind({
  kind: "groupInvites",
  className: "GroupInvite",
  label: "group invite",
  parentField: "groupUid",
  exported: false,
  defaultOrder: "create_time desc",
  capability: "group_invites",
  description: "An invitation to join a group with a role. Its `code` is secret.",
  atMostOne: ["ttl", "expirationTime"],
  example: {
    name: "security-invite",
    inputs: { groupUid: "${group}", roleUid: "${role}", ttl: "86400s", singleUse: true },
    notes: ["Invites cannot be updated: changing any input replaces the invite.", "Give `ttl` or `expirationTime`. The `code` output is secret and returned by create only."],
    importNotes: ["An imported invite declares its expiration time (or the `ttl` it was made with); its `code` is null, because only create returns it."],
  },
  fields: {
    groupUid: common.groupUid("The group the invitee joins."),
    roleUid: { type: "string", description: "The role the invitee gets.", input: true, replace: true, refersTo: "roles", schema: f.uid, read: z.string() },
    ttl: {
      type: "string",
      description: 'Lifetime in seconds ("86400s"); input only. Or give `expirationTime`.',
      input: true,
      replace: true,
      writeOnly: true,
      schema: z.string().regex(DURATION, 'must be a duration in seconds such as "86400s"').optional(),
    },
    expirationTime: {
      type: "string",
      description: "When the invite expires (RFC 3339); computed from `ttl` when omitted.",
      input: true,
      replace: true,
      computedWhenOmitted: true,
      schema: f.timestamp.optional(),
      read: z.string(),
    },
    email: { type: "string", description: "The invitee's email, if the invite is for one person.", input: true, replace: true, default: "", schema: z.email({ message: "must be an email address" }).optional(), read: z.string().default("") },
    singleUse: { type: "boolean", description: "Whether the invite works once only.", input: true, replace: true, default: false, schema: z.boolean().optional(), read: z.boolean().default(false) },
    keyId: { type: "string", description: "The invite's key id.", read: z.string() },
    /** Present in the create response only. */
    code: { type: "string | null", description: "The invite code: returned by create only, so null for an adopted or read-only invite.", secret: true, writeOnly: true, read: z.string().optional() },
    createTime: common.createTime,
  },
});
