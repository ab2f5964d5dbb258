/**
 * The model of a kind whose definition says everything: items under a group holding their
 * inputs (by wire name) and the API's defaults for the rest. Create, update with masks, and
 * delete follow from the definition; a kind with rules of its own has a model file instead.
 */
import { createBodyOf, readDefaults, updateBodyOf, wireNameOf, type FieldDefinition, type KindDefinition } from "../../api/kinds";
import { timestamp, type ServerContext } from "../context";
import { applyPatch, maskPaths } from "../masks";
import type { Collection, Keyed } from "../store";
import { parseBody } from "../validate";
import { changed, freshUid, pick, requireGroup, requireItem } from "./common";

/** A plain kind's item as the store keeps it: the API's item, by wire name. */
export type PlainRecord = Keyed & { createTime: string; updateTime: string } & Record<string, unknown>;

/** Create, update and delete of the plain kind `d`, over its store collection. */
export function plainModel<D extends KindDefinition>(d: D, items: (ctx: ServerContext) => Collection<PlainRecord>) {
  const Create = createBodyOf(d);
  const Update = updateBodyOf(d);
  const fields = Object.entries(d.fields) as [string, FieldDefinition][];
  const blocks = fields.filter(([, f]) => f.block).map(([n, f]) => wireNameOf(n, f));
  const inputs = fields.filter(([, f]) => f.schema).map(([n, f]) => wireNameOf(n, f));
  // What an omitted input reads as: its definition's default (`""` for a description).
  const defaults = Object.fromEntries(fields.filter(([, f]) => f.schema && f.default !== undefined).map(([n, f]) => [wireNameOf(n, f), f.default]));
  const record = (base: Keyed & { createTime: string; updateTime: string }, input: object) =>
    ({ ...readDefaults(d), ...structuredClone(defaults), ...input, ...base });

  return {
    maskPaths: maskPaths(Update, blocks),
    create(ctx: ServerContext, groupUid: string, body: unknown): PlainRecord {
      requireGroup(ctx, groupUid);
      const input = parseBody(Create, body);
      const now = timestamp(ctx);
      const r = record({ uid: freshUid(items(ctx), groupUid), createTime: now, updateTime: now }, input);
      items(ctx).insert(r);
      return r;
    },
    update(ctx: ServerContext, uid: string, body: unknown, mask: string[] | undefined): PlainRecord {
      const old = requireItem(items(ctx), uid, d.label);
      const patch = parseBody(Update, body);
      const next = parseBody(Create, applyPatch(pick(old, inputs), patch, mask, blocks));
      const r = record({ uid, createTime: old.createTime, updateTime: timestamp(ctx) }, next);
      if (!changed(old, r)) return old;
      items(ctx).replace(r);
      return r;
    },
    remove(ctx: ServerContext, uid: string): void {
      requireItem(items(ctx), uid, d.label);
      items(ctx).remove(uid);
    },
  };
}
