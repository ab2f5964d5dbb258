import type { z } from "zod";
import * as resources from "../api/resources";
import type { CollectionName } from "../api/collections";
import { KINDS, readShapeOf, type ReadShape } from "../api/kinds";

type KindShapes = { [D in (typeof KINDS)[number] as D["kind"]]: z.ZodObject<ReadShape<D>, z.core.$loose> };

/** The loose response shape of one item of each collection: each kind's from its definition. */
export const SHAPES = {
  ...(Object.fromEntries(KINDS.map((d) => [d.kind, readShapeOf(d)])) as KindShapes),
  repos: resources.Repo,
  tags: resources.Tag,
  advisories: resources.Advisory,
} satisfies Record<CollectionName, z.ZodType>;

/** An item of collection `C` as the client returns it. */
export type Item<C extends CollectionName> = z.infer<(typeof SHAPES)[C]>;

const envelopes = new Map<CollectionName, z.ZodType>();
/** The list envelope schema of collection `c` (`{<c>: [...], nextPageToken, totalCount, skipped}`). */
export function envelopeOf(c: CollectionName): z.ZodType {
  let e = envelopes.get(c);
  if (!e) envelopes.set(c, (e = resources.listOf(c, SHAPES[c] as z.ZodType)));
  return e;
}
