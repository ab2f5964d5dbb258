import { tsString } from "../format/typescript";

/**
 * TypeScript literals for generated code: plain data as object and array literals, with `Code`
 * for the places that must be expressions (a reference such as `eng.uid`, a config read).
 */

/** A TypeScript expression to emit as is. */
export class Code {
  constructor(readonly text: string) {}
}

/** Marks `text` as an expression. */
export const code = (text: string) => new Code(text);

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** `value` as a TypeScript literal, indented for a line that starts at `indent`. */
export function literal(value: unknown, indent = ""): string {
  if (value instanceof Code) return value.text;
  if (value === null || value === undefined) return "undefined";
  if (typeof value === "string") return tsString(value);
  if (typeof value !== "object") return String(value);
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    const items = value.map((v) => literal(v, inner));
    const oneLine = `[${items.join(", ")}]`;
    if (oneLine.length + indent.length <= 100 && !oneLine.includes("\n")) return oneLine;
    return `[\n${items.map((i) => `${inner}${i},`).join("\n")}\n${indent}]`;
  }
  const entries = Object.entries(value).filter(([, v]) => v !== undefined);
  if (entries.length === 0) return "{}";
  const key = (k: string) => (IDENT.test(k) ? k : tsString(k));
  return `{\n${entries.map(([k, v]) => `${inner}${key(k)}: ${literal(v, inner)},`).join("\n")}\n${indent}}`;
}

/**
 * Drops empty values (empty strings, lists, maps) so generated arguments list only what is set;
 * the provider treats an absent field and an empty one alike.
 */
export function compact<T extends Record<string, unknown>>(obj: T): Partial<T> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) {
    if (v === undefined || v === null || v === "") continue;
    if (Array.isArray(v) && v.length === 0) continue;
    if (typeof v === "object" && !Array.isArray(v) && !(v instanceof Code)) {
      const inner = compact(v as Record<string, unknown>);
      if (Object.keys(inner).length === 0) continue;
      out[k] = inner;
      continue;
    }
    out[k] = v;
  }
  return out as Partial<T>;
}
