/**
 * irv-server's HTTP/2 and gRPC door under a hostile caller: callers that never read their
 * answers hold a bounded amount of the server's memory (per connection and in all) while it
 * answers everyone else; a request that never ends is answered within the request timeout;
 * metadata has REST's bound on headers; path fields are uids, nothing else, on both doors.
 */
import { connect as h2connect, constants as h2, type ClientHttp2Session, type ClientHttp2Stream } from "node:http2";
import { connect } from "node:net";
import { join } from "node:path";
import { status } from "@grpc/grpc-js";
import { beforeAll, describe, expect, it } from "vitest";
import { fromJson, GRPC_PACKAGES, grpcRoot } from "../../api/grpc";
import { NAME_VARIABLES } from "../../server/grpc/transcode";
import { VERSIONS_PATH } from "../../server/routes/versions";
import { grpcFor } from "../support/grpc";
import * as frames from "../support/h2-frames";
import { ensureBuilt, launch, stop, type ServerProcess } from "../support/server-process";
import { apiFor, path, startTestServer, useServer } from "../support/server";
import { ok } from "../support/server-helpers";

const GROUPS = "chainguard.platform.iam.v2beta1.GroupsService";
const LIST_GROUPS = `/${GROUPS}/ListGroups`;
const MiB = 1024 * 1024;
/**
 * How much a server's memory in use may grow (its largest over its size before) for a caller or
 * two that do not read, and for dozens. Bounded, it grew by 60 to 70 MiB and by 95 to 150 MiB;
 * without the bounds, by 210 MiB to over 1 GiB (figures in docs/irv-server.md).
 */
const LIMIT_ONE = 160 * MiB;
const LIMIT_ALL = 400 * MiB;

/**
 * What the server keeps, measured as its memory in use (JavaScript heap and external buffers)
 * after collecting every garbage object: test/support/gc-probe.cjs, preloaded, reports it on
 * SIGUSR2. The process's resident size measured the collector too: under load, the garbage of
 * answers already sent (Buffers, freed only by a collection) grew it by up to 750 MB at times
 * while the memory in use stayed at 140 MB or less.
 */
const PROBED = ["--expose-gc", "--require", join(__dirname, "..", "support", "gc-probe.cjs")];

/** The server's memory in use after a full collection, in bytes. */
async function inUse(server: ServerProcess): Promise<number> {
  const probes = () => server.stderr().match(/^gc-probe .*$/gm) ?? [];
  const seen = probes().length;
  server.signal("SIGUSR2");
  while (probes().length === seen) await new Promise((r) => setTimeout(r, 10));
  const { heapUsed, external } = JSON.parse(probes()[seen].slice("gc-probe ".length));
  return heapUsed + external;
}

/**
 * Measures the server's memory in use now and every 200 ms after: `seen()` is the largest growth
 * so far, and `growth()` ends the watch with the largest growth, now included.
 */
async function watchMemory(server: ServerProcess): Promise<{ seen(): number; growth(): Promise<number> }> {
  const before = await inUse(server);
  let largest = before;
  let watching = true;
  const sampling = (async () => {
    while (watching) {
      largest = Math.max(largest, await inUse(server));
      await new Promise((r) => setTimeout(r, 200));
    }
  })();
  return {
    seen: () => largest - before,
    async growth() {
      watching = false;
      await sampling;
      return Math.max(largest, await inUse(server)) - before;
    },
  };
}

/** The request of a ListGroups call, framed as gRPC sends it. */
function listGroups(pageSize: number): Buffer {
  const t = grpcRoot().lookupType(".chainguard.platform.iam.v2beta1.ListGroupsRequest");
  return frames.grpcMessage(t.encode(fromJson(t, { pageSize })).finish());
}

/** A gRPC call's request headers. */
const callHeaders = (token: string, extra: Record<string, string> = {}) => ({
  [h2.HTTP2_HEADER_METHOD]: "POST",
  [h2.HTTP2_HEADER_PATH]: LIST_GROUPS,
  "content-type": "application/grpc",
  te: "trailers",
  authorization: `Bearer ${token}`,
  ...extra,
});

/** The first headers of a stream that carry a gRPC status (trailers-only answer), or its trailers; undefined if it closes first. */
function statusOf(stream: ClientHttp2Stream): Promise<Record<string, unknown> | undefined> {
  return new Promise((resolve) => {
    stream.once("response", (h) => h["grpc-status"] !== undefined && resolve(h));
    stream.once("trailers", resolve);
    stream.once("close", () => resolve(undefined));
  });
}

/** A server whose ListGroups page of 200 is about 0.9 MB (200 groups of 4 KiB descriptions), and that page's size. */
async function bigPageServer(): Promise<{ server: ServerProcess; answerBytes: number }> {
  // A process of its own, so that its memory is its own, and a fresh one for each test. Its
  // JavaScript heap is held to 256 MiB, as a small deployment's might be: the bounds must hold
  // there without running out (a 192 MiB heap ran out on a loaded machine with the objects of
  // 2,000 pipelined requests waiting their turn, in the HTTP/1.1 test below).
  const server = await launch(undefined, ["--port", "0", "--request-timeout", "600000"], { nodeOptions: ["--max-old-space-size=256", ...PROBED] });
  const api = apiFor(server.start.url, server.start.token);
  for (let i = 0; i < 200; i++) {
    const res = await api.post(path("groups", server.start.organization), { name: `group-${i}`, description: "d".repeat(4096) });
    expect(res.status, res.text).toBe(200);
  }
  // One page read whole: its size, and the code paths warmed up before memory is measured.
  const session = h2connect(server.start.url);
  const stream = session.request(callHeaders(server.start.token));
  stream.end(listGroups(200));
  const chunks: Buffer[] = [];
  stream.on("data", (c) => chunks.push(c));
  await new Promise((r) => stream.once("end", r));
  session.close();
  const answerBytes = Buffer.concat(chunks).length - 5;
  expect(answerBytes).toBeGreaterThan(800_000);
  return { server, answerBytes };
}

/** The server still answers another caller, on both doors. */
async function othersServed(server: ServerProcess): Promise<void> {
  const g = grpcFor(server.start.url, server.start.token);
  try {
    const r = await g.call(GROUPS, "ListGroups", { pageSize: 1 });
    expect("ok" in r ? r.ok.groups.length : r.error.details, server.stderr().slice(-1500)).toBe(1);
  } finally {
    g.close();
  }
  expect((await apiFor(server.start.url, server.start.token).get(path("groups"), { page_size: 1 })).status).toBe(200);
}

/** `n` zero-window connections, each with 100 calls for the big page; resolves once every call is answered or gone. */
async function zeroWindowCalls(
  server: ServerProcess,
  n: number,
): Promise<{ sessions: ClientHttp2Session[]; closed: Promise<unknown>[]; statuses: (Record<string, unknown> | undefined)[] }> {
  const sessions: ClientHttp2Session[] = [];
  const closed: Promise<unknown>[] = [];
  const pending: Promise<Record<string, unknown> | undefined>[] = [];
  for (let c = 0; c < n; c++) {
    const session = h2connect(server.start.url, { settings: { initialWindowSize: 0 } });
    session.on("error", () => {});
    sessions.push(session);
    closed.push(new Promise((r) => session.once("close", r)));
    for (let i = 0; i < 100; i++) {
      const stream = session.request(callHeaders(server.start.token));
      stream.on("error", () => {});
      // An answer the server holds shows as its headers; a refused call as a status.
      pending.push(
        new Promise((resolve) => {
          stream.once("response", (h) => resolve(h));
          stream.once("close", () => resolve(undefined));
        }),
      );
      stream.end(listGroups(200));
    }
  }
  return { sessions, closed, statuses: await Promise.all(pending) };
}

describe("callers that never read their answers", () => {
  beforeAll(() => ensureBuilt());

  it("holds at most 8 MiB for a connection whose flow-control window stays shut, failing the calls past it, and answers others", async () => {
    const { server, answerBytes } = await bigPageServer();
    const memory = await watchMemory(server);
    const { sessions, statuses } = await zeroWindowCalls(server, 1);
    try {
      // Nothing drains a shut window: the answers held are exactly those that fit in 8 MiB (one at least).
      const held = Math.max(1, Math.floor((8 * MiB) / answerBytes));
      const refused = statuses.filter((h) => h?.["grpc-status"] !== undefined);
      expect(refused).toHaveLength(100 - held);
      for (const h of refused)
        expect([h!["grpc-status"], decodeURIComponent(String(h!["grpc-message"]))]).toEqual([
          String(status.RESOURCE_EXHAUSTED),
          expect.stringContaining("answers"),
        ]);
      // Unbounded, the 100 answers alone are 90 MB, and the server grows by 300 MB or more.
      expect(await memory.growth()).toBeLessThan(LIMIT_ONE);
      await othersServed(server);
    } finally {
      for (const s of sessions) s.destroy();
      await stop(server);
    }
  });

  it("holds at most 64 MiB for all such connections together, closing the one holding most to make room", async () => {
    const { server } = await bigPageServer();
    const memory = await watchMemory(server);
    // Twelve of them would hold 96 MiB at 8 MiB each (unbounded: 1 GB of answers).
    const { sessions, closed } = await zeroWindowCalls(server, 12);
    try {
      expect(await memory.growth()).toBeLessThan(LIMIT_ALL);
      // Some connection was closed by the server: at most eight can hold 8 MiB each.
      await Promise.race(closed);
      await othersServed(server);
    } finally {
      for (const s of sessions) s.destroy();
      await stop(server);
    }
  });

  it("holds at most 8 MiB for each connection with a wide window whose socket is never read, and answers others", async () => {
    const { server } = await bigPageServer();
    const memory = await watchMemory(server);
    const { port, hostname } = new URL(server.start.url);
    const fields = Object.entries(callHeaders(server.start.token)).map(([k, v]) => [k, String(v)] as [string, string]);
    fields.splice(2, 0, [":scheme", "http"], [":authority", `${hostname}:${port}`]);
    const out = [frames.PREFACE, frames.settings([[frames.INITIAL_WINDOW_SIZE, 2 ** 31 - 1]]), frames.windowUpdate(0, 2 ** 31 - 1 - 65535)];
    for (let i = 0; i < 100; i++) out.push(frames.headers(2 * i + 1, fields), frames.data(2 * i + 1, listGroups(200), true));
    // Two of them (unbounded: 180 MB of answers, less what the sockets' buffers take).
    const sockets = [0, 1].map(() => {
      const socket = connect(Number(port), hostname);
      socket.on("error", () => {});
      // Never read: the server's writes fill the socket's buffers, then wait.
      socket.pause();
      return socket;
    });
    await Promise.all(sockets.map((socket) => new Promise((r) => socket.write(Buffer.concat(out), r))));
    try {
      // Calls are answered in the order they arrive, so another caller's answer comes after all of these.
      await othersServed(server);
      expect(await memory.growth()).toBeLessThan(LIMIT_ONE);
    } finally {
      for (const socket of sockets) socket.destroy();
      await stop(server);
    }
  });
});

describe("HTTP/1.1 callers that never read their answers", () => {
  beforeAll(() => ensureBuilt());

  it("hold at most 64 MiB together, pipelining requests on sockets never read; the connection holding most is closed, and others are answered", async () => {
    const { server } = await bigPageServer();
    const memory = await watchMemory(server);
    const { port, hostname } = new URL(server.start.url);
    const request = `GET ${path("groups")}?page_size=200 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${server.start.token}\r\n\r\n`;
    // A hundred connections, each asking for the 0.9 MB page twenty times (unbounded: the server
    // grew by 700 MB and more).
    const sockets = Array.from({ length: 100 }, () => {
      const socket = connect(Number(port), hostname);
      socket.on("error", () => {});
      socket.pause();
      socket.write(request.repeat(20));
      return socket;
    });
    try {
      // Until the server closes a slow reader's connection (it says so), or grows past the bound.
      const shed = /closed the connection of 127\.0\.0\.1:\d+: it held \d+\.\d MiB of answers not read/;
      while (!shed.test(server.stderr()) && memory.seen() < LIMIT_ALL) await new Promise((r) => setTimeout(r, 50));
      expect(server.stderr()).toMatch(shed);
      await othersServed(server);
      expect(await memory.growth()).toBeLessThan(LIMIT_ALL);
    } finally {
      for (const socket of sockets) socket.destroy();
      await stop(server);
    }
  });
});

describe("a request that never ends", () => {
  it("is answered within the request timeout, whether its message came whole, in part or not at all", async () => {
    // Idle connections are kept: only the call's own time limit can end it.
    const own = await startTestServer({ connections: { requestTimeoutMs: 500, keepAliveTimeoutMs: 600_000 } });
    const session = h2connect(own.server.url);
    session.on("error", () => {});
    try {
      const whole = listGroups(1);
      const sends: [string, (s: ClientHttp2Stream) => void][] = [
        ["a whole message without END_STREAM", (s) => s.write(whole)],
        ["half a message", (s) => s.write(whole.subarray(0, 3))],
        ["nothing after the headers", () => {}],
      ];
      // All at once, as the connection opens: its age limit (ten request timeouts) is far off.
      const answers = sends.map(async ([what, send]) => {
        const stream = session.request(callHeaders(own.server.token));
        stream.on("error", () => {});
        send(stream);
        const h = await statusOf(stream);
        return [what, h?.["grpc-status"], decodeURIComponent(String(h?.["grpc-message"]))];
      });
      for (const [what, code, message] of await Promise.all(answers))
        expect([what, code, message]).toEqual([what, String(status.INVALID_ARGUMENT), "Invalid argument: request: was not received in time"]);
    } finally {
      session.destroy();
      await own.close();
    }
  });
});

describe("metadata past the bound on a request's headers", () => {
  const ctx = useServer();

  it("is refused on gRPC as REST refuses such headers: INVALID_ARGUMENT naming `headers`, for any metadata", async () => {
    const g = grpcFor(ctx.server.url, null);
    try {
      const big = "x".repeat(17 * 1024);
      // REST: the request line and headers are past 16 KiB.
      const rest = await rawHttp(ctx.server.url, `GET ${path("groups")} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${big}\r\nConnection: close\r\n\r\n`);
      expect(rest.status).toBe(431);
      const restStatus = JSON.parse(rest.body);
      // gRPC: the same bound, whichever metadata carries the bytes (a 39 KB token among them).
      for (const md of [
        { authorization: `Bearer ${"x".repeat(39_000)}` },
        { authorization: `Bearer ${big}` },
        { "x-padding": big },
        { "x-padding-bin": Buffer.alloc(13 * 1024).toString("base64") },
        Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`x-${i}`, "y".repeat(200)])),
      ]) {
        const r = await g.call(GROUPS, "ListGroups", { pageSize: 1 }, { metadata: md });
        if (!("error" in r)) throw new Error(`accepted metadata of ${Object.keys(md).length} keys`);
        expect([status[r.error.code], r.status?.message]).toEqual(["INVALID_ARGUMENT", "Invalid argument: headers: the metadata are larger than 16 KiB"]);
        expect(r.status.details[1].fieldViolations).toEqual([{ field: "headers", description: "the metadata are larger than 16 KiB" }]);
        expect(r.status.code).toBe(restStatus.code);
      }
      // Under the bound, a bad token is judged as a token, on both doors.
      const under = "x".repeat(15 * 1024);
      const r = await g.call(GROUPS, "ListGroups", { pageSize: 1 }, { token: under });
      expect("error" in r && status[r.error.code]).toBe("UNAUTHENTICATED");
      expect(
        (await rawHttp(ctx.server.url, `GET ${path("groups")} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${under}\r\nConnection: close\r\n\r\n`)).status,
      ).toBe(401);
    } finally {
      g.close();
    }
  });
});

/** One raw HTTP/1.1 exchange (nothing normalizes the request line): status and body. */
function rawHttp(url: string, request: string): Promise<{ status: number; body: string }> {
  const { port, hostname } = new URL(url);
  return new Promise((resolve, reject) => {
    const s = connect(Number(port), hostname);
    let got = "";
    s.on("data", (d) => (got += d));
    s.on("error", reject);
    s.on("close", () => resolve({ status: Number(got.split(" ")[1]), body: got.slice(got.indexOf("\r\n\r\n") + 4) }));
    s.write(request);
  });
}

/** Values of a path field that are not a uid, around a real one. */
const notUids = (uid: string, other: string) => [
  `../identities/${other}`,
  `${uid}/../../identities/${other}`,
  `${uid}/..`,
  `${uid}/.`,
  "..",
  ".",
  "",
  `${uid}/`,
  `${uid}//${other.slice(-16)}`,
  `%2e%2e/identities/${other}`,
  `${uid}?uid=${other}`,
  `${uid}#x`,
  `${uid}\\..\\..`,
  uid.toUpperCase(),
];

describe("path fields", () => {
  const ctx = useServer();

  it("every path field of every gRPC method is a uid (but a package name): anything else is INVALID_ARGUMENT naming the field, before routing", async () => {
    const org = ctx.server.organization;
    const group = ok(await ctx.api.post(path("groups", org), { name: "kept" }));
    const victim = ok(await ctx.api.post(path("identities", group.uid), { name: "victim", claimMatch: { issuer: "https://ci.example.com", subject: "s" } }));
    const g = grpcFor(ctx.server.url, ctx.server.token);
    let calls = 0;
    try {
      for (const p of GRPC_PACKAGES) {
        for (const [serviceName, service] of Object.entries(p.services ?? {})) {
          for (const [method, m] of Object.entries(service.methods)) {
            if (!("request" in m)) continue;
            const fields = [...m.http.path.matchAll(/\{([\w.]+)(?:=[^}]*)?\}/g)].map((x) => x[1]);
            for (const field of fields) {
              for (const bad of notUids(group.uid, victim.uid)) {
                // Every other path field is a good uid, so only this one can be at fault.
                const request = {};
                for (const f of fields) setPath(request, f, f === field ? bad : group.uid);
                const r = await g.call(`${p.package}.${serviceName}`, method, request);
                calls++;
                const what = `${serviceName}/${method} ${field}=${JSON.stringify(bad)}`;
                // A package name (registry v1's versions) is no uid: only those that could reach another path are refused.
                const description = field in NAME_VARIABLES ? NAME_VARIABLES[field](bad) : "must be a uid: 40 hex characters, then /-separated 16-hex segments";
                if (description === undefined) {
                  expect([what, "error" in r && status[r.error.code]]).toEqual([what, "NOT_FOUND"]);
                  continue;
                }
                if (!("error" in r)) throw new Error(`${what} was answered`);
                expect([what, status[r.error.code], r.status?.details?.[1]?.fieldViolations]).toEqual([what, "INVALID_ARGUMENT", [{ field, description }]]);
              }
            }
          }
        }
      }
    } finally {
      g.close();
    }
    expect(calls).toBeGreaterThan(500);
    // Nothing reached the identity through another route.
    expect(ok(await ctx.api.get(path("identities", victim.uid))).name).toBe("victim");
  });

  it("a REST path with dot segments, plain or percent-encoded, is INVALID_ARGUMENT on every route that takes a uid", async () => {
    const org = ctx.server.organization;
    const group = ok(await ctx.api.post(path("groups", org), { name: "kept-rest" }));
    const victim = ok(await ctx.api.post(path("identities", group.uid), { name: "victim", claimMatch: { issuer: "https://ci.example.com", subject: "s" } }));
    const dots = [
      `%2e%2e/identities/${victim.uid}`,
      `%2E%2E/identities/${victim.uid}`,
      `.%2e/identities/${victim.uid}`,
      `../identities/${victim.uid}`,
      `${group.uid}/%2e%2e/%2e%2e/identities/${victim.uid}`,
      `%2e/${group.uid}`,
      `${group.uid}/%2e`,
    ];
    const routes = ctx.server.routes.filter((r) => r.url.endsWith("/*") && r.method !== "HEAD");
    expect(routes.length).toBeGreaterThan(30);
    for (const r of routes) {
      for (const d of dots) {
        const target = r.url.replace("*", d);
        const body = ["POST", "PATCH", "PUT"].includes(r.method) ? "{}" : "";
        const res = await rawHttp(
          ctx.server.url,
          `${r.method} ${target} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${ctx.server.token}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
        );
        const what = `${r.method} ${target}`;
        // A uid check (400), or the method's refusal on this path (405): never another route's answer.
        expect([what, [400, 405].includes(res.status)]).toEqual([what, true]);
        if (res.status === 400)
          expect([what, JSON.parse(res.body).message]).toEqual([
            what,
            expect.stringMatching(r.url.startsWith(VERSIONS_PATH) ? /package: must not have empty, "\." or "\.\." segments/ : /must be a uid/),
          ]);
      }
    }
    expect(ok(await ctx.api.get(path("identities", victim.uid))).name).toBe("victim");
  });
});

/** Sets `obj` at a proto field path (`role_binding.uid`), in JSON names. */
function setPath(obj: Record<string, unknown>, protoPath: string, value: string): void {
  const keys = protoPath.split(".").map((k) => k.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()));
  let at = obj;
  for (const k of keys.slice(0, -1)) at = (at[k] ??= {}) as Record<string, unknown>;
  at[keys[keys.length - 1]] = value;
}
