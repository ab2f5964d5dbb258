/** What changed between old outputs and new inputs, and the update that makes the change. */
import { canonicalOf, definitionOf, type Kind, type KindDefinition } from "../../api/kinds";
import type { FieldSpec, Inputs, KindSpec, Outputs, Rec, Unchecked } from "./spec";
import { clean, containsUnknown, isEmpty, isRecord, same } from "./values";

/** What changed between old outputs and new inputs. */
export interface Changes {
  /** Top-level inputs that differ. */
  changed: string[];
  /** Those that force replacement. */
  replaces: string[];
  /** updateMask paths (wire names, dotted inside blocks). */
  mask: string[];
}

/** The block `news` with the members the API computes when omitted (`computedMembers`) taken from `olds`: omitting one is no change. */
function withComputed(fs: FieldSpec, olds: unknown, news: unknown): unknown {
  if (!fs.computedMembers || !isRecord(olds) || !isRecord(news) || containsUnknown(news)) return news;
  const filled = { ...news };
  for (const m of fs.computedMembers) if (filled[m] === undefined && olds[m] !== undefined) filled[m] = olds[m];
  return filled;
}

/** Compares old outputs with new inputs, field by field, over the declared inputs only. */
export function changesOf<K extends Kind>(spec: KindSpec<K>, prior: Unchecked<Outputs<K>>, next: Unchecked<Inputs<K>>): Changes {
  const d: KindDefinition = definitionOf<Kind>(spec.collection);
  const olds: Rec = prior;
  const news: Rec = next;
  const changed: string[] = [];
  const mask: string[] = [];
  for (const [name, fs] of Object.entries(spec.fields)) {
    // A program may give what the wire spells differently (`CAP_IAM_GROUPS_LIST` for `groups.list`),
    // and a set in any order (api/kinds/order.ts).
    const canon = (v: unknown) => canonicalOf(d, name, fs.codec && v !== undefined && !containsUnknown(v) ? fs.codec.fromWire(fs.codec.toWire(v)) : v);
    const o = canon(olds[name] ?? fs.default);
    const n = canon(withComputed(fs, olds[name], news[name] ?? fs.default));
    if (fs.computedWhenOmitted && news[name] === undefined) continue;
    if (!containsUnknown(n) && same(o, n)) continue;
    if (olds[name] === undefined && !containsUnknown(n) && spec.liveConfirms?.(name, prior, next)) continue;
    changed.push(name);
    const wire = fs.wire;
    if (fs.block && !containsUnknown(n) && !isEmpty(o) && !isEmpty(n) && isRecord(o) && isRecord(n)) {
      for (const k of [...new Set([...Object.keys(o), ...Object.keys(n)])].sort()) if (!same(o[k], n[k])) mask.push(`${wire}.${k}`);
    } else mask.push(wire);
  }
  const replaces = changed.filter((name) => spec.fields[name].replace);
  for (const r of spec.extraReplaces?.(prior, next) ?? []) if (!replaces.includes(r)) replaces.push(r);
  return { changed, replaces, mask };
}

/** Whether `a` and `b` are the same value of `d`'s field `field`: a set in any order is the same set (api/kinds/order.ts). */
export function sameIn(d: KindDefinition, field: string, a: unknown, b: unknown): boolean {
  return same(canonicalOf(d, field, a), canonicalOf(d, field, b));
}

/** A diff's verdict: what changed, whether anything did, what replaces, and in which order. */
export interface Verdict extends Changes {
  changes: boolean;
  deleteBeforeReplace: boolean;
}

/** The diff of old outputs and new inputs, as both the dynamic classes and the plugin report it. */
export function verdictOf<K extends Kind>(spec: KindSpec<K>, olds: Unchecked<Outputs<K>>, news: Unchecked<Inputs<K>>): Verdict {
  const c = changesOf(spec, olds, news);
  const replacing = c.replaces.length > 0;
  const d: KindDefinition = definitionOf<Kind>(spec.collection);
  return { ...c, changes: c.changed.length > 0 || replacing, deleteBeforeReplace: replacing && !!d.deleteBeforeReplace };
}

/** The update body: the new values of the top-level fields the mask touches, on the wire. */
export function updateBody<K extends Kind>(spec: KindSpec<K>, inputs: Inputs<K>, mask: string[]): Rec {
  if (spec.updateBody) return clean(spec.updateBody(inputs, mask));
  const body = spec.createBody(inputs);
  const tops = new Set(mask.map((m) => m.split(".")[0]));
  return clean(Object.fromEntries(Object.entries(body).filter(([k]) => tops.has(k))));
}
