/** IAM resources and data sources: groups, identities, roles, bindings, IdPs, associations, invites. */
export * from "./group";
export * from "./identity";
export * from "./role";
export * from "./roleBinding";
export * from "./identityProvider";
export * from "./accountAssociation";
export * from "./groupInvite";
export * from "./dataSources";
