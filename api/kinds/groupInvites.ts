import { common, defineKind } from "./definition";

/** Every input of an invite replaces it: the API cannot update one. */
export const groupInvites = defineKind({
  kind: "groupInvites",
  className: "GroupInvite",
  label: "group invite",
  parentField: "groupUid",
  capability: "group_invites",
  fields: {
    groupUid: common.groupUid("The group the invitee joins."),
    roleUid: { type: "string", description: "The role the invitee gets.", input: true, replace: true, refersTo: "roles" },
    ttl: { type: "string", description: 'Lifetime in seconds ("86400s"); input only. Or give `expirationTime`.', input: true, replace: true, writeOnly: true },
    expirationTime: { type: "string", description: "When the invite expires (RFC 3339); computed from `ttl` when omitted.", input: true, replace: true, computedWhenOmitted: true },
    email: { type: "string", description: "The invitee's email, if the invite is for one person.", input: true, replace: true, default: "" },
    singleUse: { type: "boolean", description: "Whether the invite works once only.", input: true, replace: true, default: false },
    keyId: { type: "string", description: "The invite's key id." },
    code: { type: "string | null", description: "The invite code: returned by create only, so null for an adopted or read-only invite.", secret: true, writeOnly: true },
    createTime: common.createTime,
  },
});
