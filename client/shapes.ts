import { z } from "zod";
import type { CollectionName } from "../api/collections";
import { KINDS, definitionOf, readShapeOf, type ReadShape } from "../api/kinds";
import { lazyRecord, once } from "../api/once";
import { advisoryShapes } from "../api/advisories";
import { repoItem } from "../api/repo-item";
import { listOf } from "../api/wire";

type KindShapes = { [D in (typeof KINDS)[number] as D["kind"]]: z.ZodObject<ReadShape<D>, z.core.$loose> };

type Shapes = Omit<KindShapes, "repos"> & { repos: ReturnType<typeof repoItem>; advisories: ReturnType<typeof advisoryShapes>["Advisory"] };

/**
 * The loose response shape of one item of each collection (read once the response's `null`s are
 * dropped): each kind's from its definition, a repo's with its times optional. Each is built on
 * its first read: an operation reads a few kinds of the eleven.
 */
export const SHAPES: Shapes = lazyRecord<CollectionName, z.ZodType>([...KINDS.map((d) => d.kind), "advisories"], (c) =>
  c === "repos" ? repoItem() : c === "advisories" ? advisoryShapes().Advisory : readShapeOf(definitionOf(c)),
) as Shapes;

/** An item of collection `C` as the client returns it. */
export type Item<C extends CollectionName> = z.infer<(typeof SHAPES)[C]>;

/** A page of collection `C` as a List answers it, read. */
export type Envelope<C extends CollectionName> = { [K in C]: Item<C>[] } & { nextPageToken?: string | null; totalCount: string; skipped: number };

const envelopes = new Map<CollectionName, z.ZodType>();
/** The list envelope schema of collection `c` (`{<c>: [...], nextPageToken, totalCount, skipped}`). */
export function envelopeOf<C extends CollectionName>(c: C): z.ZodType<Envelope<C>> {
  let e = envelopes.get(c);
  if (!e) envelopes.set(c, (e = listOf(c, SHAPES[c] as z.ZodType)));
  // The cache holds each collection's envelope under its name, which the map's type cannot say.
  return e as z.ZodType<Envelope<C>>;
}

/**
 * What the platform's v1 lookup of an identity answers (`GET /iam/v1/identities/lookup`): a v1
 * Identity, loose. A person's carries no relationship type (and v1 has no emails).
 */
export const lookedUpIdentity = once(() =>
  z.looseObject({
    id: z.string(),
    name: z.string().default(""),
    description: z.string().default(""),
    createdAt: z.string().optional(),
    updatedAt: z.string().optional(),
    lastSeen: z.string().optional(),
  }),
);
export type LookedUpIdentity = z.infer<ReturnType<typeof lookedUpIdentity>>;

/**
 * A part of an item kept apart from it, holding text in member `member` (a repo's README as
 * GetRepoReadme answers, `RepoReadme`): an empty one may leave the member out.
 */
const textParts = new Map<string, z.ZodType>();
/** Built once per member: zod compiles an object schema on its first parse, which a refresh would pay per repo. */
export function textPart(member: string): z.ZodType {
  let shape = textParts.get(member);
  if (!shape) textParts.set(member, (shape = z.looseObject({ uid: z.string().default(""), [member]: z.string().default("") })));
  return shape;
}
