/**
 * The package's modules: the middle part of every type token (`irv:events:Subscription`), the SDK
 * namespace of its classes and functions (`irv.events.Subscription`), and the first word of a
 * display name (`events.Subscription`). Each is one of the platform's API areas; a kind or a
 * function names its module in its definition, and nothing else decides it.
 */

/** Every module, in the order the docs list them. */
export const MODULES = ["iam", "registry", "events", "vulnerabilities"] as const;

/** A module of the package. */
export type Module = (typeof MODULES)[number];

/**
 * The REST path prefix of a proto package's collections, which the platform's gateway maps from
 * the package: `chainguard.platform.events.v2beta1` -> `/events/v2beta1`.
 */
export function restPrefixOf(protoPackage: string): string {
  const m = /^chainguard\.platform\.([a-z]+)\.(v[0-9a-z]+)$/.exec(protoPackage);
  if (!m) throw new Error(`${protoPackage}: not a versioned package of the platform (chainguard.platform.<area>.<version>)`);
  return `/${m[1]}/${m[2]}`;
}
