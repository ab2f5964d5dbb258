/**
 * What the engine's provider host loads at run time (`require("pulumi-irv/provider")` from the
 * SDK's shims): the providers by kind and `configure`, which records where settings come from.
 * The client is created lazily, on the first call that needs the API.
 */
import type { dynamic } from "@pulumi/pulumi";
import { dynamicProviders } from "./resources";
import { beginHostOperation, configureHost } from "./resources/host";
import { definitionOf, type Kind } from "../api/kinds";

export { providers, dynamicProviders } from "./resources";
export * as resources from "./resources";
export { KINDS, definitionOf, type Kind } from "../api/kinds";
/** @deprecated Use `definitionOf`: a kind is a name, its definition what it is made of. */
export const kindInfo = definitionOf;
export * from "./timeouts";

/** Records the engine's config (`irv:*` keys) as the dynamic host's settings source, env vars as fallback (`once`: see client/session). */
export function configure(config: Pick<dynamic.Config, "get"> | ((key: string) => string | undefined), o: { once?: boolean } = {}): void {
  const get = typeof config === "function" ? config : (key: string) => config.get(key);
  configureHost(get, o);
}

/**
 * What the SDK's shim installs on itself at `configure`: records `config` (when given) and
 * returns the kind's provider methods. Only the engine's provider host calls it, which lives for
 * one operation: its reads may be batched (provider/resources/reads.ts).
 */
export function connect(kind: Kind, config?: Pick<dynamic.Config, "get">) {
  beginHostOperation();
  if (config) configure(config);
  const p = dynamicProviders[kind];
  if (!p) throw new Error(`pulumi-irv: unknown resource kind ${kind}; is the installed pulumi-irv older than the program's?`);
  return { ...p, diff: movedIn(p.diff) };
}

/**
 * The diff of a resource whose state the irv resource plugin wrote (a stack moved back from
 * `pulumi-irv/plugin`, through the alias each class carries): its outputs have no `__provider`,
 * which the engine's host needs to refresh or delete it later. Report a change, so that the host
 * updates the resource and stores `__provider`; an update that changes nothing only reads.
 */
function movedIn(diff: (id: string, olds: object, news: object) => Promise<dynamic.DiffResult>) {
  return async (id: string, olds: object, news: object): Promise<dynamic.DiffResult> => {
    const d = await diff(id, olds, news);
    return olds && !("__provider" in olds) ? { ...d, changes: true } : d;
  };
}
