/**
 * Names for the uids a review shows: a `roleUid` is `owner`, a `parentUid` is the path of names
 * down to the group. From what the review already holds (the stack's state, the access models
 * before and after the change) and the built-in roles' constant uids; nothing is asked of the API.
 */
import type { Deployment } from "@pulumi/pulumi/automation";
import { builtinRoleOf } from "../../api/builtin-roles";
import { definitionOfTypeToken } from "../../api/kinds";
import { isUid, ROOT_UID } from "../../api/uid";
import type { AccessModel } from "../../policy/access";
import { nameOf } from "../engine/steps";
import type { ReviewChange } from "./report";

/** The name of each uid `changes` show, and of each group on the way down to it, by uid. */
export function namesOf(changes: readonly ReviewChange[], state: Deployment | undefined, models: readonly AccessModel[]): Record<string, string> {
  const known = new Map<string, string>();
  for (const r of (state?.deployment?.resources ?? []) as { urn: string; type: string; id?: string; outputs?: Record<string, unknown> }[]) {
    if (!r.id || !definitionOfTypeToken(r.type)) continue;
    const name = r.outputs?.name;
    known.set(r.id, typeof name === "string" && name ? name : nameOf(r.urn));
  }
  for (const m of models)
    for (const items of [m.groups, m.roles, m.subjects])
      for (const it of items.values()) if (it.uid && it.name && it.name !== it.uid && !known.has(it.uid)) known.set(it.uid, it.name);
  const out: Record<string, string> = {};
  const add = (uid: string) => {
    const builtin = builtinRoleOf(uid);
    const name = builtin?.name ?? known.get(uid);
    if (name) out[uid] = name;
  };
  for (const c of changes)
    for (const f of c.fields)
      for (const v of [f.before, f.after]) {
        if (typeof v !== "string" || !isUid(v)) continue;
        const parts = v.split("/");
        for (let i = 1; i <= parts.length; i++) add(parts.slice(0, i).join("/"));
      }
  return out;
}

/**
 * What `uid` is, in names, or undefined when nothing is known: a built-in role's name, or the path
 * of group names down to it (`organization / engineering / platform`), `…` where a group's name
 * is not known; `group` when a group is meant (a bare uid is then the organization). Each name goes
 * through `quote` (report text is data).
 */
export function namedUid(uid: string, names: Readonly<Record<string, string>>, quote: (s: string) => string, group = false): string | undefined {
  if (!isUid(uid)) return undefined;
  const parts = uid.split("/");
  // A bare 40-hex uid is a built-in role's, or, where a group is meant, the organization's.
  if (parts.length === 1) return names[uid] !== undefined ? quote(names[uid]) : group ? "organization" : undefined;
  const path = parts.map((_, i) => {
    const prefix = parts.slice(0, i + 1).join("/");
    return names[prefix] !== undefined ? quote(names[prefix]) : ROOT_UID.test(prefix) ? "organization" : "…";
  });
  return path.slice(1).every((p) => p === "…") ? undefined : path.join(" / ");
}
