/**
 * What the access model is computed over: an organization's groups, roles, the subjects that can
 * hold roles (identities, and the invites and identity providers that hand a role to whoever
 * redeems or signs in) and the grants binding a subject to a role on a group. Every item has a
 * `key`: its uid, or for a resource a program has not created yet, its URN; references are keys.
 */
import { KINDS } from "../../api/kinds";

/** A group; `parent` is absent for the organization itself (or a group whose parent is not known). */
export interface AccessGroup {
  key: string;
  name: string;
  uid?: string;
  parent?: string;
}

/** A role; `capabilities` is absent when they could not be read (then what it grants is unknown). */
export interface AccessRole {
  key: string;
  name: string;
  uid?: string;
  capabilities?: readonly string[];
}

/**
 * How a subject comes to hold a role: an identity by one of its relationship types, anyone who
 * redeems an invite, anyone who signs in through an identity provider.
 */
export type SubjectType = "claimMatch" | "staticKeys" | "awsIdentity" | "servicePrincipal" | "identity" | "invite" | "identityProvider";

/** Who can hold a role. */
export interface AccessSubject {
  key: string;
  name: string;
  uid?: string;
  type: SubjectType;
  /**
   * Why this subject stands for more than one principal (a claim match by pattern, an invite's
   * redeemers, an identity provider's users), or absent: a grant to it is a "maybe" for anyone.
   */
  maybe?: string;
}

/** Where a grant comes from: the kind of resource that makes it. */
export type GrantSource = "roleBindings" | "groupInvites" | "identityProviders";

/** A binding of a subject to a role on a group and everything below it. */
export interface AccessBinding {
  key: string;
  /** A readable name: the resource's logical name in a stack, else a description. */
  name: string;
  uid?: string;
  source: GrantSource;
  group: string;
  subject: string;
  role: string;
}

/** An organization as the model sees it, and what of it could not be seen. */
export interface Org {
  groups: AccessGroup[];
  roles: AccessRole[];
  subjects: AccessSubject[];
  bindings: AccessBinding[];
  /** What the source could not show (a list the caller may not make, a role it may not read), one sentence each. */
  unseen: string[];
}

/** An empty organization. */
export function emptyOrg(): Org {
  return { groups: [], roles: [], subjects: [], bindings: [], unseen: [] };
}

/** The capability prefixes of the IAM kinds (`groups`, `identity`, `role_bindings`, ...), from their definitions: a kind of another module changes no access. */
const IAM_PREFIXES: ReadonlySet<string> = new Set(KINDS.filter((d) => d.module === "iam").map((d) => d.capability));

/** True for a capability that changes IAM (creates, updates or deletes groups, identities, roles, bindings, ...). */
export function isIamWrite(capability: string): boolean {
  const dot = capability.lastIndexOf(".");
  return dot > 0 && IAM_PREFIXES.has(capability.slice(0, dot)) && capability.slice(dot + 1) !== "list";
}

/** The relationship types that make an identity a workload's (not a platform service's). */
const WORKLOAD_TYPES: ReadonlySet<SubjectType> = new Set(["claimMatch", "staticKeys", "awsIdentity"]);

/** True for an identity that a workload assumes with a token from outside (claims, static keys, AWS). */
export function isWorkload(s: AccessSubject): boolean {
  return WORKLOAD_TYPES.has(s.type);
}
