/** The models: each kind's create/update/delete rules over the store, and its wire shape. */
export * from "./common";
export * from "./changes";
export * from "./groups";
export * from "./identities";
export * from "./roles";
export * from "./roleBindings";
export * from "./identityProviders";
export * from "./accountAssociations";
export * from "./groupInvites";
export * from "./subscriptions";
export * from "./people";
export * from "./repos";
export * from "./tags";
