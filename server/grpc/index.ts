/**
 * gRPC on the same address as REST: the platform's services (api/grpc) served by a
 * `@grpc/grpc-js` server that owns no port; the HTTP/2 connections of the one listener are
 * injected into it (transport.ts), and each call is answered by its REST operation (services.ts).
 *
 * Bounds, as HTTP/1.1 has them: a request message at most the REST body limit
 * (RESOURCE_EXHAUSTED past it), at most `MAX_CONCURRENT_STREAMS` calls at once per connection, a
 * call whose request does not arrive within the request timeout is ended with the status HTTP/1.1
 * answers such a request (INVALID_ARGUMENT), a connection with no call open for the keep-alive
 * timeout is closed, and the connection limit counts HTTP/2 connections too.
 */
import { Metadata, Server, ServerCredentials, ServerInterceptingCall, type ServerInterceptor } from "@grpc/grpc-js";
import type { Socket } from "node:net";
import type { FastifyInstance } from "fastify";
import { GRPC_PACKAGES, grpcRoot } from "../../api/grpc";
import { invalidField } from "../errors";
import { addServices } from "./services";
import { errorOf } from "./transcode";
import { serveHttp2Beside } from "./transport";

/** At most this many calls at once on one HTTP/2 connection. */
export const MAX_CONCURRENT_STREAMS = 100;

/** The bounds of the gRPC door. */
export interface GrpcLimits {
  /** The largest request message: the REST body limit. */
  maxMessageBytes: number;
  /** The time a request (a connection's preface, a call's message) has to arrive. */
  requestTimeoutMs: number;
  /** A connection with no call open closes after this long. */
  idleTimeoutMs: number;
}

/** The gRPC side of a running server, for a graceful stop. */
export interface GrpcDoor {
  /** Sends every HTTP/2 connection GOAWAY: calls in flight finish, then the connections close. */
  drain(graceMs: number): void;
  /** Cuts every HTTP/2 connection. */
  destroy(): void;
}

/** Ends a call whose request message has not arrived within `ms`, as HTTP/1.1 ends such a request. */
function requestDeadline(ms: number, late: Partial<import("@grpc/grpc-js").ServiceError>): ServerInterceptor {
  return (_method, call) => {
    let timer: NodeJS.Timeout | undefined;
    const clear = () => clearTimeout(timer);
    return new ServerInterceptingCall(call, {
      start(next) {
        timer = setTimeout(() => call.sendStatus({ code: late.code!, details: late.details!, metadata: late.metadata }), ms);
        timer.unref();
        next({
          onReceiveMessage: (m, nx) => (clear(), nx(m)),
          onCancel: clear,
        });
      },
      sendStatus: (s, next) => (clear(), next(s)),
    });
  };
}

/** Serves gRPC on `app`'s listener beside HTTP/1.1 (call before it listens). */
export function serveGrpc(app: FastifyInstance, limits: GrpcLimits, onHttp2: (s: Socket) => void): GrpcDoor {
  const root = grpcRoot();
  const late = invalidField("request", "was not received in time").status;
  const server = new Server({
    "grpc.max_receive_message_length": limits.maxMessageBytes,
    "grpc.max_concurrent_streams": MAX_CONCURRENT_STREAMS,
    "grpc.max_connection_idle_ms": limits.idleTimeoutMs,
    interceptors: [requestDeadline(limits.requestTimeoutMs, errorOf(root.lookupType(".google.rpc.Status"), 400, late))],
  });
  addServices(server, app, root, GRPC_PACKAGES);
  const injector = server.createConnectionInjector(ServerCredentials.createInsecure());
  const sockets = new Set<Socket>();
  serveHttp2Beside(app.server, injector, limits.requestTimeoutMs, (s) => {
    sockets.add(s);
    s.once("close", () => sockets.delete(s));
    onHttp2(s);
  });
  return {
    drain: (graceMs) => injector.drain(graceMs),
    destroy: () => {
      injector.destroy();
      for (const s of sockets) s.destroy();
      server.forceShutdown();
    },
  };
}

export { Metadata };
