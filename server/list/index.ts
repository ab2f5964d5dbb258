/** Listing: query parsing, keyset views, signed page tokens, paginate(). */
export { paginate, type Page, type PageEnv } from "./paginate";
export { type Listing, type ListFilter, type SortValue, exact } from "./listing";
export { type RawQuery } from "./query";
