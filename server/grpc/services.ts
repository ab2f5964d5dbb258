/**
 * irv-server's gRPC services: every method of the platform's services (api/grpc) that irv-server
 * serves over REST is answered by that REST operation, dispatched in process (`app.inject`) with
 * the caller's `authorization` metadata, so authentication, authorization, validation, bounds
 * and errors are the REST routes' own: nothing is implemented twice. A method irv-server does not
 * serve answers UNIMPLEMENTED, naming its REST mapping.
 */
import {
  Metadata,
  status as GrpcStatus,
  type Server,
  type ServiceDefinition,
  type ServiceError,
  type ServerUnaryCall,
  type sendUnaryData,
  type UntypedServiceImplementation,
} from "@grpc/grpc-js";
import type { FastifyInstance } from "fastify";
import type protobuf from "protobufjs";
import type { HttpRule, ProtoMethod, ProtoPackage } from "../../api/grpc/proto";
import { maxHeaderSize } from "node:http";
import { ApiError, invalidField } from "../errors";
import { errorOf, fromRestJson, toRest } from "./transcode";
import { takesNoTurn, type UnreadAnswers } from "../unread";

const raw = (b: Buffer) => b;

/** The REST mapping in words: `GET /iam/v2beta1/groups`. */
export const describeRule = (m: ProtoMethod): string => (m.http ? `${m.http.method.toUpperCase()} ${m.http.path}` : "no REST mapping");

/** How calls are answered: through `app`, in turns and within the bounds of `unread`. */
export interface Answering {
  app: FastifyInstance;
  unread: UnreadAnswers;
  /** The status of a call refused because its connection holds too many unread answers. */
  refusal: Partial<ServiceError>;
}

/** Adds every service of `packages` to `server`. */
export function addServices(server: Server, answering: Answering, root: protobuf.Root, packages: readonly ProtoPackage[]): void {
  const { app, unread, refusal } = answering;
  const statusType = root.lookupType(".google.rpc.Status");
  for (const p of packages) {
    for (const [serviceName, service] of Object.entries(p.services ?? {})) {
      const full = `${p.package}.${serviceName}`;
      const definition: Record<string, ServiceDefinition[string]> = {};
      const impl: UntypedServiceImplementation = {};
      for (const [name, m] of Object.entries(service.methods)) {
        definition[name] = {
          path: `/${full}/${name}`,
          requestStream: false,
          responseStream: false,
          requestSerialize: raw,
          requestDeserialize: raw,
          responseSerialize: raw,
          responseDeserialize: raw,
        };
        if (!("request" in m)) {
          impl[name] = (_call: ServerUnaryCall<Buffer, Buffer>, done: sendUnaryData<Buffer>) =>
            done({ code: GrpcStatus.UNIMPLEMENTED, details: `irv-server does not implement ${full}/${name} (${describeRule(m)})` });
          continue;
        }
        const ns = root.lookup(p.package) as protobuf.Namespace;
        const request = ns.lookupType(m.request);
        const response = ns.lookupType(m.response);
        const bound: Bound = { rule: m.http, prefix: service.restPrefix ?? "", request, response };
        impl[name] = (call: ServerUnaryCall<Buffer, Buffer>, done: sendUnaryData<Buffer>) => {
          const compute = async (): Promise<Answer> => {
            // A connection full of unread answers gets no new one computed; one gone needs none.
            if (call.cancelled) return { error: { code: GrpcStatus.CANCELLED, details: "the call was cancelled" } };
            if (unread.full(call.getPeer())) return { error: refusal };
            const r = await answer(app, statusType, bound, call);
            return "ok" in r && !unread.admit(call.getPeer(), r.ok.length) ? { error: refusal } : r;
          };
          void (takesNoTurn(`${bound.prefix}/`) ? compute() : unread.inTurn(compute)).then(
            (r) => ("ok" in r ? done(null, r.ok) : done(r.error)),
            (e: Error) => done({ code: GrpcStatus.INTERNAL, details: `the call could not be answered: ${e.message}` }),
          );
        };
      }
      server.addService(definition, impl);
    }
  }
}

interface Bound {
  rule: HttpRule;
  prefix: string;
  request: protobuf.Type;
  response: protobuf.Type;
}

type Answer = { ok: Buffer } | { error: Parameters<sendUnaryData<Buffer>>[0] & object };

/** One call: decode, dispatch to REST, encode the answer or its status. */
async function answer(app: FastifyInstance, statusType: protobuf.Type, b: Bound, call: ServerUnaryCall<Buffer, Buffer>): Promise<Answer> {
  let rest;
  try {
    rest = toRest(b.rule, b.prefix, b.request, b.request.decode(call.request));
  } catch (e) {
    if (e instanceof ApiError) return { error: errorOf(statusType, e.http, e.body) };
    return {
      error: {
        code: GrpcStatus.INVALID_ARGUMENT,
        details: `the request is not a valid ${b.request.fullName.slice(1)}: ${(e as Error).message}`,
        metadata: new Metadata(),
      },
    };
  }
  // HTTP/1.1 refuses a request line past Node's header limit; a transcoded one has the same bound.
  if (rest.url.length > maxHeaderSize) {
    const e = invalidField("request", `its fields other than the body make a REST query longer than ${maxHeaderSize / 1024} KiB`);
    return { error: errorOf(statusType, e.http, e.body) };
  }
  const authorization = call.metadata.get("authorization")[0];
  const headers: Record<string, string> = {};
  if (typeof authorization === "string") headers.authorization = authorization;
  if (rest.body !== undefined) headers["content-type"] = "application/json";
  const res = await app.inject({
    method: rest.method as "GET",
    url: rest.url,
    headers,
    payload: rest.body === undefined ? undefined : JSON.stringify(rest.body),
  });
  let json: unknown;
  try {
    json = res.body === "" ? {} : JSON.parse(res.body);
  } catch {
    json = undefined;
  }
  if (res.statusCode >= 200 && res.statusCode < 300) {
    try {
      return { ok: Buffer.from(fromRestJson(b.response, json)) };
    } catch (e) {
      return { error: { code: GrpcStatus.INTERNAL, details: `the answer does not fit ${b.response.fullName.slice(1)}: ${(e as Error).message}` } };
    }
  }
  return { error: errorOf(statusType, res.statusCode, json) };
}
