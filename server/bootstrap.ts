/**
 * A fresh organization: its root group, the built-in roles, and the admin identity that the
 * start-line token belongs to, bound to the built-in owner role at the root.
 */
import { builtinRoleUid, builtinRoles } from "./model/roles";
import { bindingRecord } from "./model/roleBindings";
import { groupRecord } from "./model/groups";
import type { Store } from "./store";

/** What bootstrap made. */
export interface Bootstrapped {
  adminUid: string;
}

/** Puts the root group, built-in roles, admin identity and its owner binding into `store`. */
export function bootstrap(store: Store, organization: string, organizationName: string, now: string): Bootstrapped {
  store.groups.insert(
    groupRecord({ uid: organization, name: organizationName, description: "The organization (root group).", createTime: now, updateTime: now }),
  );
  store.roles.bulkLoad(builtinRoles());
  // Fixed segments so the admin is recognisable; they cannot collide with random 8-byte uids in practice.
  const adminUid = `${organization}/0000000000000001`;
  store.identities.insert({
    uid: adminUid,
    name: "admin",
    description: "Organization owner: the identity of the irv-server start-line token.",
    company: "",
    email: "admin@irv-server.local",
    emailUnverified: "",
    lastSeenTime: now,
    createTime: now,
    updateTime: now,
  });
  store.putBinding(bindingRecord(`${organization}/0000000000000002`, adminUid, builtinRoleUid("owner"), now));
  return { adminUid };
}
