import { z } from "zod";

/**
 * Read rules for values the platform's gateway writes with protojson's defaults: every field is
 * present, an unset message or `optional` field is `null`, an empty string or list is written as
 * such. A value read through these may also be absent (another marshaler, an older server).
 */

/** A value that reads as `fallback` when absent or `null`. */
export const orElse = <T extends z.ZodType>(t: T, fallback: z.output<T>) => t.nullish().transform((v) => v ?? fallback);

/** A value that reads as absent when absent or `null` (an unset message, an `optional` field). */
export const unset = <T extends z.ZodType>(t: T) =>
  t
    .nullish()
    .transform((v) => (v ?? undefined) as z.output<T> | undefined)
    .optional();

/** A string, `""` when absent or `null`. */
export const str = () => orElse(z.string(), "");
/** A list of strings, `[]` when absent or `null`. */
export const strings = () => orElse(z.array(z.string()), []);
/** A boolean, false when absent or `null`. */
export const bool = () => orElse(z.boolean(), false);
/** An enum's name (the wire writes names), its zero value when absent or `null`; loose, so a newer value still reads. */
export const enumName = (zero: string) => orElse(z.string(), zero);

/**
 * The list envelope: the array is named after the collection; `totalCount` (a proto `optional
 * int64`) is a decimal string, or `null` when the API does not count (the gateway's unset value).
 */
export function listOf<K extends string, T extends z.ZodType>(key: K, item: T) {
  return z.looseObject({
    [key]: orElse(z.array(item), []),
    nextPageToken: z.string().nullish(),
    totalCount: orElse(z.string(), "0"),
    skipped: orElse(z.number().int(), 0),
  });
}
