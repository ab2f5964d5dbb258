/**
 * The access model: who can do what, where. An organization's groups, roles, identities and
 * bindings (org.ts, from a stack's state, a proposed change or the live API: items.ts,
 * sources.ts), indexed to answer can-i, who-can and what (model.ts), and compared before and
 * after a change (diff.ts).
 */
export * from "./org";
export * from "./model";
export * from "./diff";
export * from "./items";
export * from "./sources";
export * from "./gates";
export * from "./world-file";
