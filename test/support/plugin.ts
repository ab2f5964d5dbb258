/**
 * The resource plugin's gRPC server started in this process, and a client that calls it as the
 * engine does, for the tests of test/plugin:
 *
 *   const plugin = usePlugin();                  // serves in beforeAll, stops in afterAll
 *   beforeAll(() => plugin.configure({ apiUrl, token: secret(token) }));
 *   await plugin.call<provproto.CheckResponse>("check", req);
 */
import * as grpc from "@grpc/grpc-js";
import * as structproto from "google-protobuf/google/protobuf/struct_pb";
import * as provrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { specialSecretSig, specialSigKey } from "@pulumi/pulumi/runtime/rpc";
import { afterAll, beforeAll } from "vitest";
import { serve } from "../../plugin/server";

/** A secret as the engine sends it to a provider that accepts secrets. */
export const secret = (value: unknown) => ({ [specialSigKey]: specialSecretSig, value });
/** True for a secret as the engine sends it. */
export const isSecret = (v: any): boolean => v?.[specialSigKey] === specialSecretSig;
/** A Struct of plain values. */
/** The urn of resource `name` of type `type` in stack `dev` of project `p`. */
export const urn = (type: string, name: string) => `urn:pulumi:dev::p::${type}::${name}`;

export const struct = (v: object) => structproto.Struct.fromJavaScript(v as any);

export interface PluginClient {
  /** Calls a unary method of the provider service (`check`, `invoke`, ...). */
  call<T>(method: string, req: unknown): Promise<T>;
  /** Configure with these args (secrets accepted), as the engine does first. */
  configure(args: object): Promise<provproto.ConfigureResponse>;
}

/**
 * Serves the plugin for the enclosing `describe` and connects a client to it. `engineAddress`
 * (read in beforeAll) is the engine the plugin sends status lines to, as the engine's argument.
 */
export function usePlugin(engineAddress?: () => string): PluginClient {
  let stop: (() => void) | undefined;
  let client: any;
  beforeAll(async () => {
    const { port, server } = await serve(engineAddress?.());
    stop = () => server.forceShutdown();
    client = new (provrpc as any).ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  });
  afterAll(() => {
    client?.close();
    stop?.();
  });
  const call = <T>(method: string, req: unknown): Promise<T> =>
    new Promise((resolve, reject) => client[method](req, (e: Error | null, r: T) => (e ? reject(e) : resolve(r))));
  return {
    call,
    configure: (args) => call<provproto.ConfigureResponse>("configure", new provproto.ConfigureRequest().setArgs(struct(args)).setAcceptsecrets(true)),
  };
}
