/**
 * Status lines through the engine: while a resource's request waits to be tried again (a server
 * that is down, throttling, a group's permissions still propagating), `pulumi up` shows why beside
 * the resource, as an ephemeral info message, instead of dots alone. The engine's address is the
 * plugin's first argument; its client is made on the first wait, so start-up loads nothing more.
 */
import * as grpc from "@grpc/grpc-js";
import type { WaitReport } from "../client/waits";

let address: string | undefined;
/** The engine's Log method, over this package's grpc-js (the one the plugin's server uses). */
type Engine = grpc.Client & { log(req: unknown, done: (e: Error | null) => void): void };
let engine: Engine | undefined;

/** Where the engine listens (`127.0.0.1:<port>`); undefined when nothing shows status. */
export function useEngine(a: string | undefined): void {
  address = a;
  engine?.close();
  engine = undefined;
}

/** A report that shows each sentence as the status of resource `urn`. */
export function statusOf(urn: string): WaitReport | undefined {
  if (!address) return undefined;
  return (message) => {
    const rpc = require("@pulumi/pulumi/proto/engine_grpc_pb") as typeof import("@pulumi/pulumi/proto/engine_grpc_pb");
    const pb = require("@pulumi/pulumi/proto/engine_pb") as typeof import("@pulumi/pulumi/proto/engine_pb");
    // grpc-js types a generic client's methods as Function, whatever the service says of them.
    // eslint-disable-next-line no-restricted-syntax -- grpc-js builds the client at run time from the service definition; Engine is its typed face
    engine ??= new (grpc.makeGenericClientConstructor(rpc.EngineService, "Engine"))(address!, grpc.credentials.createInsecure()) as unknown as Engine;
    const req = new pb.LogRequest().setSeverity(pb.LogSeverity.INFO).setMessage(message).setUrn(urn).setEphemeral(true);
    // A status line is a courtesy: an engine that cannot take it changes nothing.
    engine.log(req, () => {});
  };
}

/**
 * The engine's address among the plugin's arguments: the first that is not a flag (the engine
 * may put `--logtostderr`, `-v=9` or `--tracing <endpoint>` before it).
 */
export function engineAddressOf(args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "--tracing") i++;
    else if (!args[i].startsWith("-")) return args[i];
  }
  return undefined;
}
