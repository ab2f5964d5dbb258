/**
 * The platform's gRPC services as the project records them (proto.ts), and the protobufjs
 * descriptors built from them (root.ts). irv-server serves these; tests call them.
 */
import type protobuf from "protobufjs";
import { capabilities } from "./capabilities";
import { events, eventsV1 } from "./events";
import type { ProtoPackage } from "./proto";
import { iam } from "./iam";
import { oidc } from "./oidc";
import { common, registry } from "./registry";
import { buildRoot } from "./root";
import { vulnerabilities } from "./vulnerabilities";
import { iamV1 } from "./v1";
import { registryV1 } from "./registry-v1";
import { gaPackage } from "./ga";
import { protobuf as wkt, rpc } from "./wellknown";

export * from "./proto";
export { gaPath, GA, BETA } from "./ga";
export { fromJson, JSON_OPTIONS, parseTimestamp, protoNameOf, toJson } from "./root";

const BETA_PACKAGES: readonly ProtoPackage[] = [iam, registry, events, vulnerabilities];

/**
 * Every package: the well-known types, the error model, and the services irv-server serves, the
 * v2beta1 ones also as the GA v2 packages (ga.ts).
 */
export const GRPC_PACKAGES: readonly ProtoPackage[] = [
  wkt,
  rpc,
  common,
  capabilities,
  ...BETA_PACKAGES,
  ...BETA_PACKAGES.map((p) => gaPackage(p)!),
  oidc,
  iamV1,
  registryV1,
  eventsV1,
];

let built: protobuf.Root | undefined;
/** The descriptors of every package (built once). */
export function grpcRoot(): protobuf.Root {
  return (built ??= buildRoot(GRPC_PACKAGES));
}
