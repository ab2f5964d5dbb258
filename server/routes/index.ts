/** Every API collection's routes, registered under one authenticated scope. */
import type { FastifyInstance } from "fastify";
import { gaPath } from "../../api/grpc/ga";
import type { ServerContext } from "../context";
import { eachCollection } from "./all";
import { registerCollection } from "./collection";
import { registerLookupRoutes } from "./lookup";
import { registerV1Routes } from "./v1";
import { registerVersionRoutes } from "./versions";

/** Registers all collections' routes: v2beta1, the GA v2 beside it from the same definitions, and v1 (with its package versions). */
export function registerApiRoutes(app: FastifyInstance, ctx: ServerContext): void {
  eachCollection((routes) => registerCollection(app, ctx, routes));
  eachCollection((routes) => registerCollection(app, ctx, routes, gaPath));
  registerV1Routes(app, ctx);
  registerLookupRoutes(app, ctx);
  registerVersionRoutes(app, ctx);
}

export { registerCollection, type CollectionRoutes } from "./collection";
