/**
 * The server's whole state: one `Collection` per kind, plus the index authorization needs
 * (role bindings by identity). Everything is synchronous: a handler validates and writes with no
 * `await` in between, so concurrent requests never interleave inside a check-then-write.
 *
 * Every write of every collection passes through one observer here. Inside `transaction()` the
 * writes are collected and, when the function returns, handed to the committer (the data
 * directory's journal) in one piece; if the function or the committer throws, they are undone,
 * so memory never holds a write that was not made durable.
 */
import { ServerWork } from "../work";
import { Collection, type Keyed } from "./collection";
import type { RecordOf, RoleBindingRecord } from "./records";
import { COLLECTION_NAMES, type CollectionName } from "../../api/collections";
import { fieldEntries, roleBindings } from "../../api/kinds";

export { COLLECTION_NAMES, type CollectionName };

/** One write: `after` is the item's new value, undefined when it was removed. */
export interface Change {
  kind: CollectionName;
  uid: string;
  before?: Keyed;
  after?: Keyed;
}

/** Makes a transaction's writes durable, or throws (and the transaction is undone). */
export type Committer = (changes: readonly Change[]) => void;

/** One collection of the store per collection of the API (api/collections), typed by its record. */
export type StoreCollections = { readonly [C in CollectionName]: Collection<RecordOf<C> & Keyed> };

// The class's own members, plus a collection per API collection (made in the constructor).
export interface Store extends StoreCollections {}

/** The in-memory store. */
export class Store {
  /**
   * Bumped when an identity's rules for token exchange (claimMatch, staticKeys, a person's sign-in) may have changed,
   * not when only its `lastSeenTime` moves: what is built from those rules (the trusted issuers)
   * is kept across sign-ins and exchanges.
   */
  identityRulesVersion = 0;

  /** Binding uids per identity uid: what authorization reads on every request. */
  private bindingsByIdentity = new Map<string, Set<string>>();
  /** The open transaction's writes, in order. */
  private pending: Change[] | undefined;
  /** Writes made while undoing or replaying are not new changes. */
  private quiet = false;
  private committer: Committer | undefined;

  /** Every collection by its name, as the store's generic paths see it. */
  private readonly byName = new Map<CollectionName, Collection<Keyed>>();

  /** The work done reading it for callers (listings, exchanges, authorization), counted. */
  readonly work = new ServerWork();

  constructor() {
    for (const kind of COLLECTION_NAMES) {
      const coll = new Collection<Keyed>();
      this.byName.set(kind, coll);
      // The typed member StoreCollections declares (`store.groups`, ...).
      Object.defineProperty(this, kind, { value: coll, enumerable: true });
      coll.observer = (uid, before, after) => this.observe(kind, uid, before, after);
      coll.work = this.work;
    }
  }

  /** The collection named `kind`. */
  collection(kind: CollectionName): Collection<Keyed> {
    return this.byName.get(kind)!;
  }

  /** From now on, every transaction's writes go to `committer` before the transaction returns. */
  setCommitter(committer: Committer | undefined): void {
    this.committer = committer;
  }

  /**
   * Runs `fn` (synchronous) as one unit: its writes are committed together when it returns, or
   * undone if it (or the commit) throws. Nested calls join the outer transaction.
   */
  transaction<R>(fn: () => R): R {
    if (this.pending) return fn();
    const changes: Change[] = (this.pending = []);
    try {
      const result = fn();
      if (changes.length > 0) this.committer?.(changes);
      return result;
    } catch (e) {
      this.pending = undefined;
      this.undo(changes);
      throw e;
    } finally {
      this.pending = undefined;
    }
  }

  /** Sets `uid` of `kind` to `value` (undefined: removes it) without recording a change: replay. */
  restore(kind: CollectionName, uid: string, value: Keyed | undefined): void {
    const coll = this.collection(kind);
    this.quiet = true;
    try {
      if (value === undefined) coll.remove(uid);
      else if (coll.has(uid)) coll.replace(value);
      else coll.insert(value);
    } finally {
      this.quiet = false;
    }
  }

  private undo(changes: readonly Change[]): void {
    for (let i = changes.length - 1; i >= 0; i--) undoChange(this, changes[i]);
  }

  private observe(kind: CollectionName, uid: string, before: Keyed | undefined, after: Keyed | undefined): void {
    if (kind === "roleBindings") this.reindex(before as RoleBindingRecord | undefined, after as RoleBindingRecord | undefined);
    if (kind === "identities") {
      const rules = (r: Keyed | undefined) => r as { claimMatch?: unknown; staticKeys?: unknown; person?: unknown } | undefined;
      const b = rules(before);
      const a = rules(after);
      // A record written anew holds new rule objects; one whose lastSeenTime moved keeps them.
      if (b?.claimMatch !== a?.claimMatch || b?.staticKeys !== a?.staticKeys || b?.person !== a?.person) this.identityRulesVersion++;
    }
    if (this.quiet) return;
    if (this.pending) this.pending.push({ kind, uid, before, after });
    // A write outside any transaction is its own transaction: nothing bypasses the committer.
    else if (this.committer) this.commitAlone({ kind, uid, before, after });
  }

  private commitAlone(change: Change): void {
    try {
      this.committer!([change]);
    } catch (e) {
      undoChange(this, change);
      throw e;
    }
  }

  private reindex(before: RoleBindingRecord | undefined, after: RoleBindingRecord | undefined): void {
    if (before) {
      const identity = identityOf(before);
      const set = this.bindingsByIdentity.get(identity);
      set?.delete(before.uid);
      if (set?.size === 0) this.bindingsByIdentity.delete(identity);
    }
    if (after) {
      const identity = identityOf(after);
      let set = this.bindingsByIdentity.get(identity);
      if (!set) this.bindingsByIdentity.set(identity, (set = new Set()));
      set.add(after.uid);
    }
  }

  /** The bindings naming the identity `identity`. */
  bindingsOf(identity: string): RoleBindingRecord[] {
    const uids = this.bindingsByIdentity.get(identity);
    if (!uids) return [];
    const out: RoleBindingRecord[] = [];
    for (const uid of uids) {
      const b = this.roleBindings.get(uid);
      if (b) out.push(b);
    }
    return out;
  }

  /** Adds or replaces a binding (the identity index follows every write). */
  putBinding(b: RoleBindingRecord): void {
    if (this.roleBindings.has(b.uid)) this.roleBindings.replace(b);
    else this.roleBindings.insert(b);
  }

  /** Removes a binding; false when it was already gone. */
  removeBinding(uid: string): boolean {
    return this.roleBindings.remove(uid);
  }
}

/** The field of a binding that names its identity: the one its definition says refers to identities. */
const IDENTITY_FIELD = fieldEntries(roleBindings.fields).find(([, f]) => f.refersTo === "identities")![0] as keyof RoleBindingRecord;
const identityOf = (b: RoleBindingRecord): string => b[IDENTITY_FIELD];

/** Puts a change's `before` back. */
function undoChange(store: Store, c: Change): void {
  store.restore(c.kind, c.uid, c.before);
}
