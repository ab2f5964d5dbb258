/**
 * One listener for HTTP/1.1 and HTTP/2 with prior knowledge (h2c): each new connection's first
 * bytes are read until they either are the HTTP/2 connection preface, handed with the connection
 * to the gRPC server, or cannot be, handed to Node's HTTP/1.1 server as if it had just accepted
 * it. Both kinds are accepted by the same `net.Server`, so `maxConnections` and the count of open
 * connections cover both. A connection that sends nothing, or stalls within the preface, is
 * closed once `timeoutMs` pass.
 */
import type { Server } from "node:http";
import type { Socket } from "node:net";

/** What every HTTP/2 client sends first (RFC 9113, 3.4). */
const PREFACE = Buffer.from("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", "latin1");

/** Where the HTTP/2 connections go. */
export interface Http2Sink {
  injectConnection(socket: Socket): void;
}

/**
 * Makes `server` (a Node HTTP/1.1 server, before it listens) sniff each connection: HTTP/2 ones
 * go to `h2`, and are reported to `onHttp2`; the rest to the server's own HTTP/1.1 handling.
 */
export function serveHttp2Beside(server: Server, h2: Http2Sink, timeoutMs: number, onHttp2: (s: Socket) => void): void {
  // Node's own HTTP/1.1 connection handling: taken off, and called for HTTP/1.1 connections only.
  const http1 = server.listeners("connection").find((l) => l.name === "connectionListener") as ((s: Socket) => void) | undefined;
  if (!http1) throw new Error("cannot find Node's HTTP/1.1 connection listener");
  server.removeListener("connection", http1);
  server.on("connection", (socket: Socket) => {
    let seen = Buffer.alloc(0);
    const timer = setTimeout(() => socket.destroy(), timeoutMs);
    timer.unref();
    // The HTTP server's sockets stay half open when the client ends; one that ends before it
    // said which protocol it speaks is done.
    const onError = () => socket.destroy();
    const stop = () => {
      clearTimeout(timer);
      socket.removeListener("data", onData);
      socket.removeListener("error", onError);
      socket.removeListener("end", onError);
      socket.removeListener("close", onClose);
    };
    const onClose = () => clearTimeout(timer);
    const onData = (chunk: Buffer) => {
      seen = Buffer.concat([seen, chunk]);
      const n = Math.min(seen.length, PREFACE.length);
      const maybeHttp2 = seen.subarray(0, n).equals(PREFACE.subarray(0, n));
      if (maybeHttp2 && seen.length < PREFACE.length) return;
      stop();
      if (maybeHttp2) {
        // The HTTP server's sockets are half-open ones; an HTTP/2 session does not close its side
        // when the client closes its own, which would leave the connection open forever.
        socket.allowHalfOpen = false;
        // Node's HTTP/2 session reads what is buffered on the socket first.
        socket.pause();
        socket.unshift(seen);
        onHttp2(socket);
        h2.injectConnection(socket);
      } else {
        // Node's HTTP/1.1 parser reads the socket's handle directly from now on; what was read
        // already goes to it through the socket's `data` event, which it listens to as well.
        http1.call(server, socket);
        socket.emit("data", seen);
      }
    };
    socket.on("data", onData);
    socket.on("error", onError);
    socket.on("end", onError);
    socket.on("close", onClose);
  });
}
