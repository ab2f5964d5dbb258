/**
 * The v1 paths (spec, Versioning 2-3), for migration tests: `/iam/v1/...` and `/registry/v1/...`
 * over the same store, authorization and anonymous public reads as v2beta1. What differs is only
 * the wire: v1 names (shapes.ts), Lists that answer `{items}` with every match in one response
 * (v1 has no paging or ordering parameters), no Get by id (a v2 addition: v1 lists with `?id=`),
 * and an update by PUT only (the v1 protos map Update to PUT; PATCH is 405) that replaces every
 * updatable field, resetting those a body omits. The paths are the v1 protos' (`/iam/v1/rolebindings`,
 * `/iam/v1/account_associations`, `/iam/v1/group_invites`). Advisories have no v1 path.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { COLLECTIONS, PAGE_SIZE_MAX, type CollectionName } from "../../../api/collections";
import { HIDDEN_TAGS } from "../../../api/registry";
import { parseUid } from "../../validate";
import { callerOf, type ServerContext } from "../../context";
import { failedPrecondition, invalidField, methodNotAllowed } from "../../errors";
import { paginate, type RawQuery } from "../../list";
import { jsonName, parseBool } from "../../list/query";
import { paginatePublic, PUBLIC_WORK_MAX } from "../../list/public";
import type { Keyed } from "../../store";
import { eachV1Collection } from "../all";
import { collectionAccess, uidOf, type CollectionRoutes } from "../collection";
import { resetMask } from "../../masks";
import { booleanParams } from "./params";
import { registerV1RegistryRoutes } from "./registry";
import { fromV1, toV1, toV1Listed } from "./shapes";
import { DEPLOYMENT_SUFFIX, serveDeployment } from "./deployments";

/** v2beta1 List parameters v1 filters do not have: ignored, as the gateway ignores what a request message lacks. */
const V2_LIST_PARAMS = new Set([
  "page_size",
  "pageSize",
  "page_token",
  "pageToken",
  "order_by",
  "orderBy",
  "skip",
  ...Object.keys(HIDDEN_TAGS).flatMap((f) => [f, jsonName(f)]),
]);

/**
 * The most items an anonymous v1 List answers. v1 has no paging, so an anonymous listing with more
 * matches is refused (FAILED_PRECONDITION) rather than cut short: a v1 client takes what it gets
 * for every match. v2beta1 pages through them.
 */
export const V1_ANONYMOUS_MAX = 1_000;

/** The v1 path of a v2beta1 one, where v1 names the collection alike. */
export const v1Path = (path: string): string => path.replace("/v2beta1/", "/v1/");

/** The collections v1 names otherwise (the v1 protos' `google.api.http` paths). */
const V1_PATHS: Partial<Record<CollectionName, string>> = {
  roleBindings: "/iam/v1/rolebindings",
  accountAssociations: "/iam/v1/account_associations",
  groupInvites: "/iam/v1/group_invites",
};

/** The v1 path of a collection. */
export const v1PathOf = (c: CollectionName): string => V1_PATHS[c] ?? v1Path(COLLECTIONS[c].path);

/**
 * The List query v1 takes: v2 filters, `id` (repeatable) as well as `uidp.ids`, no paging or
 * ordering. v1 lists every tag unless `exclude_referrers`, `exclude_dates` or `exclude_epochs`
 * (v1's TagFilter) leaves some out: the opposite of v2beta1's include_* flags.
 */
function v1ListQuery(collection: CollectionName, query: RawQuery): RawQuery {
  const out: RawQuery = {};
  const excluded = new Set<string>();
  for (const [k, v] of Object.entries(query)) {
    if (V2_LIST_PARAMS.has(k)) continue;
    if (k === "id" && query["uidp.ids"] !== undefined) throw invalidField(k, "give the ids either as id or as uidp.ids, not both");
    const flag = collection === "tags" ? EXCLUDE_FLAGS.get(k) : undefined;
    if (flag) {
      const b = typeof v === "string" ? parseBool(v) : undefined;
      if (b === undefined) throw invalidField(k, 'must be "true" or "false", given once');
      if (b) excluded.add(flag);
      continue;
    }
    out[k === "id" ? "uidp.ids" : k] = v;
  }
  if (collection === "tags") for (const flag of Object.keys(HIDDEN_TAGS)) if (!excluded.has(flag)) out[flag] = "true";
  return out;
}

/** v1's exclude_* parameters (both names) -> the v2beta1 include_* flag they negate. */
const EXCLUDE_FLAGS = new Map(
  Object.keys(HIDDEN_TAGS).flatMap((flag) => {
    const v1 = flag.replace(/^include_/, "exclude_");
    return [
      [v1, flag],
      [jsonName(v1), flag],
    ] as const;
  }),
);

function registerV1<T extends Keyed>(app: FastifyInstance, ctx: ServerContext, def: CollectionRoutes<T>): void {
  const name = def.list.name;
  const path = v1PathOf(name);
  const { cap, guard, readOptions, pageEnv, createOne, updateOne, writeOne, removeOne } = collectionAccess(ctx, def);
  const v1 = def.v1 ?? {};
  // The item in the v2beta1 shape, with what v1 carries besides.
  const shape = (req: FastifyRequest, item: T) => (v1.render ? v1.render(item) : def.render(ctx, item, callerOf(req)));
  const render = (req: FastifyRequest, item: T) => toV1Listed(name, shape(req, item));
  const noQuery = (req: FastifyRequest, why: string) => {
    for (const k of Object.keys(req.query as object)) throw invalidField(k, why);
  };
  const refuse = (why: string) => async (req: FastifyRequest) => {
    throw methodNotAllowed(req.method, req.url.split("?")[0], why);
  };

  app.get(path, readOptions, async (req) => {
    const query = v1ListQuery(name, req.query as RawQuery);
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

  // A repo's deployment (`<repo>/deployment`, registry v1 only: ./deployments.ts) shares the repos' wildcard.
  const orDeployment =
    (handler: (req: FastifyRequest) => Promise<unknown>) =>
    async (req: FastifyRequest): Promise<unknown> => {
      const wildcard = (req.params as { "*": string })["*"];
      return name === "repos" && wildcard.endsWith(DEPLOYMENT_SUFFIX) ? serveDeployment(ctx, req, wildcard) : handler(req);
    };

  app.get(`${path}/*`, readOptions, orDeployment(refuse(`v1 has no Get by id: list ${path}?id=<id>, or use ${COLLECTIONS[name].path}/<uid>`)));

  const create = def.create;
  const createV1 = v1.create;
  app.post(
    `${path}/*`,
    orDeployment(
      createV1
        ? async (req) => {
            const flags = booleanParams(req.query as RawQuery, createV1.query, "is not a query parameter of creates");
            const parent = parseUid((req.params as { "*": string })["*"], "parent");
            ctx.authz.require(callerOf(req), cap("create"), parent);
            const body = fromV1(name, req.body);
            const item = writeOne(req, () => {
              const r = createV1.run(ctx, parent, body, flags);
              return { item: r.item, action: r.created ? "created" : "updated" };
            });
            return toV1(name, shape(req, item));
          }
        : create
          ? async (req) => {
              noQuery(req, "is not a query parameter of creates");
              const parent = parseUid((req.params as { "*": string })["*"], "parent");
              ctx.authz.require(callerOf(req), cap("create"), parent);
              return toV1(name, createOne(req, parent, fromV1(name, req.body)));
            }
          : refuse(def.readOnly ?? `${name} cannot be created`),
    ),
  );

  const update = def.update;
  const updateV1 = v1.update;
  // v1 updates with PUT only (the v1 protos map Update to PUT), replacing every updatable field.
  app.patch(`${path}/*`, refuse(update || updateV1 ? `v1 updates with PUT ${path}/<id>` : (def.readOnly ?? `${name} cannot be updated`)));
  app.put(
    `${path}/*`,
    orDeployment(
      updateV1
        ? async (req: FastifyRequest) => {
            noQuery(req, "is not a query parameter of v1 updates: a v1 PUT replaces every updatable field");
            const uid = uidOf(req);
            guard(req, "update", uid);
            const body = fromV1(name, req.body, { id: uid, group: def.groupOf(uid) });
            return toV1(
              name,
              shape(
                req,
                writeOne(req, () => ({ item: updateV1(ctx, uid, body), action: "updated" })),
              ),
            );
          }
        : update
          ? async (req: FastifyRequest) => {
              noQuery(req, "is not a query parameter of v1 updates: a v1 PUT replaces every updatable field");
              const uid = uidOf(req);
              guard(req, "update", uid);
              const body = fromV1(name, req.body, { id: uid, group: def.groupOf(uid) });
              return toV1(name, updateOne(req, uid, body, resetMask(update.maskPaths, body)));
            }
          : refuse(def.readOnly ?? `${name} cannot be updated`),
    ),
  );

  app.delete(`${path}/*`, def.remove ? async (req) => removeOne(req) : refuse(def.readOnly ?? `${name} cannot be deleted`));
}

/** Registers the v1 paths of every IAM and registry collection, and registry v1's other repo and tag reads. */
export function registerV1Routes(app: FastifyInstance, ctx: ServerContext): void {
  eachV1Collection((routes) => registerV1(app, ctx, routes));
  registerV1RegistryRoutes(app, ctx);
}
