/** Listing: query parsing, keyset views, signed page tokens, paginate(). */
export { paginate, type Page, type PageEnv } from "./paginate";
export { type ListSpec, type FilterSpec, type SortValue, exact } from "./spec";
export { type RawQuery } from "./query";
