/**
 * Requests Node's HTTP parser refuses before Fastify sees them (request line and headers over
 * 16 KiB, a malformed request, a client too slow to send its headers) still get a
 * google.rpc.Status body. The HTTP status keeps what the parser found (431, 408, 400); the
 * Status code is INVALID_ARGUMENT with a BadRequest naming what was wrong. The connection is
 * then closed: the rest of what the client sent cannot be trusted to frame another request.
 */
import { maxHeaderSize, STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import { invalidField } from "../errors";

/**
 * What is wrong with a request's headers past Node's limit (16 KiB unless `--max-http-header-size`
 * says otherwise): on HTTP/1.1 its request line and headers, on gRPC its metadata (one bound for
 * both doors), reported on the field `headers`.
 */
export const headersTooLarge = (what: "request line and headers" | "metadata"): string => `the ${what} are larger than ${maxHeaderSize / 1024} KiB`;

function answer(err: NodeJS.ErrnoException): { http: number; field: string; description: string } {
  if (err.code === "HPE_HEADER_OVERFLOW") return { http: 431, field: "headers", description: headersTooLarge("request line and headers") };
  if (err.code === "ERR_HTTP_REQUEST_TIMEOUT") return { http: 408, field: "request", description: "was not received in time" };
  return { http: 400, field: "request", description: "is not a valid HTTP/1.1 request" };
}

/** Fastify's `clientErrorHandler`. */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket): void {
  // A reset connection has nobody left to answer.
  if (err.code === "ECONNRESET" || socket.destroyed) return;
  const { http, field, description } = answer(err);
  if (socket.writable) {
    const body = JSON.stringify(invalidField(field, description).body);
    socket.write(
      `HTTP/1.1 ${http} ${STATUS_CODES[http]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}
