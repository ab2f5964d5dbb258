/**
 * `chainguard.capabilities.Capability`: roles carry capabilities as this enum on the wire.
 * TEMPORARY: a few values until api/capabilities.ts holds the catalogue with its numbers.
 */
import type { PackageFacts } from "./facts";

export const capabilities: PackageFacts = {
  package: "chainguard.capabilities",
  enums: { Capability: { values: { UNKNOWN: 0 } } },
};
