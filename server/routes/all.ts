/**
 * Every collection's routes, listed once: v2beta1 serves them all, v1 those it had (no
 * advisories). A visitor rather than an array, so each collection keeps its own item type.
 */
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

/** Called once per collection with its routes. */
export type RoutesVisitor = <T extends Keyed>(routes: CollectionRoutes<T>) => void;

/** Visits the IAM and registry collections: served under v2beta1 and v1 alike. */
export function eachV1Collection(visit: RoutesVisitor): void {
  visit(groupRoutes);
  visit(identityRoutes);
  visit(roleRoutes);
  visit(roleBindingRoutes);
  visit(identityProviderRoutes);
  visit(accountAssociationRoutes);
  visit(groupInviteRoutes);
  visit(repoRoutes);
  visit(tagRoutes);
}

/** Visits every collection served under v2beta1. */
export function eachCollection(visit: RoutesVisitor): void {
  eachV1Collection(visit);
  visit(advisoryRoutes);
}
