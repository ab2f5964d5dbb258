/**
 * `chainguard.capabilities.Capability`: roles carry their capabilities as this enum on the wire
 * (`CAP_IAM_GROUPS_LIST`), from the catalogue in api/capabilities.ts (names and numbers).
 */
import { CAPABILITIES, capabilityEnum, capabilityNumber } from "../capabilities";
import type { ProtoPackage } from "./proto";

export const capabilities: ProtoPackage = {
  package: "chainguard.capabilities",
  enums: { Capability: { values: { UNKNOWN: 0, ...Object.fromEntries(CAPABILITIES.map((c) => [capabilityEnum(c), capabilityNumber(c)])) } } },
};
