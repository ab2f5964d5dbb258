/**
 * Every collection's routes, listed once: v2beta1 serves them all, v1 those it had (no
 * advisories). Each kind (api/kinds) is served by its routes file, over its definition. A visitor
 * rather than an array, so each collection keeps its own item type.
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
import { repoRoutes, tagRoutes } from "./registry";
import { roleBindingRoutes } from "./roleBindings";
import { roleRoutes } from "./roles";
import { subscriptionRoutes } from "./subscriptions";

/** Called once per collection with its routes. */
export type RoutesVisitor = <T extends Keyed>(routes: CollectionRoutes<T>) => void;

/** Each kind's routes, handed to a visitor (a record of routes would lose each one's item type). */
const KIND_ROUTES: Record<Kind, (visit: RoutesVisitor) => void> = {
  groups: (visit) => visit(groupRoutes),
  identities: (visit) => visit(identityRoutes),
  roles: (visit) => visit(roleRoutes),
  roleBindings: (visit) => visit(roleBindingRoutes),
  identityProviders: (visit) => visit(identityProviderRoutes),
  accountAssociations: (visit) => visit(accountAssociationRoutes),
  groupInvites: (visit) => visit(groupInviteRoutes),
  repos: (visit) => visit(repoRoutes),
  tags: (visit) => visit(tagRoutes),
  // No collection of its own: registry v1 serves it below each repo (./v1/deployments.ts).
  repoDeployments: () => {},
  subscriptions: (visit) => visit(subscriptionRoutes),
};

/** Visits every kind's collection: served under v2beta1 and v1 alike. */
export function eachV1Collection(visit: RoutesVisitor): void {
  for (const d of KINDS) KIND_ROUTES[d.kind](visit);
}

/** Visits every collection served under v2beta1. */
export function eachCollection(visit: RoutesVisitor): void {
  eachV1Collection(visit);
  visit(advisoryRoutes);
}
