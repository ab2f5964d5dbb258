/**
 * The functions' implementations, each over a client source: the TypeScript SDK's `getX` passes
 * the program's client, the resource plugin's Invoke the configured provider's. Keyed by the
 * tokens of api/functions, so Invoke dispatches to exactly what `getX` runs.
 */
import { FUNCTIONS } from "../../api/functions";
import * as iam from "./iam";
import * as registry from "./registry";
import * as vulnerabilities from "./vulnerabilities";
import type { ClientSource } from "./query";

export * from "./query";
export { iam, registry, vulnerabilities };

/** A function's implementation: its result is an object of its definition's fields, read member by member. */
type Implementation = (clients: ClientSource, args: never) => Promise<Record<string, unknown>>;
const MODULES: Record<string, Record<string, unknown>> = { iam, registry, vulnerabilities };

/** The implementation of each function, by token (`irv:iam:getGroup`). */
export const IMPLEMENTATIONS: ReadonlyMap<string, Implementation> = new Map(
  FUNCTIONS.map((f) => {
    const impl = MODULES[f.module][f.name];
    if (typeof impl !== "function") throw new Error(`irv: no implementation of ${f.token}`);
    return [f.token, impl as Implementation];
  }),
);
