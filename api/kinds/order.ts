/**
 * Which of a kind's values have no order, derived from its proto facts, once: a repeated field is
 * a set (the platform stores a role's capabilities once each and matches scopes, audiences and a
 * GitHub app's installations as sets), and a map's keys have no order. The provider's diff
 * (provider/resources/diff.ts) and `irv drift`'s comparison (cli/drift) both compare values in the
 * canonical form `canonicalOf` gives, so a program's order ("tag.list, repo.list") never reads as
 * a change, whichever of them compares.
 */
import { type KindDefinition, type ProtoField } from "./definition";
import { fieldEntries } from "./field-sets";

/** How a value is ordered: a set (a repeated field), and how its members, map values and items are. */
export interface Order {
  /** A repeated field: order and repeats mean nothing. */
  set?: true;
  /** A message's members, by wire name. */
  members?: Record<string, Order>;
  /** A map field: each value's order (its keys have none). */
  values?: Order;
  /** A repeated message: each item's order. */
  items?: Order;
}

const orders = new WeakMap<KindDefinition, Record<string, Order>>();

/** The order of each of `d`'s fields that has anything unordered in it, by field name. */
export function ordersOf(d: KindDefinition): Record<string, Order> {
  let out = orders.get(d);
  if (out) return out;
  const messages = new Map((d.proto.messages ?? []).map((m) => [m.name, m.fields]));
  const of = (p: ProtoField, depth = 0): Order | undefined => {
    const fields = depth < 8 ? messages.get(p.type) : undefined;
    const inner: Order = {};
    if (fields)
      for (const [name, f] of Object.entries(fields)) {
        const o = of(f, depth + 1);
        if (o) (inner.members ??= {})[name] = o;
      }
    const element = inner.members ? inner : undefined;
    if (p.keyType) return { values: element };
    if (p.repeated) return { set: true, ...(element ? { items: element } : {}) };
    return element;
  };
  out = {};
  for (const [name, f] of fieldEntries(d.fields)) {
    const o = f.proto && of(f.proto);
    if (o) out[name] = o;
  }
  orders.set(d, out);
  return out;
}

/** The dotted paths of `d`'s sets (`capabilities`, `oidc.additionalScopes`; `*` for a map's keys, `[]` for a list's items). */
export function setPathsOf(d: KindDefinition): string[] {
  const out: string[] = [];
  const walk = (o: Order, path: string) => {
    if (o.set) out.push(path);
    for (const [k, m] of Object.entries(o.members ?? {})) walk(m, `${path}.${k}`);
    if (o.values) walk(o.values, `${path}.*`);
    if (o.items) walk(o.items, `${path}.[]`);
  };
  for (const [name, o] of Object.entries(ordersOf(d))) walk(o, name);
  return out.sort();
}

/**
 * Field `field`'s value `v` in canonical form: every set sorted, its repeats dropped, and every
 * object's members in key order, at any depth. Lists that are not sets keep their order.
 */
export function canonicalOf(d: KindDefinition, field: string, v: unknown): unknown {
  return canonical(v, ordersOf(d)[field]);
}

function canonical(v: unknown, o: Order | undefined): unknown {
  if (Array.isArray(v)) {
    const items = v.map((x) => canonical(x, o?.items));
    if (!o?.set) return items;
    const byText = new Map(items.map((x) => [JSON.stringify(x), x]));
    return [...byText.keys()].sort().map((k) => byText.get(k));
  }
  if (v && typeof v === "object") {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) out[k] = canonical((v as Record<string, unknown>)[k], o?.members?.[k] ?? o?.values);
    return out;
  }
  return v;
}
