/**
 * Stable, readable names for generated code: each resource gets a kebab-case Pulumi logical name
 * and a camelCase variable, both derived from its API name and unique in the program.
 */

import { MODULES } from "../../api/modules";

/** Words a variable may not be: JavaScript's reserved words and the generated program's own names. */
const RESERVED = new Set([
  ...(
    "break case catch class const continue debugger default delete do else enum export extends false finally for " +
    "function if import in instanceof new null return super switch this throw true try typeof var void while with " +
    "yield let static implements interface package private protected public await arguments eval undefined NaN Infinity"
  ).split(" "),
  "pulumi",
  ...MODULES,
  "config",
  "program",
  "require",
  "module",
  "exports",
]);

/** `Release CI (main)` -> `release-ci-main`; empty when nothing usable is left. */
export function slug(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1-$2")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

/** `release-ci-main` -> `releaseCiMain`. */
export function camel(kebab: string): string {
  return kebab.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** A name chosen for one resource. */
export interface Name {
  /** The Pulumi logical name (kebab-case). */
  logical: string;
  /** The TypeScript variable. */
  variable: string;
}

/**
 * Hands out unique names. Candidates are tried in order (e.g. `ci`, then `ci-identity`, then
 * `eng-ci-identity`); if all are taken, a number is appended to the last one. The same input
 * order always gives the same names.
 */
export class Namer {
  private readonly taken = new Set<string>();

  /** Reserves a name without a resource (e.g. the exported root group's variable). */
  take(candidates: string[], fallback: string): Name {
    const usable = candidates.map(slug).filter((s) => s.length > 0);
    if (usable.length === 0) usable.push(fallback);
    for (const s of usable) {
      const name = this.tryTake(s);
      if (name) return name;
    }
    const last = usable[usable.length - 1];
    for (let i = 2; ; i++) {
      const name = this.tryTake(`${last}-${i}`);
      if (name) return name;
    }
  }

  private tryTake(s: string): Name | undefined {
    let variable = camel(s);
    // A variable must start with a letter; a reserved word gets a suffix it cannot collide with.
    if (!/^[A-Za-z]/.test(variable)) variable = `r${variable.charAt(0).toUpperCase()}${variable.slice(1)}`;
    if (RESERVED.has(variable)) variable = `${variable}Resource`;
    if (this.taken.has(s) || this.taken.has(`var:${variable}`)) return undefined;
    this.taken.add(s);
    this.taken.add(`var:${variable}`);
    return { logical: s, variable };
  }
}
