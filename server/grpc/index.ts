/**
 * gRPC on the same address as REST: the platform's services (api/grpc) served by a
 * `@grpc/grpc-js` server that owns no port; the HTTP/2 connections of the one listener are
 * injected into it (transport.ts), and each call is answered by its REST operation (services.ts).
 *
 * Bounds, as HTTP/1.1 has them: a request message at most the REST body limit
 * (RESOURCE_EXHAUSTED past it), at most `MAX_CONCURRENT_STREAMS` calls at once per connection, a
 * call whose request does not arrive within the request timeout is ended with the status HTTP/1.1
 * answers such a request (INVALID_ARGUMENT), a connection with no call open for the keep-alive
 * timeout is closed, any connection is closed after `CONNECTION_AGE_TIMEOUTS` request timeouts
 * (calls in flight get one more to finish), the connection limit counts HTTP/2 connections
 * too, and answers a caller does not read are bounded per connection and in all (unread.ts).
 */
import { Server, ServerCredentials, ServerInterceptingCall, type Metadata, type ServerInterceptor, type ServiceError } from "@grpc/grpc-js";
import { maxHeaderSize } from "node:http";
import type { Socket } from "node:net";
import type { FastifyInstance } from "fastify";
import { GRPC_PACKAGES, grpcRoot } from "../../api/grpc";
import { invalidField } from "../errors";
import { headersTooLarge } from "../hooks/client-errors";
import { addServices } from "./services";
import { errorOf } from "./transcode";
import { serveHttp2Beside } from "./transport";
import { releaseWhenSent } from "./unread";
import type { UnreadAnswers } from "../unread";

/** At most this many calls at once on one HTTP/2 connection. */
export const MAX_CONCURRENT_STREAMS = 100;

/** An HTTP/2 connection lives at most this many request timeouts (5 minutes by default). */
export const CONNECTION_AGE_TIMEOUTS = 10;

/** The bounds of the gRPC door. */
export interface GrpcLimits {
  /** The largest request message: the REST body limit. */
  maxMessageBytes: number;
  /** The time a request (a connection's preface, a call's message) has to arrive. */
  requestTimeoutMs: number;
  /** A connection with no call open closes after this long. */
  idleTimeoutMs: number;
  /** Answers written and not yet sent, counted with HTTP/1.1's. */
  unread: UnreadAnswers;
}

/** The gRPC side of a running server, for a graceful stop. */
export interface GrpcDoor {
  /** Sends every HTTP/2 connection GOAWAY: calls in flight finish, then the connections close. */
  drain(graceMs: number): void;
  /** Cuts every HTTP/2 connection. */
  destroy(): void;
}

/**
 * Ends a call whose request has not arrived whole within `ms`, as HTTP/1.1 ends such a request: a
 * unary call waits for the end of its request stream, so the time runs until then, not until its
 * message is in.
 */
function requestDeadline(ms: number, late: Partial<ServiceError>): ServerInterceptor {
  return (_method, call) => {
    let timer: NodeJS.Timeout | undefined;
    const clear = () => clearTimeout(timer);
    return new ServerInterceptingCall(call, {
      start(next) {
        timer = setTimeout(() => call.sendStatus({ code: late.code!, details: late.details!, metadata: late.metadata }), ms);
        timer.unref();
        next({
          onReceiveHalfClose: (nx) => (clear(), nx()),
          onCancel: clear,
        });
      },
      sendStatus: (s, next) => (clear(), next(s)),
    });
  };
}

/** The size of a call's metadata as HTTP/2 counts a header list: name, value and 32 bytes per field. */
function metadataBytes(md: Metadata): number {
  let n = 0;
  for (const [key, values] of Object.entries(md.toHttp2Headers())) {
    for (const v of [values].flat()) n += key.length + Buffer.byteLength(String(v)) + 32;
  }
  return n;
}

/** Refuses a call whose metadata is past HTTP/1.1's bound on a request's headers, as HTTP/1.1 refuses it (431). */
function headersBound(max: number, tooLarge: Partial<ServiceError>): ServerInterceptor {
  return (_method, call) =>
    new ServerInterceptingCall(call, {
      start: (next) =>
        next({
          onReceiveMetadata: (md, nx) =>
            metadataBytes(md) > max ? call.sendStatus({ code: tooLarge.code!, details: tooLarge.details!, metadata: tooLarge.metadata }) : nx(md),
        }),
    });
}

/** Serves gRPC on `app`'s listener beside HTTP/1.1 (call before it listens). */
export function serveGrpc(app: FastifyInstance, limits: GrpcLimits, onHttp2: (s: Socket) => void): GrpcDoor {
  const root = grpcRoot();
  const statusType = root.lookupType(".google.rpc.Status");
  const late = invalidField("request", "was not received in time").body;
  const { unread } = limits;
  const tooMuch = unread.refusal();
  const refusal = errorOf(statusType, tooMuch.http, tooMuch.body);
  const server = new Server({
    "grpc.max_receive_message_length": limits.maxMessageBytes,
    "grpc.max_concurrent_streams": MAX_CONCURRENT_STREAMS,
    "grpc.max_connection_idle_ms": limits.idleTimeoutMs,
    // A client may leave a call it was answered half open forever, so no connection is idle:
    // every connection is asked to go (GOAWAY) after a while, and cut a request timeout later.
    // Clients reconnect transparently.
    "grpc.max_connection_age_ms": CONNECTION_AGE_TIMEOUTS * limits.requestTimeoutMs,
    "grpc.max_connection_age_grace_ms": limits.requestTimeoutMs,
    // The last is the outermost, nearest the handler.
    interceptors: [
      requestDeadline(limits.requestTimeoutMs, errorOf(statusType, 400, late)),
      releaseWhenSent(unread),
      headersBound(maxHeaderSize, errorOf(statusType, 431, invalidField("headers", headersTooLarge("metadata")).body)),
    ],
  });
  addServices(server, { app, unread, refusal }, root, GRPC_PACKAGES);
  const injector = server.createConnectionInjector(ServerCredentials.createInsecure());
  const sockets = new Set<Socket>();
  serveHttp2Beside(app.server, injector, limits.requestTimeoutMs, (s) => {
    sockets.add(s);
    s.once("close", () => sockets.delete(s));
    unread.attach(s);
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
