/**
 * Reads of one operation, answered in pages when that pays (issue 20). A refresh reads every
 * resource of a stack; one GET each costs as many requests as resources. Within an operation (the
 * resource plugin's process, or the dynamic classes' provider host: the engine starts one per
 * operation), the read of a resource may instead be answered from a List of its kind over a
 * subtree (`uidp.descendants_of`, `page_size` 200, uid order) that the operation fetched moments
 * before, in the operation's read batch (`ReadBatch`, which a provider method finds in its
 * context). How it decides, from what the provider knows:
 *
 * - Reads are counted per kind. The first read of a kind is one GET, so a refresh of one resource
 *   costs one request however large the organization.
 * - From the second read on, the kind's reads share a listing over the deepest group that holds
 *   every one of them so far (their common ancestor). Its first page tells the subtree's size
 *   (`totalCount`); the walk goes on while the pages left are no more than the reads of the kind
 *   seen so far (one page answers up to 200 reads; a page is worth it as soon as it replaces a
 *   GET). A read that the pages fetched do not answer, in a subtree too large to walk for the
 *   reads seen, is a GET: a few reads in an organization of 100,000 groups cost their GETs plus
 *   one page.
 * - A read outside the listing's subtree widens it to the new common ancestor (a new listing).
 *
 * Exactness: an item found in a listing is the item a GET would return then (both are answered
 * by the same rendering, for the same caller); a uid the listing lacks, deleted or not visible to
 * the caller's List, is read with a GET, so a deletion drops the resource with the API's own
 * NOT_FOUND and a resource the caller may not list is read directly. A listing whose server sends
 * a page token twice (pages that would never end) fails. A listing is kept for at
 * most freshMs() (30 s unless `IRV_LIST_FRESH_MS` says otherwise), only in the operation's read
 * batch (`ReadBatch`) that fetched it, only after the operation began, and only while its client
 * has made no write since its first page was asked for. A listing that fails
 * leaves its kind to GETs for the rest of the operation.
 */
import { COLLECTIONS, PAGE_SIZE_MAX, type CollectionName } from "../../api/collections";
import { KINDS, type KindDefinition } from "../../api/kinds";
import { PageTokens } from "../../client/paging";
import { isSelfOrAncestor, parentOf } from "../../api/uid";
import type { CallOptions, IrvClient } from "../../client/client";
import type { Item } from "../../client/shapes";

/** Whether the API lists `kind`: every collection but a singleton kind's (api/kinds/definition.ts). */
const listable = (kind: CollectionName): boolean => !(KINDS as readonly KindDefinition[]).find((d) => d.kind === kind)?.singleton;

/** How long a listing answers reads after its first page was asked for, by default. */
export const FRESH_MS = 30_000;

/** How long a listing answers reads: `IRV_LIST_FRESH_MS` when set to a positive number, else FRESH_MS. */
export function freshMs(env: NodeJS.ProcessEnv = process.env): number {
  const v = Number(env.IRV_LIST_FRESH_MS);
  return Number.isFinite(v) && v > 0 ? v : FRESH_MS;
}
/** Reads of a kind before its reads are listed (the first is a GET). */
export const READS_BEFORE_LISTING = 2;

/** A listing of one kind over one subtree, page by page. */
interface Listing {
  scope: string;
  /** When its first page was asked for. */
  began: number;
  /** Until when it answers reads: `began` plus freshMs() as it was then. */
  freshUntil: number;
  /** The client's writes started when it began. */
  writes: number;
  items: Map<string, Item<CollectionName>>;
  /** Items the whole listing holds (its `totalCount`), once the first page is in. */
  total?: number;
  fetched: number;
  next?: string;
  /** The tokens it was sent: a repeated one fails the listing. */
  tokens: PageTokens;
  done: boolean;
  /** The page being fetched. */
  busy?: Promise<void>;
}

/** One kind's reads in this operation. */
interface KindReads {
  reads: number;
  /** The common ancestor of the groups of the reads so far. */
  scope?: string;
  listing?: Listing;
  /** A listing failed: GETs for the rest of the operation. */
  unlisted?: boolean;
}

/** The deepest uid that is `a` or an ancestor of it and `b` or an ancestor of it, if any. */
export function commonAncestor(a: string, b: string): string | undefined {
  let x: string | undefined = a;
  while (x !== undefined && !isSelfOrAncestor(x, b)) x = parentOf(x);
  return x;
}

/** Whether `l` may still answer reads of `client`'s operation, which began at `began`. */
function fresh(client: IrvClient, l: Listing, began: number): boolean {
  return l.began >= began && Date.now() <= l.freshUntil && client.writes.started === l.writes;
}

/** Pages a listing still has to fetch. */
function pagesLeft(l: Listing): number {
  return l.total === undefined ? 1 : Math.ceil(Math.max(0, l.total - l.fetched) / PAGE_SIZE_MAX);
}

/** Fetches the next page of `l` into it. */
async function nextPage(client: IrvClient, kind: CollectionName, l: Listing, o: CallOptions): Promise<void> {
  const p = await client.page(kind, { "uidp.descendants_of": l.scope, orderBy: "uid", pageSize: PAGE_SIZE_MAX }, l.next, o);
  for (const item of p.items) l.items.set(item.uid, item);
  l.total = p.totalCount;
  l.fetched += p.items.length;
  l.next = l.tokens.next(p.nextPageToken);
  l.done = !l.next;
}

/**
 * The read batch of one operation (the resource plugin's process, the dynamic provider host's, one
 * `irv drift`): its reads may be answered from listings from the moment it is made. A provider
 * method finds it in its context (./context.ts); without one, every read is one GET.
 */
export class ReadBatch {
  /** When the operation began: nothing listed before is served. */
  readonly began: number;
  /** Each client's reads by kind (a batch serves the callers its client speaks for). */
  readonly #byClient = new WeakMap<IrvClient, Map<CollectionName, KindReads>>();

  constructor(now = Date.now()) {
    this.began = now;
  }

  /**
   * The item `uid` of `kind` as the API has it now, within this operation: from a listing when
   * one answers it (see above), else by GET (whose errors, NOT_FOUND included, reach the caller).
   */
  read<C extends CollectionName>(client: IrvClient, kind: C, uid: string, o: CallOptions = {}): Promise<Item<C>> {
    return readBatched(this.began, this.#kinds(client), client, kind, uid, o);
  }

  #kinds(client: IrvClient): Map<CollectionName, KindReads> {
    let kinds = this.#byClient.get(client);
    if (!kinds) this.#byClient.set(client, (kinds = new Map()));
    return kinds;
  }
}

/** The item `uid` of `kind`: from the operation's batch when there is one, else by GET. */
export function readItem<C extends CollectionName>(
  batch: ReadBatch | undefined,
  client: IrvClient,
  kind: C,
  uid: string,
  o: CallOptions = {},
): Promise<Item<C>> {
  return batch ? batch.read(client, kind, uid, o) : client.get(kind, uid, o);
}

/** A read of an operation that began at `began`, over `kinds`, its client's reads by kind. */
async function readBatched<C extends CollectionName>(
  began: number,
  kinds: Map<CollectionName, KindReads>,
  client: IrvClient,
  kind: C,
  uid: string,
  o: CallOptions,
): Promise<Item<C>> {
  const group = parentOf(uid);
  // A kind the API cannot list (a repo's deployment) is read one Get each.
  if (group === undefined || !listable(kind)) return client.get(kind, uid, o);
  let k = kinds.get(kind);
  if (!k) kinds.set(kind, (k = { reads: 0 }));
  if (k.unlisted) return client.get(kind, uid, o);
  k.reads++;
  k.scope = k.scope === undefined ? group : commonAncestor(k.scope, group);
  for (;;) {
    let l = k.listing;
    if (l && !fresh(client, l, began)) k.listing = l = undefined;
    if (k.unlisted || k.scope === undefined) return client.get(kind, uid, o);
    if (l && isSelfOrAncestor(l.scope, uid)) {
      // What the pages in hand answer does not wait for the page on its way.
      const hit = l.items.get(uid);
      if (hit) return hit as Item<C>;
      if (l.busy) {
        await l.busy;
        continue;
      }
      if (l.done || pagesLeft(l) > k.reads) return client.get(kind, uid, o);
    } else if (l?.busy) {
      // Outside a listing whose page is on its way: widen it once that page is in.
      await l.busy;
      continue;
    } else if (k.reads < READS_BEFORE_LISTING || client.writes.ended !== client.writes.started) {
      // Too few reads yet, or a write of this process in flight (it may land on either side of a page).
      return client.get(kind, uid, o);
    } else {
      const began = Date.now();
      k.listing = l = {
        scope: k.scope,
        began,
        freshUntil: began + freshMs(),
        writes: client.writes.started,
        items: new Map(),
        fetched: 0,
        done: false,
        tokens: new PageTokens(`GET ${COLLECTIONS[kind].path}`),
      };
    }
    const listing = l;
    const kindReads = k;
    listing.busy = nextPage(client, kind, listing, o).then(
      () => {
        listing.busy = undefined;
      },
      () => {
        listing.busy = undefined;
        kindReads.unlisted = true;
        if (kindReads.listing === listing) kindReads.listing = undefined;
      },
    );
  }
}
