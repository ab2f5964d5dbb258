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
 * before the answer, or none of it stays.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { COLLECTIONS } from "../../api/collections";
import { parentOf } from "../../api/uid";
import { callerOf, type ServerContext } from "../context";
import { methodNotAllowed, notFound } from "../errors";
import { paginate, type ListSpec, type RawQuery } from "../list";
import { maskedBody, parseMask } from "../masks";
import type { Collection, Keyed } from "../store";
import { parseUid } from "../validate";

/** One collection's routes, declared by its routes file. */
export interface CollectionRoutes<T extends Keyed> {
  list: ListSpec<T>;
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
  kind: string;
}

/**
 * `groupOf` for kinds whose items live directly under a group: the parent. No such item has a
 * root uid; one asked for is governed by that root group, so authorization still comes before
 * existence (and an idempotent delete of it is not a success for just anyone).
 */
export const parentGroup = (uid: string): string => parentOf(uid) ?? uid;

const uidOf = (req: FastifyRequest) => parseUid((req.params as { "*": string })["*"]);

/** Registers the routes of one collection on `app`. */
export function registerCollection<T extends Keyed>(app: FastifyInstance, ctx: ServerContext, def: CollectionRoutes<T>): void {
  const path = COLLECTIONS[def.list.name].path;
  const authz = ctx.authz;
  const cap = (verb: string) => `${def.capability}.${verb}`;
  const guard = (req: FastifyRequest, verb: string, uid: string) => {
    const g = def.groupOf(uid);
    if (g !== undefined) authz.require(callerOf(req), cap(verb), g);
  };
  const refuse = (verb: string) => (req: FastifyRequest) => {
    throw methodNotAllowed(req.method, req.url.split("?")[0], def.readOnly ?? `${def.list.name} cannot be ${verb}`);
  };

  app.get(path, async (req) => {
    const page = paginate(def.items(ctx), def.list, req.query as RawQuery, {
      scopes: authz.scopes(callerOf(req), cap("list")),
      now: ctx.clock(),
      secret: ctx.pageSecret,
    });
    const body: Record<string, unknown> = { [def.list.name]: page.items.map((i) => def.render(ctx, i, callerOf(req))) };
    if (page.nextPageToken) body.nextPageToken = page.nextPageToken;
    body.totalCount = page.totalCount;
    body.skipped = page.skipped;
    return body;
  });

  app.get(`${path}/*`, async (req) => {
    const uid = uidOf(req);
    guard(req, "list", uid);
    const item = def.items(ctx).get(uid);
    if (!item) throw notFound(`${def.kind} ${uid}`);
    return def.render(ctx, item, callerOf(req));
  });

  const create = def.create;
  app.post(`${path}/*`, create ? async (req) => {
    const parent = parseUid((req.params as { "*": string })["*"], "parent");
    authz.require(callerOf(req), cap("create"), parent);
    return ctx.store.transaction(() => create(ctx, parent, req.body, callerOf(req)));
  } : refuse("created"));

  const update = def.update;
  app.patch(`${path}/*`, update ? async (req) => {
    const uid = uidOf(req);
    guard(req, "update", uid);
    const mask = parseMask(req.query as RawQuery, update.maskPaths);
    const caller = callerOf(req);
    return def.render(ctx, ctx.store.transaction(() => update.run(ctx, uid, maskedBody(req.body, mask), mask, caller)), caller);
  } : refuse("updated"));

  const remove = def.remove;
  app.delete(`${path}/*`, remove ? async (req) => {
    const uid = uidOf(req);
    guard(req, "delete", uid);
    ctx.store.transaction(() => remove(ctx, uid, callerOf(req)));
    return {};
  } : refuse("deleted"));

  // The bare collection path takes only GET; anything else is a wrong method, not a wrong path.
  app.route({ method: ["POST", "PATCH", "DELETE", "PUT"], url: path, handler: async (req) => {
    throw methodNotAllowed(req.method, path, `${req.method} needs a uid: ${path}/<uid>`);
  } });
  app.put(`${path}/*`, async (req) => {
    throw methodNotAllowed("PUT", req.url.split("?")[0], "use PATCH to update");
  });
}
