import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A hostile stand-in for the API on 127.0.0.1, port 0: a plain `node:http` server answering each
 * request with `answer`, for tests of what a compromised or wrong API can do to the client, the
 * provider and `irv`. It counts requests and the bytes it managed to write.
 */
export interface HostileServer {
  url: string;
  /** Requests received, by path and query. */
  requests: string[];
  /** Body bytes written before the client hung up (endless answers). */
  bytesWritten: number;
  /** Connections the client closed before an answer ended. */
  abandoned: number;
  close(): Promise<void>;
}

export type Answer = (req: IncomingMessage, res: ServerResponse, server: HostileServer) => void;

/** Sends `body` as JSON with `status`. */
export function json(res: ServerResponse, body: unknown, status = 200): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

/** Writes a JSON array that never ends (1 MiB chunks) until the client hangs up, without a content-length. */
export function endless(res: ServerResponse, server: HostileServer): void {
  res.writeHead(200, { "content-type": "application/json" });
  const chunk = Buffer.from(`"${"x".repeat(1024 * 1024 - 3)}",`);
  res.write("[");
  const more = () => {
    while (!res.destroyed && res.write(chunk)) server.bytesWritten += chunk.length;
    if (!res.destroyed) res.once("drain", more);
  };
  res.on("close", () => {
    if (!res.writableFinished) server.abandoned++;
  });
  more();
}

/** Starts a hostile server answering with `answer`. */
export async function startHostileServer(answer: Answer): Promise<HostileServer> {
  const http = createServer((req, res) => {
    state.requests.push(req.url ?? "");
    req.resume();
    answer(req, res, state);
  });
  const state: HostileServer = {
    url: "",
    requests: [],
    bytesWritten: 0,
    abandoned: 0,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  state.url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  return state;
}
