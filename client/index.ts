/**
 * The platform's API client, which the provider, the SDK's data sources and the `irv` command all
 * use: requests, pagination, retries and typed errors; where tokens come from (`auth`); settings
 * (`irv:*` config or environment), a provider's session over them (`Session`) and the process's client cache.
 */
export * from "./errors";
export * from "./client";
export * from "./retry";
export { MAX_ANSWER_BYTES } from "./body";
export { MAX_PAGES, PageTokens } from "./paging";
export type { TokenSource } from "./token-source";
export { SHAPES, type Item } from "./shapes";
export { dispatcherFor, closeAll } from "./transport";
export * from "./config";
export { cachedClient, clientFor, Session } from "./session";
export * as auth from "./auth";
