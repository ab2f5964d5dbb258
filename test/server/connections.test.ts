/**
 * Every connection is bounded: a request whose headers or body stall is cut, an idle keep-alive
 * connection is closed, and connections past the limit are refused. Limits are set short and
 * each test waits for the close event, or for the server's own count of connections: outcomes
 * are asserted, never durations.
 */
import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server";

/** Opens a socket, writes `chunks`, and resolves with all it received once the server closes it. */
function untilClosed(port: number, chunks: string[]): { socket: Promise<Socket>; received: Promise<string> } {
  const s = connect(port, "127.0.0.1");
  const data: Buffer[] = [];
  s.on("data", (d) => data.push(d));
  const socket = new Promise<Socket>((r) => s.once("connect", () => (chunks.forEach((c) => s.write(c)), r(s))));
  const received = new Promise<string>((r) => {
    s.on("error", () => {});
    s.once("close", () => r(Buffer.concat(data).toString("latin1")));
  });
  return { socket, received };
}

describe("connection bounds", () => {
  let srv: TestServer;
  let port: number;
  beforeAll(async () => {
    srv = await startTestServer({ connections: { requestTimeoutMs: 300, keepAliveTimeoutMs: 200, maxConnections: 4 } });
    port = Number(new URL(srv.server.url).port);
  });
  afterAll(() => srv.close());

  it("cuts every stalled request, wherever it stalls, answering 408 where an answer can still be sent", async () => {
    const stalls = [
      ["nothing sent", []],
      ["half a request line", ["POST /auth/sts/exch"]],
      ["headers unfinished", ["POST /auth/sts/exchange HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"]],
      ["body short of Content-Length", ['POST /auth/sts/exchange HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"a"']],
      [
        "chunked body never ended",
        ['POST /auth/sts/exchange HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n4\r\n{"a"\r\n'],
      ],
    ] as const;
    for (const [what, chunks] of stalls) {
      const { received } = untilClosed(port, [...chunks]);
      const answer = await received;
      // Closed (or this would never resolve); anything said before closing is a 408, and one
      // whose headers never finished always gets it, in the error model.
      if (answer !== "" || what.includes("unfinished") || what.includes("half"))
        expect([what, answer.split("\r\n")[0], answer.includes('"code":')]).toEqual([what, expect.stringMatching(/^HTTP\/1\.1 408/), true]);
    }
  });

  it("closes an idle keep-alive connection after its answer", async () => {
    const { received } = untilClosed(port, ["GET /auth/.well-known/jwks.json HTTP/1.1\r\nHost: x\r\n\r\n"]);
    expect((await received).split("\r\n")[0]).toBe("HTTP/1.1 200 OK");
  });

  it("closes connections past the limit at once, and serves again once they are gone", async () => {
    // A server of its own, whose time limit on a request is far off: the held connections stay
    // open until the test closes them, however slow the machine.
    const own = await startTestServer({ connections: { requestTimeoutMs: 600_000, maxConnections: 4 } });
    try {
      const ownPort = Number(new URL(own.server.url).port);
      /** Until the server counts `n` open connections (its count follows the client's connects). */
      const counted = async (n: number) => {
        while ((await own.server.openConnections()) !== n) await new Promise((r) => setImmediate(r));
      };
      const held = Array.from({ length: 4 }, () => untilClosed(ownPort, []));
      const sockets = await Promise.all(held.map((h) => h.socket));
      await counted(4);
      const extra = untilClosed(ownPort, ["GET /auth/.well-known/jwks.json HTTP/1.1\r\nHost: x\r\n\r\n"]);
      expect(await extra.received).toBe("");
      for (const s of sockets) s.destroy();
      await Promise.all(held.map((h) => h.received));
      await counted(0);
      const res = await fetch(`${own.server.url}/auth/.well-known/jwks.json`);
      expect(res.status).toBe(200);
    } finally {
      await own.close();
    }
  });
});
