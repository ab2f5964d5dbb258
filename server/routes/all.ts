/**
 * Every collection's routes, listed once: v2beta1 serves them all, v1 those it had (no
 * advisories). Each kind (api/kinds) is served by its routes file where it has rules of its own,
 * else by the routes its definition implies (plain.ts). A visitor rather than an array, so each
 * collection keeps its own item type.
 */
import { KINDS, type Kind } from "../../api/kinds";
import type { Keyed } from "../store";
import { accountAssociationRoutes } from "./accountAssociations";
import { advisoryRoutes } from "./advisories";
import type { CollectionRoutes } from "./collection";
import { groupInviteRoutes } from "./groupInvites";
import { groupRoutes } from "./groups";
import { identityRoutes } from "./identities";
import { identityProviderRoutes } from "./identityProviders";
import { plainRoutes } from "./plain";
import { repoRoutes, tagRoutes } from "./registry";
import { roleBindingRoutes } from "./roleBindings";
import { roleRoutes } from "./roles";

/** Called once per collection with its routes. */
export type RoutesVisitor = <T extends Keyed>(routes: CollectionRoutes<T>) => void;

/** The kinds with rules beyond their definitions, and their routes. */
const WRITTEN = {
  groups: groupRoutes,
  identities: identityRoutes,
  roles: roleRoutes,
  roleBindings: roleBindingRoutes,
  identityProviders: identityProviderRoutes,
  accountAssociations: accountAssociationRoutes,
  groupInvites: groupInviteRoutes,
} satisfies Partial<Record<Kind, unknown>>;

/** The routes of a kind. */
const routesOf = (d: (typeof KINDS)[number]): CollectionRoutes<Keyed> =>
  ((WRITTEN as Partial<Record<Kind, unknown>>)[d.kind] ?? plainRoutes(d)) as CollectionRoutes<Keyed>;

/** Visits the IAM and registry collections: served under v2beta1 and v1 alike. */
export function eachV1Collection(visit: RoutesVisitor): void {
  for (const d of KINDS) visit(routesOf(d));
  visit(repoRoutes);
  visit(tagRoutes);
}

/** Visits every collection served under v2beta1. */
export function eachCollection(visit: RoutesVisitor): void {
  eachV1Collection(visit);
  visit(advisoryRoutes);
}
