/**
 * The v1 paths (spec, Versioning 2-3), for migration tests: `/iam/v1/...` and `/registry/v1/...`
 * over the same store, authorization and anonymous public reads as v2beta1. What differs is only
 * the wire: v1 names (shapes.ts), Lists that answer `{items}` with every match in one response
 * (v1 has no paging or ordering parameters), no Get by id (a v2 addition: v1 lists with `?id=`),
 * and a PATCH without `updateMask` that replaces every updatable field, resetting those a body
 * omits; PUT does the same (the v1 protos map Update to PUT). Advisories have no v1 path.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { COLLECTIONS, PAGE_SIZE_MAX } from "../../../api/collections";
import { parseUid } from "../../validate";
import { callerOf, type ServerContext } from "../../context";
import { failedPrecondition, invalidField, methodNotAllowed } from "../../errors";
import { paginate, type RawQuery } from "../../list";
import { paginatePublic, PUBLIC_WORK_MAX } from "../../list/public";
import type { Keyed } from "../../store";
import { eachV1Collection } from "../all";
import { collectionAccess, uidOf, type CollectionRoutes } from "../collection";
import { fromV1, resetMask, toV1 } from "./shapes";

/** v2beta1 query parameters v1 Lists do not take. */
const V2_LIST_PARAMS = ["page_size", "pageSize", "page_token", "pageToken", "order_by", "orderBy", "skip"];

/**
 * The most items an anonymous v1 List answers. v1 has no paging, so an anonymous listing with more
 * matches is refused (FAILED_PRECONDITION) rather than cut short: a v1 client takes what it gets
 * for every match. v2beta1 pages through them.
 */
export const V1_ANONYMOUS_MAX = 1_000;

/** The v1 path of a collection. */
export const v1Path = (path: string): string => path.replace("/v2beta1/", "/v1/");

/** The List query v1 takes: v2 filters, `id` (repeatable) as well as `uidp.ids`, no paging or ordering. */
function v1ListQuery(query: RawQuery): RawQuery {
  const out: RawQuery = {};
  for (const [k, v] of Object.entries(query)) {
    if (V2_LIST_PARAMS.includes(k)) throw invalidField(k, "is a v2beta1 parameter: v1 lists return every match in one response");
    if (k === "id" && query["uidp.ids"] !== undefined) throw invalidField(k, "give the ids either as id or as uidp.ids, not both");
    out[k === "id" ? "uidp.ids" : k] = v;
  }
  return out;
}

function registerV1<T extends Keyed>(app: FastifyInstance, ctx: ServerContext, def: CollectionRoutes<T>): void {
  const name = def.list.name;
  const path = v1Path(COLLECTIONS[name].path);
  const { cap, guard, readOptions, pageEnv, removeOne, commit } = collectionAccess(ctx, def);
  const render = (req: FastifyRequest, item: T) => toV1(name, def.render(ctx, item, callerOf(req)));
  const noQuery = (req: FastifyRequest, why: string) => {
    for (const k of Object.keys(req.query as object)) throw invalidField(k, why);
  };
  const refuse = (why: string) => async (req: FastifyRequest) => {
    throw methodNotAllowed(req.method, req.url.split("?")[0], why);
  };

  app.get(path, readOptions, async (req) => {
    const query = v1ListQuery(req.query as RawQuery);
    const env = pageEnv(req);
    if (env.only) {
      // Anonymous: one bounded page (list/public.ts), or a refusal saying how to narrow it.
      const page = paginatePublic(def.items(ctx), def.list, query, env, V1_ANONYMOUS_MAX);
      if (page.nextPageToken) {
        const v2 = COLLECTIONS[name].path;
        const why = page.budgetSpent
          ? `an anonymous v1 list looks at most at ${PUBLIC_WORK_MAX} public ${name} to filter, and these filters need more`
          : `an anonymous v1 list answers at most ${V1_ANONYMOUS_MAX} ${name} in one response, and ${page.exactCount ? "" : "up to "}${page.totalCount} match`;
        throw failedPrecondition(`${why}: narrow it (uidp.descendants_of, name${name === "tags" ? ", digest" : ""}, id), or page through ${v2}`, [
          { type: "TOO_MANY_RESULTS", subject: path, description: why },
        ]);
      }
      return { items: page.items.map((item) => render(req, item)) };
    }
    const items: unknown[] = [];
    let token: string | undefined;
    do {
      const page = paginate(def.items(ctx), def.list, { ...query, page_size: String(PAGE_SIZE_MAX), page_token: token }, env);
      for (const item of page.items) items.push(render(req, item));
      token = page.nextPageToken;
    } while (token);
    return { items };
  });

  app.get(`${path}/*`, readOptions, refuse(`v1 has no Get by id: list ${path}?id=<id>, or use ${COLLECTIONS[name].path}/<uid>`));

  const create = def.create;
  app.post(`${path}/*`, create ? async (req) => {
    noQuery(req, "is not a query parameter of creates");
    const parent = parseUid((req.params as { "*": string })["*"], "parent");
    ctx.authz.require(callerOf(req), cap("create"), parent);
    return toV1(name, commit(req, (caller) => create(ctx, parent, fromV1(name, req.body), caller)));
  } : refuse(def.readOnly ?? `${name} cannot be created`));

  const update = def.update;
  app.route({ method: ["PATCH", "PUT"], url: `${path}/*`, handler: update ? async (req: FastifyRequest) => {
    noQuery(req, "is not a query parameter of v1 updates: a v1 PATCH replaces every updatable field");
    const uid = uidOf(req);
    guard(req, "update", uid);
    const body = fromV1(name, req.body, { id: uid, group: def.groupOf(uid) });
    return render(req, commit(req, (caller) => update.run(ctx, uid, body, resetMask(update.maskPaths, body), caller)));
  } : refuse(def.readOnly ?? `${name} cannot be updated`) });

  app.delete(`${path}/*`, def.remove ? async (req) => removeOne(req) : refuse(def.readOnly ?? `${name} cannot be deleted`));
}

/** Registers the v1 paths of every IAM and registry collection. */
export function registerV1Routes(app: FastifyInstance, ctx: ServerContext): void {
  eachV1Collection((routes) => registerV1(app, ctx, routes));
}
