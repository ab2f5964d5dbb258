/**
 * HTTP/1.1 pipelining: a caller that sends its requests back to back on one connection, and reads,
 * gets every answer whole and in order, each with its length. Answers queued behind others are held
 * by the server's unread-answer bounds, not by Node (server/unread.ts), so this is their path.
 */
import { connect } from "node:net";
import { describe, expect, it } from "vitest";
import { path, useServer } from "../support/server";
import { ok } from "../support/server-helpers";

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Sends `requests` at once on one connection and splits what comes back into answers by their Content-Length. */
function pipelined(url: string, requests: string[]): Promise<Answer[]> {
  const { port, hostname } = new URL(url);
  return new Promise((resolve, reject) => {
    const s = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    s.on("data", (d) => chunks.push(d));
    s.on("error", reject);
    s.on("close", () => {
      const all = Buffer.concat(chunks);
      const answers: Answer[] = [];
      let at = 0;
      while (at < all.length) {
        const end = all.indexOf("\r\n\r\n", at);
        const [statusLine, ...lines] = all.subarray(at, end).toString("latin1").split("\r\n");
        const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]));
        const length = Number(headers["content-length"]);
        answers.push({ status: Number(statusLine.split(" ")[1]), headers, body: all.subarray(end + 4, end + 4 + length).toString("utf8") });
        at = end + 4 + length;
      }
      resolve(answers);
    });
    s.write(requests.join(""));
  });
}

describe("HTTP/1.1 pipelining", () => {
  const ctx = useServer();

  it("answers every request of a connection whole, in order, each with its Content-Length", async () => {
    for (let i = 0; i < 30; i++) ok(await ctx.api.post(path("groups", ctx.server.organization), { name: `g-${i}`, description: "d".repeat(1024) }));
    const get = (query: string, last = false) =>
      `GET ${path("groups")}${query} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${ctx.server.token}\r\n${last ? "Connection: close\r\n" : ""}\r\n`;
    const sizes = [1, 30, 5, 17, 2];
    const answers = await pipelined(ctx.server.url, [...sizes.map((n) => get(`?page_size=${n}`)), get("?page_size=-1"), get("?page_size=3", true)]);

    expect(answers.map((a) => a.status)).toEqual([...sizes.map(() => 200), 400, 200]);
    for (const a of answers) {
      expect(a.headers["transfer-encoding"]).toBeUndefined();
      expect(Buffer.byteLength(a.body)).toBe(Number(a.headers["content-length"]));
    }
    expect(answers.map((a) => JSON.parse(a.body).groups?.length)).toEqual([...sizes, undefined, 3]);
    expect(JSON.parse(answers[5].body).code).toBe(3);
    // The same page as a lone request gives.
    const alone = (await ctx.api.get(path("groups"), { page_size: 30 })).body;
    expect(JSON.parse(answers[1].body).groups).toEqual(alone.groups);
  });
});
