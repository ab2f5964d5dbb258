/**
 * Facts of the registry besides its kinds' definitions (api/kinds/repos.ts, tags.ts): the README's
 * bound and body, the catalog tiers, and which tags a List hides.
 */
import { once } from "./once";
import { z } from "zod";

/** The longest README (Markdown) a repo keeps, in characters. */
export const README_MAX = 1_000_000;

/**
 * UpdateRepoReadme's body (`repo_readme`, a `RepoReadme`): its `uid` is output only (the path
 * names the repo), and `content` is the Markdown.
 */
export const repoReadmeBody = once(() =>
  z.strictObject({
    uid: z.string().optional(),
    content: z.string().max(README_MAX, `must be at most ${README_MAX} characters`).optional(),
  }),
);

/** `CatalogTier`: a repo's catalog tier, by its enum name. */
export const CATALOG_TIERS = [
  "CATALOG_TIER_UNSPECIFIED",
  "CATALOG_TIER_APPLICATION",
  "CATALOG_TIER_BASE",
  "CATALOG_TIER_FIPS",
  "CATALOG_TIER_AI",
  "CATALOG_TIER_DEVTOOLS",
  "CATALOG_TIER_COMMERCIAL",
] as const;

/**
 * The tags a v2beta1 List leaves out unless asked for (ListTagsRequest): each flag, and the tag
 * names it admits. A tag of several forms is listed only when every one of them is asked for.
 */
export const HIDDEN_TAGS = {
  /** Referrers (signatures, attestations, SBOMs): `sha256-*`. */
  include_referrers: (name: string) => name.startsWith("sha256-"),
  /** Dated tags: `*-20yymmdd`. */
  include_dates: (name: string) => /-20\d{6}$/.test(name),
  /** Epoch tags: `*-r[0-9]+`. */
  include_epochs: (name: string) => /-r[0-9]+$/.test(name),
} as const;
export type HiddenTagFlag = keyof typeof HIDDEN_TAGS;

/** True for a tag a v2beta1 List hides unless asked (a referrer, dated or epoch tag). */
export const isHiddenTag = (name: string): boolean => Object.values(HIDDEN_TAGS).some((is) => is(name));
