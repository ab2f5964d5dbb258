/**
 * The server's whole state: one `Collection` per kind, plus the index authorization needs
 * (role bindings by identity). Everything is synchronous: a handler validates and writes with no
 * `await` in between, so concurrent requests never interleave inside a check-then-write.
 */
import { Collection } from "./collection";
import type {
  AccountAssociationRecord,
  AdvisoryRecord,
  GroupInviteRecord,
  GroupRecord,
  IdentityProviderRecord,
  IdentityRecord,
  RepoRecord,
  RoleBindingRecord,
  RoleRecord,
  TagRecord,
} from "./records";

/** The in-memory store. */
export class Store {
  readonly groups = new Collection<GroupRecord>();
  readonly identities = new Collection<IdentityRecord>();
  readonly roles = new Collection<RoleRecord>();
  readonly roleBindings = new Collection<RoleBindingRecord>();
  readonly identityProviders = new Collection<IdentityProviderRecord>();
  readonly accountAssociations = new Collection<AccountAssociationRecord>();
  readonly groupInvites = new Collection<GroupInviteRecord>();
  readonly repos = new Collection<RepoRecord>();
  readonly tags = new Collection<TagRecord>();
  readonly advisories = new Collection<AdvisoryRecord>();

  /** Binding uids per identity uid: what authorization reads on every request. */
  private bindingsByIdentity = new Map<string, Set<string>>();

  /** The bindings naming `identityUid`. */
  bindingsOf(identityUid: string): RoleBindingRecord[] {
    const uids = this.bindingsByIdentity.get(identityUid);
    if (!uids) return [];
    const out: RoleBindingRecord[] = [];
    for (const uid of uids) {
      const b = this.roleBindings.get(uid);
      if (b) out.push(b);
    }
    return out;
  }

  /** Adds or replaces a binding, keeping the identity index. */
  putBinding(b: RoleBindingRecord): void {
    const old = this.roleBindings.get(b.uid);
    if (old) {
      this.unindex(old);
      this.roleBindings.replace(b);
    } else this.roleBindings.insert(b);
    let set = this.bindingsByIdentity.get(b.identityUid);
    if (!set) this.bindingsByIdentity.set(b.identityUid, (set = new Set()));
    set.add(b.uid);
  }

  /** Removes a binding; false when it was already gone. */
  removeBinding(uid: string): boolean {
    const old = this.roleBindings.get(uid);
    if (!old) return false;
    this.unindex(old);
    return this.roleBindings.remove(uid);
  }

  private unindex(b: RoleBindingRecord): void {
    const set = this.bindingsByIdentity.get(b.identityUid);
    set?.delete(b.uid);
    if (set?.size === 0) this.bindingsByIdentity.delete(b.identityUid);
  }
}
