/**
 * What the token exchange fetches on a stranger's behalf: never a private, loopback or link-local
 * address (in any spelling, by DNS, by redirect or through a discovery document's `jwks_uri`)
 * unless the operator allows it; never any byte of what came back, in a response or a log; one
 * answer for every kind of failure; a failing issuer asked at most once per negative-cache window.
 * Fake servers on 127.0.0.1 count their connections and requests: "never fetched" is zero of them.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { SignJWT, exportJWK, generateKeyPair, type KeyLike } from "jose";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { FAILURE_TTL_MS, ISSUERS_CACHED, IssuerKeys, KEYS_REFRESH_MS } from "../../server/auth/discovery";
import { OutboundError, OutboundFetcher, checkedLookup, isPublicAddress, outboundPolicy } from "../../server/auth/outbound";
import { startOidcIssuer } from "../support/oidc-issuer";
import { ensureBuilt, launch, stop, useDataDirs } from "../support/server-process";
import { apiFor, path, startTestServer, type ApiResponse, type TestServer } from "../support/server";
import { expectError, mkGroup, ok } from "../support/server-helpers";
import { defaultAudience, exchange } from "../support/sts";

const MARKER = "SECRET-INTERNAL-7f3a";

/** An http server that counts connections and requests by path. */
interface Recorder {
  port: number;
  connections: number;
  hits: Map<string, number>;
  close(): Promise<void>;
}

async function startRecorder(
  host: string,
  handle: (req: IncomingMessage, res: ServerResponse, base: string) => void = (_q, res) => res.end(),
): Promise<Recorder> {
  const server: Server = createServer();
  const rec: Recorder = { port: 0, connections: 0, hits: new Map(), close: async () => {} };
  server.on("connection", () => rec.connections++);
  server.on("request", (req, res) => {
    const p = (req.url ?? "").split("?")[0];
    rec.hits.set(p, (rec.hits.get(p) ?? 0) + 1);
    handle(req, res, `http://${host.includes(":") ? `[${host}]` : host}:${rec.port}`);
  });
  await new Promise<void>((resolve, reject) => server.once("error", reject).listen(0, host, resolve));
  rec.port = (server.address() as AddressInfo).port;
  rec.close = () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve())));
  return rec;
}

let signingKey: KeyLike;
const token = (iss: string, aud: string) =>
  new SignJWT({ sub: "s", aud }).setProtectedHeader({ alg: "ES256", kid: "k" }).setIssuer(iss).setExpirationTime("5m").sign(signingKey);
beforeAll(async () => {
  signingKey = (await generateKeyPair("ES256")).privateKey;
});

/** Creates a claimMatch identity trusting `issuer` exactly, and exchanges a token it signed. */
async function exchangeAs(srv: TestServer, group: string, issuer: string): Promise<ApiResponse> {
  const uid = ok(await srv.api.post(path("identities", group), { name: "x-id", claimMatch: { issuer, subject: "s" } })).uid;
  return exchange(srv, await token(issuer, srv.server.url), uid);
}

describe("no response or log carries bytes fetched from elsewhere; every failure reads the same", () => {
  const held: ServerResponse[] = [];
  let fake: Recorder;
  let elsewhere: Recorder;
  let srv: TestServer;
  let group: string;
  const logs: string[] = [];

  beforeAll(async () => {
    elsewhere = await startRecorder("127.0.0.1");
    fake = await startRecorder("127.0.0.1", (req, res, base) => {
      const shape = (req.url ?? "").split("/")[1];
      const json = (status: number, body: unknown) => res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
      if (shape === "json") json(200, { issuer: MARKER, jwks_uri: MARKER });
      else if (shape === "html") res.writeHead(200, { "content-type": "text/html" }).end(`<html><body>${MARKER}</body></html>`);
      else if (shape === "text") res.writeHead(200, { "content-type": "text/plain" }).end(MARKER);
      else if (shape === "notfound") res.writeHead(404, { "content-type": "text/plain" }).end(MARKER);
      else if (shape === "error") json(500, { error: MARKER });
      else if (shape === "badjson") res.writeHead(200, { "content-type": "application/json" }).end(`{"issuer": "${MARKER}`);
      else if (shape === "redirect") res.writeHead(302, { location: `${elsewhere.port && `http://127.0.0.1:${elsewhere.port}`}/${MARKER}` }).end(MARKER);
      else if (shape === "huge") json(200, { issuer: `${base}/huge`, jwks_uri: `${base}/huge/keys`, pad: MARKER.repeat(100_000) });
      else if (shape === "hugekeys" && req.url!.endsWith("/keys")) json(200, { keys: [], pad: MARKER.repeat(100_000) });
      else if (shape === "hugekeys") json(200, { issuer: `${base}/hugekeys`, jwks_uri: `${base}/hugekeys/keys` });
      else if (shape === "slow") (res.writeHead(200, { "content-type": "application/json" }), res.write(`{"issuer": "${MARKER}`), held.push(res));
      else if (shape === "badkeys" && req.url!.endsWith("/keys")) json(200, { keys: MARKER });
      else if (shape === "badkeys") json(200, { issuer: `${base}/badkeys`, jwks_uri: `${base}/badkeys/keys` });
      else if (shape === "markerkeys" && req.url!.endsWith("/keys")) json(200, { keys: [{ kty: "EC", crv: "P-256", kid: "k", x: MARKER, y: MARKER }] });
      else if (shape === "markerkeys") json(200, { issuer: `${base}/markerkeys`, jwks_uri: `${base}/markerkeys/keys` });
      else res.writeHead(418).end(MARKER);
    });
    const write = process.stderr.write.bind(process.stderr);
    vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array, ...rest: unknown[]) => {
      logs.push(String(chunk));
      return (write as (c: unknown, ...r: unknown[]) => boolean)(chunk, ...rest);
    });
    srv = await startTestServer({ fixtures: {}, allowPrivateIssuers: true, logger: true });
    group = (await mkGroup(srv.api, srv.server.organization, "outbound")).uid;
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    for (const r of held) r.destroy();
    await srv.close();
    await fake.close();
    await elsewhere.close();
  });

  it("answers one UNAUTHENTICATED message for every kind of fetch failure and never echoes a byte", async () => {
    const shapes = ["json", "html", "text", "notfound", "error", "badjson", "redirect", "huge", "hugekeys", "badkeys", "slow"];
    const closed = await startRecorder("127.0.0.1");
    const closedUrl = `http://127.0.0.1:${closed.port}`;
    await closed.close();
    const answers = new Map<string, string>();
    for (const shape of shapes) {
      const res = await exchangeAs(srv, group, `http://127.0.0.1:${fake.port}/${shape}`);
      expectError(res, "UNAUTHENTICATED");
      answers.set(shape, res.text);
    }
    const refused = await exchangeAs(srv, group, closedUrl);
    answers.set("refused", refused.text);
    expect(new Set(answers.values()).size, JSON.stringify(Object.fromEntries(answers))).toBe(1);
    expect(answers.get("json")).toContain("could not be fetched");
    // Keys that parse but hold the marker: jose's refusal, described in our words.
    const keys = await exchangeAs(srv, group, `http://127.0.0.1:${fake.port}/markerkeys`);
    expectError(keys, "UNAUTHENTICATED");
    for (const text of [...answers.values(), keys.text]) expect(text).not.toContain(MARKER);
    expect(logs.join("")).not.toContain(MARKER);
    // The redirect was not followed.
    expect(elsewhere.connections).toBe(0);
  });
});

describe("disallowed addresses are never fetched", () => {
  let target: Recorder;
  let target6: Recorder | undefined;
  let srv: TestServer;
  let group: string;

  beforeAll(async () => {
    target = await startRecorder("127.0.0.1");
    target6 = await startRecorder("::1").catch(() => undefined);
    srv = await startTestServer({ fixtures: {} });
    group = (await mkGroup(srv.api, srv.server.organization, "ssrf")).uid;
  });
  afterAll(async () => {
    await srv.close();
    await target.close();
    await target6?.close();
  });

  it("refuses loopback, private and link-local issuers in every spelling, by IP or by name", async () => {
    const p = target.port;
    const p6 = target6?.port ?? p;
    const literals = [
      `https://127.0.0.1:${p}`,
      `https://2130706433:${p}`,
      `https://0177.0.0.1:${p}`,
      `https://0x7f.0.0.1:${p}`,
      `https://127.1:${p}`,
      `https://[::1]:${p6}`,
      `https://[::ffff:127.0.0.1]:${p}`,
      `https://[::ffff:7f00:1]:${p}`,
      `https://0.0.0.0:${p}`,
      "https://10.0.0.1",
      "https://172.16.0.1",
      "https://192.168.1.1",
      "https://169.254.169.254",
      "https://100.64.0.1",
      "https://[fe80::1]",
      "https://[fc00::1]",
      "https://[::ffff:10.0.0.1]",
      "https://[64:ff9b::a00:1]",
    ];
    const before = srv.server.work();
    const answers = new Set<string>();
    for (const issuer of literals) {
      const res = await exchangeAs(srv, group, issuer);
      expectError(res, "UNAUTHENTICATED");
      answers.add(res.text);
    }
    // IP literals are refused before any connection is tried.
    expect(srv.server.work().exchangeFetches - before.exchangeFetches).toBe(0);
    // A name that resolves to loopback, and plain http on loopback, are refused too.
    answers.add((await exchangeAs(srv, group, `https://localhost:${p}`)).text);
    const http = await exchangeAs(srv, group, `http://127.0.0.1:${p}`);
    expect(expectError(http, "UNAUTHENTICATED").message).toContain("https");
    expect(answers.size).toBe(1);
    expect(target.connections).toBe(0);
    expect(target6?.connections ?? 0).toBe(0);
  });

  it("judges every address by what it is", () => {
    for (const a of [
      "127.0.0.1",
      "10.1.2.3",
      "172.31.255.255",
      "192.168.0.1",
      "169.254.169.254",
      "100.64.0.1",
      "0.0.0.0",
      "255.255.255.255",
      "224.0.0.1",
      "::",
      "::1",
      "fe80::1",
      "fc00::1",
      "fd12:3456::1",
      "::ffff:127.0.0.1",
      "::ffff:a00:1",
      "64:ff9b::7f00:1",
      "ff02::1",
      "not-an-ip",
    ])
      expect({ a, public: isPublicAddress(a) }).toEqual({ a, public: false });
    for (const a of ["8.8.8.8", "1.1.1.1", "93.184.216.34", "2606:4700:4700::1111", "::ffff:8.8.8.8"])
      expect({ a, public: isPublicAddress(a) }).toEqual({ a, public: true });
  });

  it("never asks a resolver about a special-use name (the examples' and tests' hooks.acme.example), in either policy", async () => {
    // The resolver's own failure reads `getaddrinfo ENOTFOUND <host>`: this one is decided before it.
    for (const allowPrivate of [false, true])
      for (const host of ["hooks.acme.example", "issuer.invalid", "a.test", "x.localhost", "HOOKS.ACME.EXAMPLE."]) {
        const err = await new Promise<NodeJS.ErrnoException | null>((r) => checkedLookup(outboundPolicy(allowPrivate))(host, {}, (e) => r(e)));
        expect({ host, code: err?.code, message: err?.message }).toEqual({ host, code: "ENOTFOUND", message: `${host} is a reserved name` });
      }
  });
});

describe("a discovery document's jwks_uri and redirects follow the same address rules", () => {
  it("never fetches a jwks_uri at a disallowed address, nor follows a redirect", async () => {
    // A policy that allows 127.0.0.1 only: the issuer is allowed, the other loopback addresses are not.
    const fetcher = new OutboundFetcher({ addressAllowed: (a) => a === "127.0.0.1", httpAllowed: () => true });
    const other = await startRecorder("127.0.0.2");
    const other6 = await startRecorder("::1").catch(() => undefined);
    const jwksAt: Record<string, string> = {
      dotted: `http://127.0.0.2:${other.port}/keys`,
      decimal: `http://2130706434:${other.port}/keys`,
      mapped: `http://[::ffff:127.0.0.2]:${other.port}/keys`,
      v6: `http://[::1]:${other6?.port ?? other.port}/keys`,
      file: "file:///etc/passwd",
    };
    const issuer = await startRecorder("127.0.0.1", (req, res, base) => {
      const name = (req.url ?? "").split("/")[1];
      if (name === "redirect") res.writeHead(302, { location: `${base}/target/.well-known/openid-configuration` }).end();
      else res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ issuer: `${base}/${name}`, jwks_uri: jwksAt[name] }));
    });
    const keys = new IssuerKeys(fetcher, Date.now);
    try {
      for (const name of [...Object.keys(jwksAt), "redirect"])
        await expect(keys.forIssuer(`http://127.0.0.1:${issuer.port}/${name}`)).rejects.toBeInstanceOf(OutboundError);
      expect(other.connections).toBe(0);
      expect(other6?.connections ?? 0).toBe(0);
      expect(issuer.hits.get("/target/.well-known/openid-configuration")).toBeUndefined();
    } finally {
      await fetcher.close();
      await Promise.all([other.close(), other6?.close(), issuer.close()]);
    }
  });

  it("connects to a name through the checked addresses when they are allowed", async () => {
    const fetcher = new OutboundFetcher(outboundPolicy(true));
    const { publicKey } = await generateKeyPair("ES256");
    const jwk = { ...(await exportJWK(publicKey)), kid: "k", alg: "ES256" };
    const named = await startRecorder("127.0.0.1", (req, res) => {
      const base = `http://${req.headers.host}`;
      const body = req.url === "/keys" ? { keys: [jwk] } : { issuer: base, jwks_uri: `${base}/keys` };
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
    });
    try {
      await new IssuerKeys(fetcher, Date.now).forIssuer(`http://localhost:${named.port}`);
      expect(named.hits.get("/keys")).toBe(1);
    } finally {
      await fetcher.close();
      await named.close();
    }
  });

  it("keeps at most ISSUERS_CACHED issuers", async () => {
    const fetcher = new OutboundFetcher(outboundPolicy(false));
    const keys = new IssuerKeys(fetcher, Date.now);
    for (let i = 0; i < ISSUERS_CACHED + 50; i++) await keys.forIssuer(`https://10.0.${i >> 8}.${i & 255}`).catch(() => undefined);
    // The cache is private: its size is what this test is about.
    // eslint-disable-next-line no-restricted-syntax -- reads the private cache to count it
    expect((keys as unknown as { cache: Map<string, unknown> }).cache.size).toBe(ISSUERS_CACHED);
    await fetcher.close();
  });
});

describe("a failing issuer is fetched at most once per negative-cache window", () => {
  it("counts one discovery for many exchanges, sequential or concurrent, and one more after the window", async () => {
    let now = Date.now();
    const failing = await startRecorder("127.0.0.1", (_req, res) => res.writeHead(503).end());
    const srv = await startTestServer({ fixtures: {}, allowPrivateIssuers: true, clock: () => now });
    try {
      const group = (await mkGroup(srv.api, srv.server.organization, "neg")).uid;
      const iss = `http://127.0.0.1:${failing.port}`;
      const uid = ok(await srv.api.post(path("identities", group), { name: "x-id", claimMatch: { issuer: iss, subject: "s" } })).uid;
      const once = async () => exchange(srv, await token(iss, srv.server.url), uid);
      const discoveries = () => failing.hits.get("/.well-known/openid-configuration") ?? 0;
      await Promise.all(Array.from({ length: 5 }, once));
      for (let i = 0; i < 5; i++) expectError(await once(), "UNAUTHENTICATED");
      expect(discoveries()).toBe(1);
      now += FAILURE_TTL_MS - 1000;
      await once();
      expect(discoveries()).toBe(1);
      now += 2000;
      await once();
      await once();
      expect(discoveries()).toBe(2);
    } finally {
      await srv.close();
      await failing.close();
    }
  });
});

describe("an unknown kid refetches an issuer's keys at most once per refresh window", () => {
  it("counts key-set fetches, not time", async () => {
    let now = Date.now();
    const issuer = await startOidcIssuer();
    const srv = await startTestServer({ fixtures: {}, allowPrivateIssuers: true, clock: () => now });
    try {
      const group = (await mkGroup(srv.api, srv.server.organization, "kid")).uid;
      const uid = ok(await srv.api.post(path("identities", group), { name: "x-id", claimMatch: { issuer: issuer.url, subject: "s" } })).uid;
      const exchangeOf = (t: string) => exchange(srv, t, uid);
      ok(await exchangeOf(await issuer.sign({ sub: "s", aud: defaultAudience(srv.server) })));
      const rotated = () => issuer.signForeign({ sub: "s", aud: defaultAudience(srv.server) }, { kid: "rotated" });
      for (let i = 0; i < 3; i++) expectError(await exchangeOf(await rotated()), "UNAUTHENTICATED");
      expect(issuer.hits.jwks).toBe(1);
      now += KEYS_REFRESH_MS + 1000;
      for (let i = 0; i < 3; i++) expectError(await exchangeOf(await rotated()), "UNAUTHENTICATED");
      expect(issuer.hits.jwks).toBe(2);
      // The published key still works throughout.
      ok(await exchangeOf(await issuer.sign({ sub: "s", aud: defaultAudience(srv.server) })));
    } finally {
      await srv.close();
      await issuer.close();
    }
  });
});

describe("irv-server --allow-private-issuers", () => {
  const dataDir = useDataDirs("irv-outbound-");
  beforeAll(() => ensureBuilt());

  it("lets a local test issuer in only with the flag", async () => {
    const issuer = await startOidcIssuer();
    try {
      for (const [args, status] of [
        [[], 401],
        [["--allow-private-issuers"], 200],
      ] as const) {
        const p = await launch(dataDir(), [...args]);
        try {
          const admin = apiFor(p.start.url, p.start.token);
          const uid = ok(await admin.post(path("identities", p.start.organization), { name: "ci-bot", claimMatch: { issuer: issuer.url, subject: "s" } })).uid;
          const res = await apiFor(p.start.authUrl, await issuer.sign({ sub: "s", aud: defaultAudience(p.start) })).get("/sts/exchange", {
            aud: p.start.url,
            identity: uid,
          });
          expect({ args, status: res.status }).toEqual({ args, status });
        } finally {
          await stop(p);
        }
      }
      expect(issuer.hits.discovery).toBe(1);
    } finally {
      await issuer.close();
    }
  });
});

describe("strangers' exchanges waiting on slow issuers", () => {
  it("hold up no other answer: the exchange takes none of the turns answers are computed in", async () => {
    // Issuers that take every discovery request and answer none until the test ends; each
    // request the server gives up on (its fetch timeout, 5 s) is counted as dropped.
    const held: ServerResponse[] = [];
    let dropped = 0;
    let released = false;
    const slow = await startRecorder("127.0.0.1", (req, res) => {
      if (released) return res.writeHead(503).end();
      held.push(res);
      req.on("close", () => !res.writableEnded && dropped++);
    });
    const srv = await startTestServer({ fixtures: {}, allowPrivateIssuers: true });
    try {
      const group = (await mkGroup(srv.api, srv.server.organization, "slow")).uid;
      // Twelve issuers (more than the 8 turns), one identity each, so no fetch is shared.
      const exchanges: Promise<ApiResponse>[] = [];
      for (let i = 0; i < 12; i++) {
        const iss = `http://127.0.0.1:${slow.port}/i${i}`;
        const uid = ok(await srv.api.post(path("identities", group), { name: `slow-${i}`, claimMatch: { issuer: iss, subject: "s" } })).uid;
        exchanges.push(exchange(srv, await token(iss, srv.server.url), uid));
      }
      // Until eight exchanges wait on their issuers (the outbound fetcher's connections to one host).
      while (held.length < 8) await new Promise((r) => setTimeout(r, 20));
      // Another caller is answered while they still wait: none was given up on first, as one would
      // have been had the exchanges held the turns until their fetches timed out.
      expect(ok(await srv.api.get(path("groups"), { page_size: 1 })).groups).toHaveLength(1);
      expect({ held: held.length >= 8, dropped }).toEqual({ held: true, dropped: 0 });
      released = true;
      for (const res of held) res.writeHead(503).end();
      for (const r of await Promise.all(exchanges)) expectError(r, "UNAUTHENTICATED");
    } finally {
      await srv.close();
      await slow.close();
    }
  });
});
