/** Every API collection's routes, registered under one authenticated scope. */
import type { FastifyInstance } from "fastify";
import type { ServerContext } from "../context";
import { accountAssociationRoutes } from "./accountAssociations";
import { advisoryRoutes } from "./advisories";
import { registerCollection } from "./collection";
import { groupInviteRoutes } from "./groupInvites";
import { groupRoutes } from "./groups";
import { identityRoutes } from "./identities";
import { identityProviderRoutes } from "./identityProviders";
import { repoRoutes, tagRoutes } from "./registry";
import { roleBindingRoutes } from "./roleBindings";
import { roleRoutes } from "./roles";
import { registerV1Routes } from "./v1";

/** Registers all collections' routes. */
export function registerApiRoutes(app: FastifyInstance, ctx: ServerContext): void {
  registerCollection(app, ctx, groupRoutes);
  registerCollection(app, ctx, identityRoutes);
  registerCollection(app, ctx, roleRoutes);
  registerCollection(app, ctx, roleBindingRoutes);
  registerCollection(app, ctx, identityProviderRoutes);
  registerCollection(app, ctx, accountAssociationRoutes);
  registerCollection(app, ctx, groupInviteRoutes);
  registerCollection(app, ctx, repoRoutes);
  registerCollection(app, ctx, tagRoutes);
  registerCollection(app, ctx, advisoryRoutes);
  registerV1Routes(app, ctx);
}

export { registerCollection, type CollectionRoutes } from "./collection";
