/** The typed API client: requests, pagination, retries and typed errors. */
export * from "./errors";
export * from "./client";
export * from "./retry";
export { SHAPES, type Item } from "./shapes";
export { dispatcherFor, closeAll } from "./transport";
