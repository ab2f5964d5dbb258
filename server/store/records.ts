/**
 * What the store holds for each kind. Most records are exactly the API's response shape
 * (api/resources.ts); where the wire differs (hydrated bindings, write-only secrets, create-only
 * codes) the record keeps references and hashes and the model renders the wire shape.
 */
import type { resources } from "../../api";
import type { ClaimMatch, StaticKeys, AwsIdentity } from "../../api/bodies";

export interface GroupRecord {
  uid: string;
  name: string;
  description: string;
  resourceLimits: Record<string, never>;
  verified: boolean;
  createTime: string;
  updateTime: string;
}

export interface IdentityRecord {
  uid: string;
  name: string;
  description: string;
  claimMatch?: ClaimMatch;
  staticKeys?: StaticKeys;
  awsIdentity?: AwsIdentity;
  servicePrincipal?: string;
  /** Shown on bindings' hydrated identity; set for the start-up admin only. */
  email: string;
  lastSeenTime: string;
  createTime: string;
  updateTime: string;
}

export interface RoleRecord {
  uid: string;
  name: string;
  description: string;
  capabilities: string[];
  createTime: string;
  updateTime: string;
  /** Built-in roles live at the root and are read-only. */
  builtin: boolean;
}

/** A binding keeps uids; the model hydrates identity, group and role when rendering. */
export interface RoleBindingRecord {
  uid: string;
  identityUid: string;
  roleUid: string;
  createTime: string;
}

export interface IdentityProviderRecord {
  uid: string;
  name: string;
  description: string;
  defaultRole: string;
  oidc: { issuer: string; clientId: string; additionalScopes: string[] };
  /** sha256 of the write-only client secret: never rendered, never logged. */
  clientSecretHash: string;
  createTime: string;
  updateTime: string;
}

export type AccountAssociationRecord = resources.AccountAssociation;

export interface GroupInviteRecord {
  uid: string;
  roleUid: string;
  email: string;
  singleUse: boolean;
  expirationTime: string;
  keyId: string;
  /** sha256 of the invite code: the code itself is returned by create only. */
  codeHash: string;
  createTime: string;
}

/** Who may read a repo (and its tags) without a token. */
export type Visibility = "public" | "private";
export type RepoRecord = resources.Repo & { visibility: Visibility };
export type TagRecord = resources.Tag;
export type AdvisoryRecord = resources.Advisory;
