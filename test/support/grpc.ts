/**
 * A gRPC client of a live irv-server, built on `@grpc/grpc-js` and the project's own descriptors
 * (api/grpc), speaking to the server's `url` (gRPC is served on the same address as REST).
 *
 *   const g = grpcFor(server.url, server.token);
 *   const r = await g.call("chainguard.platform.registry.v2beta1.ReposService", "ListRepos", { pageSize: 10 });
 *   if ("error" in r) r.error.code, r.status  // the google.rpc.Status of grpc-status-details-bin, as JSON
 *   g.close();
 *
 * Requests and answers are protojson-shaped objects (lowerCamelCase, int64 as strings, enums by
 * name, Timestamps as RFC 3339), converted with the same descriptors the server uses.
 */
import { credentials, Client, Metadata, status, type ServiceError } from "@grpc/grpc-js";
import type protobuf from "protobufjs";
import { fromJson, grpcRoot, toJson } from "../../api/grpc";

/** One call's outcome: the answer, or the error with its decoded google.rpc.Status. */
export type GrpcResult = { ok: any } | { error: ServiceError; status?: any };

/** The answer of a call that must succeed. */
export function answer(r: GrpcResult): any {
  if ("error" in r) throw new Error(`gRPC ${r.error.code}: ${r.error.details}`);
  return r.ok;
}

/** The code name (its ErrorInfo reason, else its number) of a call that must fail. */
export function failed(r: GrpcResult): string {
  if (!("error" in r)) throw new Error(`expected an error, got ${JSON.stringify(r.ok)}`);
  return (r.status?.details ?? []).find((d: { reason?: string }) => d.reason)?.reason ?? String(r.error.code);
}

/** A client bound to one server and token. */
export interface GrpcApi {
  /** Calls `service`/`method` with `request` (protojson-shaped); `token` overrides the client's (null: none). */
  call(
    service: string,
    method: string,
    request: object,
    opts?: { token?: string | null; raw?: Buffer; metadata?: Record<string, string> },
  ): Promise<GrpcResult>;
  /** The same channel with another token. */
  as(token: string | null): GrpcApi;
  close(): void;
}

/** The method's request and response types. */
function methodTypes(service: string, method: string): { req: protobuf.Type; res: protobuf.Type } {
  const m = grpcRoot().lookupService(service).methods[method];
  if (!m) throw new Error(`${service} has no method ${method}`);
  m.resolve();
  return { req: m.resolvedRequestType!, res: m.resolvedResponseType! };
}

/** Decodes `grpc-status-details-bin` into a google.rpc.Status as JSON (typed details by `@type`). */
export function statusOf(error: ServiceError): any {
  const bin = error.metadata?.get("grpc-status-details-bin")[0];
  if (!(bin instanceof Buffer)) return undefined;
  const t = grpcRoot().lookupType(".google.rpc.Status");
  return toJson(t, t.decode(bin));
}

/** A client of the irv-server at `url`. */
export function grpcFor(url: string, token: string | null, client = new Client(new URL(url).host, credentials.createInsecure())): GrpcApi {
  return {
    call: (service, method, request, opts = {}) => {
      const { req, res } = methodTypes(service, method);
      const md = new Metadata();
      const tok = opts.token === undefined ? token : opts.token;
      if (tok) md.set("authorization", `Bearer ${tok}`);
      // Binary (`-bin`) values are given base64-encoded.
      for (const [k, v] of Object.entries(opts.metadata ?? {})) md.set(k, k.endsWith("-bin") ? Buffer.from(v, "base64") : v);
      const body = opts.raw ?? Buffer.from(req.encode(fromJson(req, request)).finish());
      return new Promise((resolve) => {
        client.makeUnaryRequest(
          `/${service}/${method}`,
          (b: Buffer) => b,
          (b: Buffer) => b,
          body,
          md,
          (err, out) => {
            if (err) resolve({ error: err, status: statusOf(err) });
            else resolve({ ok: toJson(res, res.decode(out!)) });
          },
        );
      });
    },
    as: (t) => grpcFor(url, t, client),
    close: () => client.close(),
  };
}

/** The error of a call that must fail: its code's name, details and decoded Status (`failed` gives the name alone). */
export function failureOf(r: GrpcResult): { code: string; details: string; status: any } {
  if (!("error" in r)) throw new Error(`expected an error, got ${JSON.stringify(r.ok)}`);
  return { code: status[r.error.code], details: r.error.details, status: r.status };
}
