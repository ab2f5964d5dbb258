/** The routes of a kind with nothing special: its definition's model, listed by uid or any scalar field, filtered by name. */
import type { CollectionName } from "../../api/collections";
import type { KindDefinition } from "../../api/kinds";
import { parentOf } from "../../api/uid";
import type { ServerContext } from "../context";
import { exact, type ListFilter } from "../list";
import { plainModel, scalarFields, type PlainRecord } from "../model";
import type { Collection } from "../store";
import { parentGroup, type CollectionRoutes } from "./collection";

/** The routes of the plain kind `d` (its items live directly under a group). */
export function plainRoutes<D extends KindDefinition>(d: D): CollectionRoutes<PlainRecord> {
  const items = (ctx: ServerContext) => ctx.store.collection(d.kind as CollectionName) as unknown as Collection<PlainRecord>;
  const model = plainModel(d, items);
  const byName: Record<string, ListFilter<PlainRecord>> = "name" in d.fields ? { name: exact((r: PlainRecord) => r.name as string) } : {};
  return {
    label: d.label,
    capability: d.capability,
    items,
    groupOf: parentGroup,
    list: { name: d.kind as CollectionName, sortable: scalarFields<PlainRecord>(d), filters: byName, groupOf: (r) => parentOf(r.uid) },
    render: (_ctx, r) => r,
    create: (ctx, parent, body) => model.create(ctx, parent, body),
    update: { maskPaths: model.maskPaths, run: (ctx, uid, body, mask) => model.update(ctx, uid, body, mask) },
    remove: (ctx, uid) => model.remove(ctx, uid),
  };
}
