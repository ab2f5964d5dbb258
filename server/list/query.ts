/**
 * Parses a List request's query string: paging parameters, order_by, scope filters and the
 * collection's own filters, as the platform's gateway (grpc-gateway) reads them into the List
 * request message: each parameter under its proto name or its JSON name, segment by segment
 * (`page_size` or `pageSize`, `uidp.descendants_of` or `uidp.descendantsOf`); a parameter the
 * message does not have is ignored. A malformed value of a known parameter, or a single-valued
 * one given twice, is an INVALID_ARGUMENT naming it.
 *
 * page_size: default 50; 0 means the default; above 200 it is clamped to 200, as the real
 * gateway does (the spec calls 200 the maximum and does not show a rejection).
 *
 * What ignoring costs: one table lookup per parameter; the request line (with its query) is at
 * most 16 KiB (server/app.ts), and a repeated parameter takes at most MAX_VALUES values.
 */
import { COLLECTIONS, PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX, SCOPE_FILTERS } from "../../api/collections";
import { UID } from "../../api/uid";
import { invalidField } from "../errors";
import type { Keyed } from "../store";
import type { Listing } from "./listing";

/** A raw query as Fastify parses it. */
export type RawQuery = Record<string, string | string[] | undefined>;

/** The sort of a listing: a field and a direction. */
export interface Order {
  field: string;
  desc: boolean;
}

/** Items a listing leaves out: its test (true for an item listed) and a key naming what it hides. */
export interface Hidden<T> {
  key: string;
  shown(item: T): boolean;
}

/** A parsed List request. */
export interface ListQuery<T extends Keyed = Keyed> {
  pageSize: number;
  pageToken?: string;
  skip: number;
  order: Order;
  /** Scope and collection filters by proto name: parameter -> values (one per parameter given). */
  filters: Record<string, string[]>;
  /** What the collection hides by default and this query did not ask for (a tag list's referrers). */
  hidden?: Hidden<T>;
}

/** The most values one repeated parameter may take. */
export const MAX_VALUES = 1_000;

const PAGING = ["page_size", "page_token", "order_by", "skip"];
const REPEATED_SCOPES = new Set(["uidp.ids"]);

/** A proto name's JSON name, segment by segment (`uidp.descendants_of` -> `uidp.descendantsOf`). */
export function jsonName(protoName: string): string {
  return protoName.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** Every parameter a collection's List takes, under both its names -> its proto name. */
const namesOf = new WeakMap<object, Map<string, string>>();
function parameterNames<T extends Keyed>(spec: Listing<T>): Map<string, string> {
  let names = namesOf.get(spec);
  if (!names) {
    names = new Map();
    for (const p of [...PAGING, ...SCOPE_FILTERS, ...Object.keys(spec.filters), ...Object.keys(spec.hidden ?? {})]) {
      names.set(p, p);
      names.set(jsonName(p), p);
    }
    namesOf.set(spec, names);
  }
  return names;
}

/** A boolean as Go's strconv.ParseBool (the gateway's) reads it, or undefined. */
export function parseBool(v: string): boolean | undefined {
  if (["1", "t", "T", "TRUE", "true", "True"].includes(v)) return true;
  if (["0", "f", "F", "FALSE", "false", "False"].includes(v)) return false;
  return undefined;
}

/** `raw` is the value of a proto enum `names` (by name, or by number as the gateway also accepts): its name, or undefined. */
export function enumValue(raw: string, names: readonly string[]): string | undefined {
  if (/^\d{1,3}$/.test(raw)) return names[Number(raw)];
  return names.includes(raw) ? raw : undefined;
}

/** `table[key]` when `key` is the table's own (never `constructor`, `toString` and the like). */
function own<V>(table: Record<string, V>, key: string): V | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

/** Names every collection accepts for its timestamps besides the field names themselves. */
const TIME_ALIASES: Record<string, string> = { createdAt: "createTime", updatedAt: "updateTime" };

/** Parses `order_by`: one field, optionally followed by `asc` or `desc`. */
export function parseOrder<T extends Keyed>(raw: string, spec: Listing<T>, as = "order_by"): Order {
  const parts = raw.trim().split(/\s+/);
  if (parts.length > 2 || parts[0] === "" || raw.includes(",")) throw invalidField(as, 'must be one field name, optionally followed by " desc" or " asc"');
  const dir = (parts[1] ?? "asc").toLowerCase();
  if (dir !== "asc" && dir !== "desc") throw invalidField(as, `direction must be "asc" or "desc", not "${parts[1]}"`);
  let field = jsonName(parts[0]);
  field = own(spec.aliases ?? {}, field) ?? own(TIME_ALIASES, field) ?? field;
  if (own(spec.sortable, field) === undefined)
    throw invalidField(as, `cannot sort ${spec.name} by "${parts[0]}"; sortable fields: ${Object.keys(spec.sortable).join(", ")}`);
  return { field, desc: dir === "desc" };
}

function nonNegativeInt(name: string, v: string): number {
  if (!/^\d{1,9}$/.test(v)) throw invalidField(name, "must be a non-negative integer");
  return Number(v);
}

/** A `page_size`: any non-negative integer, however many digits; 0 means the default, above the maximum is the maximum. */
function pageSizeOf(name: string, v: string): number {
  if (!/^\d+$/.test(v)) throw invalidField(name, "must be a non-negative integer");
  const digits = v.replace(/^0+(?=\d)/, "");
  const n = digits.length > 9 ? PAGE_SIZE_MAX : Number(digits);
  return n === 0 ? PAGE_SIZE_DEFAULT : Math.min(n, PAGE_SIZE_MAX);
}

/** What of a query a page token is bound to besides its order: its filters, and what it hides. */
export function filterKey(q: ListQuery<never>): unknown[] {
  return [Object.entries(q.filters).sort(([a], [b]) => (a < b ? -1 : 1)), q.hidden?.key ?? ""];
}

/** Parses and validates a List query for `spec`. */
export function parseListQuery<T extends Keyed>(raw: RawQuery, spec: Listing<T>): ListQuery<T> {
  const q: ListQuery<T> = {
    pageSize: PAGE_SIZE_DEFAULT,
    skip: 0,
    order: parseOrder(COLLECTIONS[spec.name].defaultOrder, spec),
    filters: {},
  };
  // Each parameter's values under its proto name, whichever of its names carried them.
  const names = parameterNames(spec);
  const given = new Map<string, { as: string; values: string[] }>();
  for (const [name, value] of Object.entries(raw)) {
    const proto = value === undefined ? undefined : names.get(name);
    if (proto === undefined) continue;
    const seen = given.get(proto);
    const values = Array.isArray(value) ? value : [value!];
    if (seen) seen.values.push(...values);
    else given.set(proto, { as: name, values: [...values] });
  }
  const flags = new Set<string>();
  for (const [proto, { as, values }] of given) {
    const single = () => {
      if (values.length > 1) throw invalidField(as, "must be given at most once");
      return values[0];
    };
    // A repeated field takes one value per parameter, as the gateway reads it: `uidp.ids=a&uidp.ids=b`.
    // A comma is part of the value (the gateway splits nothing), so `a,b` is one value.
    const many = () => {
      const out = values.filter((x) => x !== "");
      if (out.length > MAX_VALUES) throw invalidField(as, `takes at most ${MAX_VALUES} values`);
      return out;
    };
    const hidden = spec.hidden && Object.hasOwn(spec.hidden, proto);
    if (proto === "page_size") {
      q.pageSize = pageSizeOf(as, single());
    } else if (proto === "page_token") {
      const t = single();
      if (t !== "") q.pageToken = t;
    } else if (proto === "order_by") {
      const o = single();
      if (o.trim() !== "") q.order = parseOrder(o, spec, as);
    } else if (proto === "skip") {
      q.skip = nonNegativeInt(as, single());
    } else if (proto === "uidp.in_root" || hidden) {
      const b = parseBool(single());
      if (b === undefined) throw invalidField(as, 'must be "true" or "false"');
      // false is a proto3 bool's unset value: no filter, as on the platform.
      if (b && hidden) flags.add(proto);
      else if (b) q.filters[proto] = ["true"];
    } else if (!REPEATED_SCOPES.has(proto) && !spec.filters[proto]?.repeated && single() === "") {
      // An empty string is a proto3 string's unset value: no filter.
    } else if (proto.startsWith("uidp.")) {
      const vs = REPEATED_SCOPES.has(proto) ? many() : [single()];
      for (const v of vs)
        if (!UID.test(v))
          throw invalidField(
            as,
            "must be a uid: 40 hex characters, then /-separated 16-hex segments" +
              (REPEATED_SCOPES.has(proto) && v.includes(",") ? `; give several as repeated parameters (${as}=A&${as}=B), not comma-separated` : ""),
          );
      q.filters[proto] = vs;
    } else {
      const f = spec.filters[proto];
      const vs = f.repeated ? many() : [single()];
      q.filters[proto] = vs.map((v) => {
        const problem = f.check?.(v);
        if (problem) throw invalidField(as, problem);
        return f.normalize?.(v) ?? v;
      });
    }
  }
  const hides = Object.entries(spec.hidden ?? {}).filter(([flag]) => !flags.has(flag));
  if (hides.length) q.hidden = { key: hides.map(([flag]) => flag).join(","), shown: (item) => !hides.some(([, admits]) => admits(item)) };
  return q;
}
