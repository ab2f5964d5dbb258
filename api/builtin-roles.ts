/**
 * The built-in roles' uids: the platform's own roles live at the root and keep one uid each, the
 * same on every server (irv-server derives it from the name, as here). Whatever knows the names
 * knows the uids, with no API to ask: the policy pack judges `getRole({ name: "owner" })` without
 * credentials, and reviews name the role a `roleUid` holds.
 */
import { createHash } from "node:crypto";
import { BUILTIN_ROLES, type Capability } from "./capabilities";

/** The uid of the built-in role `name`: the sha1 of its name (40 hex). */
export function builtinRoleUid(name: string): string {
  return createHash("sha1").update(name).digest("hex");
}

const BY_UID: ReadonlyMap<string, { name: string; capabilities: readonly Capability[] }> = new Map(
  Object.entries(BUILTIN_ROLES).map(([name, r]) => [builtinRoleUid(name), { name, capabilities: r.capabilities }]),
);

/** The built-in role with uid `uid` (its name and capabilities), or undefined for any other uid. */
export function builtinRoleOf(uid: string): { name: string; capabilities: readonly Capability[] } | undefined {
  return BY_UID.get(uid);
}
