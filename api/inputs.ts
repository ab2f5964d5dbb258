/** Transitional: the request bodies moved to bodies.ts. */
export * from "./bodies";
