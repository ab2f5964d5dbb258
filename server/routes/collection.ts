/**
 * The collection pattern, written once: for a collection at `path`,
 *   GET    path          List   (needs `<cap>.list`; silently scoped to what the caller may list)
 *   GET    path/<uid>    Get    (needs `<cap>.list` on the item's group)
 *   POST   path/<parent> Create (needs `<cap>.create` on the parent group)
 *   PATCH  path/<uid>    Update (needs `<cap>.update` on the item's group), `updateMask` optional
 *   DELETE path/<uid>    Delete (needs `<cap>.delete` on the item's group)
 * A method the collection does not offer answers 405 in the error model. Handlers are
 * synchronous from validation to write, so concurrent requests cannot interleave. Each write
 * runs as one store transaction: all of it is committed (made durable, with a data directory)
 * before the answer, or none of it stays. A kind's committed create, update or delete is then
 * announced on the server's change feed (model/changes.ts), for v2beta1 and v1 alike.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { COLLECTIONS } from "../../api/collections";
import { definitionOf, definitionOfCollection, type ChangeAction, type Kind } from "../../api/kinds";
import { parentOf } from "../../api/uid";
import { callerOf, timestamp, type ServerContext } from "../context";
import { changeOf } from "../model/changes";
import { isAnonymous, notPublic, PUBLIC_READ } from "../auth/anonymous";
import { methodNotAllowed, notFound } from "../errors";
import { paginate, type Listing, type PageEnv, type RawQuery } from "../list";
import { maskedBody, parseMask } from "../masks";
import type { Collection, Keyed } from "../store";
import { parseUid } from "../validate";

/** One collection's routes, declared by its routes file. */
export interface CollectionRoutes<T extends Keyed> {
  list: Listing<T>;
  /** The store collection. */
  items(ctx: ServerContext): Collection<T>;
  /** Capability prefix: `groups`, `identity`, `role_bindings`, ... */
  capability: string;
  /** The group whose bindings govern `uid` (undefined: nobody's, e.g. built-in roles). */
  groupOf(uid: string): string | undefined;
  /** The wire shape for `caller` (who may not see every item a binding names). */
  render(ctx: ServerContext, item: T, caller: string): unknown;
  /** Creates under `parent` (a group uid) and returns the response body. */
  create?(ctx: ServerContext, parent: string, body: unknown, caller: string): unknown;
  update?: { maskPaths: Set<string>; run(ctx: ServerContext, uid: string, body: unknown, mask: string[] | undefined, caller: string): T };
  remove?(ctx: ServerContext, uid: string, caller: string): void;
  /** Why a missing create/update/delete is missing (in the 405 message). */
  readOnly?: string;
  /** Human name of one item (`group`, `role binding`) for NOT_FOUND messages. */
  label: string;
  /**
   * Parts of an item at `<uid>/<suffix>` (a repo's `readme`): `read` answers a GET with what the
   * item holds, authorized as a Get of the item; `update`, when given, answers a PATCH, authorized,
   * committed and announced as an Update of the item.
   */
  suffixes?: Record<string, ItemPart<T>>;
  /** Collections anonymous callers may read (List/Get): which items they see. */
  isPublic?(ctx: ServerContext, item: T): boolean;
  /** What v1 (routes/v1) does otherwise than v2beta1 with this collection; absent, the same in v1 shapes. */
  v1?: V1Methods<T>;
}

/** A collection's v1 methods where they differ from v2beta1's (registry v1's Repo and Tag). */
export interface V1Methods<T extends Keyed> {
  /** The item before its v1 renames, where v1 carries more than v2beta1 (a v1 Repo has its README). */
  render?(item: T): unknown;
  /** v1's Create: `query` holds the request's members outside its body (CreateRepoRequest's `prevent_existing`), by proto name. */
  create?: { query: readonly string[]; run(ctx: ServerContext, parent: string, body: unknown, query: Record<string, boolean>): { item: T; created: boolean } };
  /** v1's Update (a PUT of the whole item), where v2beta1 has none or another rule. */
  update?(ctx: ServerContext, uid: string, body: unknown): T;
}

/** A part of an item kept apart from it (see `suffixes`). */
export interface ItemPart<T extends Keyed> {
  read(ctx: ServerContext, item: T): unknown;
  update?: { maskPaths: Set<string>; run(ctx: ServerContext, uid: string, body: unknown, mask: string[] | undefined): T };
}

/**
 * `groupOf` for kinds whose items live directly under a group: the parent. No such item has a
 * root uid; one asked for is governed by that root group, so authorization still comes before
 * existence (and an idempotent delete of it is not a success for just anyone).
 */
export const parentGroup = (uid: string): string => parentOf(uid) ?? uid;

/**
 * The routes of kind `kind`: `routes` with what its definition (api/kinds) states, its label,
 * capability prefix and collection name, so a routes file names its kind once.
 */
export function kindRoutes<T extends Keyed>(
  kind: Kind,
  routes: Omit<CollectionRoutes<T>, "label" | "capability" | "list"> & { list: Omit<Listing<T>, "name"> },
): CollectionRoutes<T> {
  const { label, capability } = definitionOf(kind);
  return { ...routes, label, capability, list: { name: kind, ...routes.list } };
}

export const uidOf = (req: FastifyRequest) => parseUid((req.params as { "*": string })["*"]);

/**
 * What the v2beta1 routes and the v1 routes (routes/v1) share for one collection: authorization
 * of a verb on a uid, the List scope of the caller (anonymous callers: the organization's public
 * items), and Get of one item as the caller may see it.
 */
export function collectionAccess<T extends Keyed>(ctx: ServerContext, def: CollectionRoutes<T>) {
  const cap = (verb: string) => `${def.capability}.${verb}`;
  const isPublic = def.isPublic;
  // Anonymous callers list the whole organization, restricted to its public items.
  // What is public follows the repos' visibility (a tag is as public as its repo).
  const anonymousOnly = isPublic && {
    key: "public",
    test: (item: Keyed) => isPublic(ctx, item as T),
    version: () => ctx.store.repos.version,
  };
  const guard = (req: FastifyRequest, verb: string, uid: string) => {
    const g = def.groupOf(uid);
    if (g !== undefined) ctx.authz.require(callerOf(req), cap(verb), g);
  };
  const commit = <R>(req: FastifyRequest, write: (caller: string) => R): R => {
    const caller = callerOf(req);
    return ctx.store.transaction(() => write(caller));
  };
  // A kind's methods are announced once committed (model/changes.ts); other collections have none.
  const kind = definitionOfCollection(def.list.name)?.kind as Kind | undefined;
  const announce = (req: FastifyRequest, action: ChangeAction, uid: string, answer?: unknown) => {
    const change = kind && ctx.changes.heard && changeOf(kind, action, uid, answer, callerOf(req), timestamp(ctx));
    if (change) ctx.changes.emit(change);
  };
  return {
    cap,
    guard,
    /** Route options: public-read collections let anonymous GETs through authentication. */
    readOptions: isPublic ? PUBLIC_READ : {},
    pageEnv(req: FastifyRequest): PageEnv {
      const anonymous = anonymousOnly && isAnonymous(req);
      return {
        scopes: anonymous ? [ctx.organization] : ctx.authz.scopes(callerOf(req), cap("list")),
        now: ctx.clock(),
        secret: ctx.pageSecret,
        ...(anonymous ? { only: anonymousOnly } : {}),
      };
    },
    /** Create under `parent` (authorized; the collection has `create`), committed and announced: its answer, in the v2beta1 shape. */
    createOne(req: FastifyRequest, parent: string, body: unknown): unknown {
      const answer = commit(req, (caller) => def.create!(ctx, parent, body, caller));
      announce(req, "created", (answer as { uid: string }).uid, answer);
      return answer;
    },
    /** A write (authorized) committed, then announced as the change it says it made: the item it answers. */
    writeOne(req: FastifyRequest, write: () => { item: T; action: ChangeAction }): T {
      const { item, action } = commit(req, write);
      announce(req, action, item.uid, def.render(ctx, item, callerOf(req)));
      return item;
    },
    /** Update of `uid` (authorized; the collection has `update`), committed and announced: the item as the caller sees it, in the v2beta1 shape. */
    updateOne(req: FastifyRequest, uid: string, body: unknown, mask: string[] | undefined): unknown {
      const item = def.render(
        ctx,
        commit(req, (caller) => def.update!.run(ctx, uid, body, mask, caller)),
        callerOf(req),
      );
      announce(req, "updated", uid, item);
      return item;
    },
    /** Update of part `part` of `uid` (authorized), committed and announced as an update of the item: the part as it now is. */
    updatePart(req: FastifyRequest, part: ItemPart<T>, uid: string, body: unknown, mask: string[] | undefined): unknown {
      const item = commit(req, () => part.update!.run(ctx, uid, body, mask));
      announce(req, "updated", uid, def.render(ctx, item, callerOf(req)));
      return part.read(ctx, item);
    },
    /** DELETE of the uid in the path (the collection has `remove`), committed and announced. */
    removeOne(req: FastifyRequest): Record<string, never> {
      const uid = uidOf(req);
      guard(req, "delete", uid);
      commit(req, (caller) => def.remove!(ctx, uid, caller));
      announce(req, "deleted", uid);
      return {};
    },
    /** The item `uid` as the caller may see it, or the error it gets. */
    getOne(req: FastifyRequest, uid: string): T {
      if (isPublic && isAnonymous(req)) {
        const item = def.items(ctx).get(uid);
        if (!item || !isPublic(ctx, item)) throw notPublic(def.label, uid);
        return item;
      }
      guard(req, "list", uid);
      const item = def.items(ctx).get(uid);
      if (!item) throw notFound(`${def.label} ${uid}`);
      return item;
    },
  };
}

/** Registers the routes of one collection on `app`: at its v2beta1 path, or with `at` (the GA v2's, `gaPath`). */
export function registerCollection<T extends Keyed>(
  app: FastifyInstance,
  ctx: ServerContext,
  def: CollectionRoutes<T>,
  at: (path: string) => string = (p) => p,
): void {
  const path = at(COLLECTIONS[def.list.name].path);
  const authz = ctx.authz;
  const { cap, guard, readOptions, pageEnv, getOne, createOne, updateOne, updatePart, removeOne } = collectionAccess(ctx, def);
  const refuse = (verb: string) => (req: FastifyRequest) => {
    throw methodNotAllowed(req.method, req.url.split("?")[0], def.readOnly ?? `${def.list.name} cannot be ${verb}`);
  };

  app.get(path, readOptions, async (req) => {
    const page = paginate(def.items(ctx), def.list, req.query as RawQuery, pageEnv(req));
    const caller = callerOf(req);
    const body: Record<string, unknown> = { [def.list.name]: page.items.map((i) => def.render(ctx, i, caller)) };
    if (page.nextPageToken) body.nextPageToken = page.nextPageToken;
    body.totalCount = page.totalCount;
    body.skipped = page.skipped;
    return body;
  });

  const suffixes = def.suffixes ?? {};
  /** The part a path names after an item's uid, with that uid, if any. */
  const partOf = (req: FastifyRequest): { part: ItemPart<T>; uid: string } | undefined => {
    const raw = (req.params as { "*": string })["*"];
    const suffix = Object.keys(suffixes).find((s) => raw.endsWith(`/${s}`));
    return suffix === undefined ? undefined : { part: suffixes[suffix], uid: parseUid(raw.slice(0, -suffix.length - 1)) };
  };
  app.get(`${path}/*`, readOptions, async (req) => {
    const p = partOf(req);
    if (p) return p.part.read(ctx, getOne(req, p.uid));
    return def.render(ctx, getOne(req, uidOf(req)), callerOf(req));
  });

  const create = def.create;
  app.post(
    `${path}/*`,
    create
      ? async (req) => {
          const parent = parseUid((req.params as { "*": string })["*"], "parent");
          authz.require(callerOf(req), cap("create"), parent);
          return createOne(req, parent, req.body);
        }
      : refuse("created"),
  );

  const update = def.update;
  const refuseUpdate = refuse("updated");
  app.patch(`${path}/*`, async (req) => {
    const p = partOf(req);
    const partUpdate = p?.part.update;
    if (p && partUpdate) {
      guard(req, "update", p.uid);
      const mask = parseMask(req.query as RawQuery, partUpdate.maskPaths);
      return updatePart(req, p.part, p.uid, maskedBody(req.body, mask), mask);
    }
    if (!update || p) return refuseUpdate(req);
    const uid = uidOf(req);
    guard(req, "update", uid);
    const mask = parseMask(req.query as RawQuery, update.maskPaths);
    return updateOne(req, uid, maskedBody(req.body, mask), mask);
  });

  app.delete(`${path}/*`, def.remove ? async (req) => removeOne(req) : refuse("deleted"));

  // The bare collection path takes only GET; anything else is a wrong method, not a wrong path.
  app.route({
    method: ["POST", "PATCH", "DELETE", "PUT"],
    url: path,
    handler: async (req) => {
      throw methodNotAllowed(req.method, path, `${req.method} needs a uid: ${path}/<uid>`);
    },
  });
  app.put(`${path}/*`, async (req) => {
    throw methodNotAllowed("PUT", req.url.split("?")[0], "use PATCH to update");
  });
}
