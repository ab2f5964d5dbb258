/** Type guards for values read from outside (JSON, YAML, claims), shared by every layer. */

/** True when `v` is an object and not a list (a JSON object). */
export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** True when `v` is a list of strings. */
export const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === "string");
