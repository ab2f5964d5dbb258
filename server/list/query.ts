/**
 * Parses a List request's query string: paging parameters, order_by, scope filters and the
 * collection's own filters. Every malformed or unknown parameter is an INVALID_ARGUMENT naming it.
 *
 * page_size: default 50; 0 means the default; above 200 it is clamped to 200, as the real
 * gateway does (the spec calls 200 the maximum and does not show a rejection).
 */
import { COLLECTIONS, PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX, SCOPE_FILTERS } from "../../api/collections";
import { UID } from "../../api/uid";
import { invalidField } from "../errors";
import type { Keyed } from "../store";
import type { ListSpec } from "./spec";

/** A raw query as Fastify parses it. */
export type RawQuery = Record<string, string | string[] | undefined>;

/** The sort of a listing: a field and a direction. */
export interface Order {
  field: string;
  desc: boolean;
}

/** A parsed List request. */
export interface ListQuery {
  pageSize: number;
  pageToken?: string;
  skip: number;
  order: Order;
  /** Scope and collection filters: parameter -> values (comma-split where repeatable). */
  filters: Record<string, string[]>;
}

const PAGING: Record<string, string> = {
  page_size: "page_size",
  pageSize: "page_size",
  page_token: "page_token",
  pageToken: "page_token",
  order_by: "order_by",
  orderBy: "order_by",
  skip: "skip",
};

const SCOPE_SET = new Set<string>(SCOPE_FILTERS);
const REPEATED_SCOPES = new Set(["uidp.ids"]);

/** `table[key]` when `key` is the table's own (never `constructor`, `toString` and the like). */
function own<V>(table: Record<string, V>, key: string): V | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

/** snake_case -> camelCase (`create_time` -> `createTime`). */
function camel(s: string): string {
  return s.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** Names every collection accepts for its timestamps besides the field names themselves. */
const TIME_ALIASES: Record<string, string> = { createdAt: "createTime", updatedAt: "updateTime" };

/** Parses `order_by`: one field, optionally followed by `asc` or `desc`. */
export function parseOrder<T extends Keyed>(raw: string, spec: ListSpec<T>): Order {
  const parts = raw.trim().split(/\s+/);
  if (parts.length > 2 || parts[0] === "" || raw.includes(","))
    throw invalidField("order_by", 'must be one field name, optionally followed by " desc" or " asc"');
  const dir = (parts[1] ?? "asc").toLowerCase();
  if (dir !== "asc" && dir !== "desc") throw invalidField("order_by", `direction must be "asc" or "desc", not "${parts[1]}"`);
  let field = camel(parts[0]);
  field = own(spec.aliases ?? {}, field) ?? own(TIME_ALIASES, field) ?? field;
  if (own(spec.sortable, field) === undefined)
    throw invalidField(
      "order_by",
      `cannot sort ${spec.name} by "${parts[0]}"; sortable fields: ${Object.keys(spec.sortable).join(", ")}`,
    );
  return { field, desc: dir === "desc" };
}

function single(name: string, v: string | string[]): string {
  if (Array.isArray(v)) throw invalidField(name, "must be given at most once");
  return v;
}

/** The values of a repeatable parameter: repeated, comma-separated, or both. */
function many(v: string | string[]): string[] {
  return (Array.isArray(v) ? v : [v]).flatMap((x) => x.split(",")).filter((x) => x !== "");
}

function nonNegativeInt(name: string, v: string): number {
  if (!/^\d{1,9}$/.test(v)) throw invalidField(name, "must be a non-negative integer");
  return Number(v);
}

/** A `page_size`: any non-negative integer, however many digits; 0 means the default, above the maximum is the maximum. */
function pageSizeOf(v: string): number {
  if (!/^\d+$/.test(v)) throw invalidField("page_size", "must be a non-negative integer");
  const digits = v.replace(/^0+(?=\d)/, "");
  const n = digits.length > 9 ? PAGE_SIZE_MAX : Number(digits);
  return n === 0 ? PAGE_SIZE_DEFAULT : Math.min(n, PAGE_SIZE_MAX);
}

/** Parses and validates a List query for `spec`. */
export function parseListQuery<T extends Keyed>(raw: RawQuery, spec: ListSpec<T>): ListQuery {
  const q: ListQuery = {
    pageSize: PAGE_SIZE_DEFAULT,
    skip: 0,
    order: parseOrder(COLLECTIONS[spec.name].defaultOrder, spec),
    filters: {},
  };
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    const paging = own(PAGING, name);
    if (paging === "page_size") {
      q.pageSize = pageSizeOf(single("page_size", value));
    } else if (paging === "page_token") {
      const t = single("page_token", value);
      if (t !== "") q.pageToken = t;
    } else if (paging === "order_by") {
      const o = single("order_by", value);
      if (o.trim() !== "") q.order = parseOrder(o, spec);
    } else if (paging === "skip") {
      q.skip = nonNegativeInt("skip", single("skip", value));
    } else if (SCOPE_SET.has(name)) {
      const values = REPEATED_SCOPES.has(name) ? many(value) : [single(name, value)];
      if (name === "uidp.in_root") {
        if (!/^(true|false)$/.test(values[0])) throw invalidField(name, 'must be "true" or "false"');
      } else {
        for (const v of values) if (!UID.test(v)) throw invalidField(name, "must be a uid: 40 hex characters, then /-separated 16-hex segments");
      }
      q.filters[name] = values;
    } else if (own(spec.filters, name)) {
      const f = spec.filters[name];
      const values = f.repeated ? many(value) : [single(name, value)];
      for (const v of values) {
        const problem = f.check?.(v);
        if (problem) throw invalidField(name, problem);
      }
      q.filters[name] = values;
    } else {
      throw invalidField(name, `is not a query parameter of ${spec.name} lists`);
    }
  }
  return q;
}
