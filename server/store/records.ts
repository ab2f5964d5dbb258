/**
 * What the store holds for each kind: the item as the API returns it, derived from the kind's
 * definition (api/kinds), with only what the store adds written here. Where the wire differs
 * (hydrated bindings, write-only secrets, create-only codes) the record keeps references and
 * hashes and the model renders the wire shape.
 */
import type { resources } from "../../api";
import type { CollectionName } from "../../api/collections";
import type {
  accountAssociations,
  DefinitionOf,
  groupInvites,
  groups,
  identities,
  identityProviders,
  InputsOf,
  ItemOf,
  Kind,
  roleBindings,
  roles,
  subscriptions,
} from "../../api/kinds";

export type GroupRecord = ItemOf<typeof groups>;

export type IdentityRecord = ItemOf<typeof identities> & {
  /** A person's verified email (shown on bindings' hydrated identity); the start-up admin's too. */
  email: string;
  lastSeenTime: string;
  /** Set for a person (a user identity, whose uid is a root uid): who signs in as it. */
  person?: PersonOf;
};

/**
 * How a person signs in: the issuer and subject of their sign-in token. `issuer` is absent for
 * this server's own issuer (its URL changes with the port); `identityProvider` is the uid of the
 * organization's identity provider they signed in through, if any.
 */
export interface PersonOf {
  issuer?: string;
  subject: string;
  identityProvider?: string;
}

export type RoleRecord = ItemOf<typeof roles> & {
  /** Built-in roles live at the root and are read-only. */
  builtin: boolean;
};

/** A binding keeps the uids it was given; the model hydrates identity, group and role when rendering. */
export type RoleBindingRecord = Pick<ItemOf<typeof roleBindings>, "uid" | "createTime"> & Omit<InputsOf<typeof roleBindings>, "groupUid">;

export type IdentityProviderRecord = ItemOf<typeof identityProviders> & {
  /** sha256 of the write-only client secret: never rendered, never logged. */
  clientSecretHash: string;
};

export type AccountAssociationRecord = ItemOf<typeof accountAssociations>;

export type GroupInviteRecord = Omit<ItemOf<typeof groupInvites>, "code"> & {
  /** sha256 of the invite code: the code itself is returned by create only. */
  codeHash: string;
};

export type SubscriptionRecord = ItemOf<typeof subscriptions>;

/** Who may read a repo (and its tags) without a token. */
export type Visibility = "public" | "private";
/** A repo, with who may read it without a token and its README (which GetRepoReadme reads, apart from the repo). */
export type RepoRecord = resources.Repo & { visibility: Visibility; readme?: string };
export type TagRecord = resources.Tag;
export type AdvisoryRecord = resources.Advisory;

/** The records of the kinds and collections that hold more (or other) than the API's item. */
interface RecordsWritten {
  groups: GroupRecord;
  identities: IdentityRecord;
  roles: RoleRecord;
  roleBindings: RoleBindingRecord;
  identityProviders: IdentityProviderRecord;
  accountAssociations: AccountAssociationRecord;
  groupInvites: GroupInviteRecord;
  repos: RepoRecord;
  tags: TagRecord;
  advisories: AdvisoryRecord;
}

/** What the store holds for collection `C`: its record above, else the kind's item as the API returns it. */
export type RecordOf<C extends CollectionName> = C extends keyof RecordsWritten ? RecordsWritten[C] : C extends Kind ? ItemOf<DefinitionOf<C>> : never;
