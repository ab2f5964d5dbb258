/**
 * The receiver's HTTP door: POST deliveries on `path`, verified (./verify.ts) before anything
 * acts on them; `GET /healthz` for a load balancer. A body over the bound is refused (413) from
 * its Content-Length before it is read, or as soon as it passes the bound while it streams. An
 * accepted delivery is answered 200 once it is queued, not once it is re-read, so the platform
 * never waits on the API.
 */
import { createServer as createHttp, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createHttps } from "node:https";
import type { AddressInfo } from "node:net";
import { DEFAULT_MAX_BODY, type DeliveryVerifier, type VerifiedEvent } from "./verify";

/** Options of a receiver. */
export interface ReceiverOptions {
  verifier: DeliveryVerifier;
  host: string;
  port: number;
  /** The path deliveries are POSTed to. Default `/`. */
  path?: string;
  /** The largest body accepted, in bytes. */
  maxBody?: number;
  /** TLS (PEM): the platform delivers only to https sinks; without it, put a TLS proxy in front. */
  tls?: { cert: string | Buffer; key: string | Buffer };
  /** A verified event, once per accepted delivery. Must not throw. */
  accepted(event: VerifiedEvent): void;
  /** A refused delivery: its status and why. */
  refused(status: number, reason: string): void;
  /** What `GET /healthz` answers. */
  health(): Record<string, unknown>;
}

/** A listening receiver. */
export interface Receiver {
  /** `http(s)://host:port` as bound. */
  url: string;
  close(): Promise<void>;
}

/** Starts a receiver. */
export async function startReceiver(o: ReceiverOptions): Promise<Receiver> {
  const maxBody = o.maxBody ?? DEFAULT_MAX_BODY;
  const path = o.path ?? "/";
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const url = (req.url ?? "/").split("?")[0];
    if (req.method === "GET" && url === "/healthz") return answer(res, 200, JSON.stringify(o.health()), "application/json");
    if (url !== path) return answer(res, 404, "not found");
    if (req.method !== "POST") return answer(res, 405, "deliveries are POSTed", "text/plain", { allow: "POST" });
    const refuse = (status: number, reason: string) => {
      o.refused(status, reason);
      answer(res, status, reason);
    };
    const declared = Number(req.headers["content-length"]);
    if (Number.isFinite(declared) && declared > maxBody) {
      refuse(413, `the body is larger than ${maxBody} bytes`);
      return void res.on("finish", () => req.socket.destroy());
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on("data", (c: Buffer) => {
      if (over) return;
      size += c.length;
      if (size > maxBody) {
        over = true;
        refuse(413, `the body is larger than ${maxBody} bytes`);
        res.on("finish", () => req.socket.destroy());
        return;
      }
      chunks.push(c);
    });
    req.on("error", () => undefined);
    req.on("end", () => {
      if (over) return;
      o.verifier.verify(req.headers, Buffer.concat(chunks)).then(
        (v) => {
          if (!v.ok) return refuse(v.status, v.reason);
          o.accepted(v.event);
          answer(res, 200, "");
        },
        (e: Error) => refuse(500, `verification failed: ${e.message}`),
      );
    });
  };
  const server: Server = o.tls ? createHttps({ cert: o.tls.cert, key: o.tls.key }, handler) : createHttp(handler);
  // Slow or idle senders do not hold sockets forever.
  server.requestTimeout = 30_000;
  server.headersTimeout = 10_000;
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(o.port, o.host, () => resolve());
  });
  const a = server.address() as AddressInfo;
  const host = a.family === "IPv6" ? `[${a.address}]` : a.address;
  return {
    url: `${o.tls ? "https" : "http"}://${host}:${a.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function answer(res: ServerResponse, status: number, body: string, type = "text/plain", extra: Record<string, string> = {}): void {
  if (res.headersSent) return;
  res.writeHead(status, { "content-type": `${type}; charset=utf-8`, ...extra, ...(status === 413 ? { connection: "close" } : {}) });
  res.end(body ? `${body}\n` : "");
}
