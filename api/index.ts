/** Wire types shared by the client and the server: codes, uids, field rules, bodies, resources. */
export * from "./codes";
export * from "./uid";
export * from "./capabilities";
export * as fields from "./fields";
export * from "./bodies";
export * as resources from "./resources";
export * from "./collections";
