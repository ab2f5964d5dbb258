import { execFileSync } from "node:child_process";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  ApiError,
  ConfigurationError,
  IrvClient,
  PermissionDeniedError,
  ResponseTooLargeError,
  WrongAnswerError,
  clientFor,
  MAX_ANSWER_BYTES,
} from "../../client";
import { ExchangeTokenSource, MAX_TOKEN_FILE_BYTES, StaticTokenSource } from "../../client/auth";
import { configure, dynamicProviders } from "../../provider";
import { ReadBatch } from "../../provider/resources/reads";
import { endless, json, startHostileServer, type Answer, type HostileServer } from "../support/hostile-server";
import { path, useServer } from "../support/server";

// What a hostile or compromised API can do to the client and the provider, tried against a
// stand-in `node:http` server on loopback whose records are real ones from irv-server: pages
// that never end, bodies that never end, answers about another resource, a Status in a 2xx, an
// error message full of terminal controls; and the identity token file and plain-http settings.

const real = useServer();
let servers: HostileServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

async function hostile(answer: Answer): Promise<HostileServer> {
  const s = await startHostileServer(answer);
  servers.push(s);
  return s;
}

const clientOf = (s: HostileServer) => new IrvClient(s.url, new StaticTokenSource("t"));

let group: Record<string, unknown>;
let other: Record<string, unknown>;
beforeAll(async () => {
  const org = real.server.organization;
  group = (await real.api.post(path("groups", org), { name: "eng" })).body;
  other = (await real.api.post(path("groups", org), { name: "other" })).body;
});

describe("the client against a hostile API", () => {
  it("fails on a page token the server sent before (A, B, A, ...), after three pages", async () => {
    const s = await hostile((req, res) => {
      const token = new URL(req.url!, "http://x").searchParams.get("page_token");
      json(res, { groups: [group], nextPageToken: token === "A" ? "B" : "A", totalCount: "1" });
    });
    const err = await clientOf(s)
      .collect("groups")
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WrongAnswerError);
    expect((err as Error).message).toMatch(/page token it sent before/);
    expect(s.requests).toHaveLength(3);
  });

  it("stops a listing whose tokens never repeat but never end, at MAX_PAGES", async () => {
    let n = 0;
    const s = await hostile((_req, res) => json(res, { groups: [], nextPageToken: `t${n++}`, totalCount: "0" }));
    const err = await clientOf(s)
      .collect("groups")
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WrongAnswerError);
    expect((err as Error).message).toMatch(/still had pages after 5000/);
    expect(s.requests).toHaveLength(5000);
  });

  it("abandons an endless answer soon after MAX_ANSWER_BYTES, and one that announces more at once", async () => {
    const s = await hostile((_req, res, srv) => endless(res, srv));
    const err = await clientOf(s)
      .collect("groups")
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ResponseTooLargeError);
    expect((err as Error).message).toMatch(/larger than 32 MiB/);
    // The client hung up: the server wrote little more than the cap (socket buffers), not gigabytes.
    expect(s.bytesWritten).toBeLessThan(MAX_ANSWER_BYTES * 3);

    const big = await hostile((_req, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": String(MAX_ANSWER_BYTES * 10) });
      res.write("[");
    });
    await expect(clientOf(big).get("groups", group.uid as string)).rejects.toBeInstanceOf(ResponseTooLargeError);
  });

  it("reads a 2xx carrying a non-zero Status code as that error, not as an empty list", async () => {
    const s = await hostile((_req, res) => json(res, { code: 7, message: "denied", details: [] }));
    const err = await clientOf(s)
      .collect("groups")
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PermissionDeniedError);
  });

  it("prints a server's error message without raw terminal control characters", async () => {
    const s = await hostile((_req, res) => json(res, { code: 5, message: "gone\u001b]0;pwned\u0007\r\u001b[2Kall good\u202e", details: [] }, 404));
    const err = (await clientOf(s)
      .get("groups", group.uid as string)
      .catch((e: unknown) => e)) as ApiError;
    expect(err.message).toContain("gone\\u001b]0;pwned\\u0007\\r\\u001b[2Kall good\\u202e");
    // eslint-disable-next-line no-control-regex -- control characters are what it looks for
    expect(err.message).not.toMatch(/[\u0000-\u001f\u202e]/);
  });

  it("refuses a read or an update answered with another uid", async () => {
    const s = await hostile((_req, res) => json(res, other));
    const c = clientOf(s);
    await expect(c.get("groups", group.uid as string)).rejects.toThrow(new RegExp(`answered with "${other.uid}" instead of ${group.uid}`));
    await expect(c.update("groups", group.uid as string, { description: "x" }, ["description"])).rejects.toBeInstanceOf(WrongAnswerError);
  });
});

describe("the provider against a hostile API", () => {
  it("records nothing when a create is answered with another group's record, or a read with another uid", async () => {
    const s = await hostile((_req, res) => json(res, other));
    configure((key) => ({ "irv:apiUrl": s.url, "irv:token": "t" })[key]);
    try {
      const parentUid = real.server.organization;
      // The answer is a real group, under the right parent, but not the one asked for.
      await expect(dynamicProviders.groups.create({ parentUid, name: "eng2" })).rejects.toThrow(/whose name is not the one sent/);
      const elsewhere = await hostile((_req, res) => json(res, { ...group, uid: `${group.uid}/0123456789abcdef`, name: "eng2" }));
      configure((key) => ({ "irv:apiUrl": elsewhere.url, "irv:token": "t" })[key]);
      await expect(dynamicProviders.groups.create({ parentUid, name: "eng2" })).rejects.toThrow(/is not a group in/);
      configure((key) => ({ "irv:apiUrl": s.url, "irv:token": "t" })[key]);
      await expect(dynamicProviders.groups.read(group.uid as string, { parentUid, name: "eng" })).rejects.toBeInstanceOf(WrongAnswerError);
    } finally {
      configure((key) => ({ "irv:apiUrl": real.server.url, "irv:token": real.server.token })[key]);
    }
  });

  it("ends a refresh's batched listing on a repeated page token, answering reads with GETs", async () => {
    const s = await hostile((req, res) => {
      if (req.url!.startsWith("/iam/v2beta1/groups/")) return json(res, group);
      json(res, { groups: [], nextPageToken: "A", totalCount: "200" });
    });
    const c = clientOf(s);
    const batch = new ReadBatch();
    for (let i = 0; i < 6; i++) expect((await batch.read(c, "groups", group.uid as string)).uid).toBe(group.uid);
    // One GET, then the listing's first page and the page that repeats its token, then GETs.
    expect(s.requests.filter((r) => r.includes("page_token"))).toHaveLength(1);
    expect(s.requests.length).toBeLessThan(10);
  });
});

describe("credentials", () => {
  it("refuses plain http to a host that is not loopback, at configure", () => {
    expect(() => configure((key) => ({ "irv:apiUrl": "http://api.example.com", "irv:token": "t" })[key])).toThrow(ConfigurationError);
    expect(() => configure((key) => ({ "irv:apiUrl": "https://api.example.com", "irv:authUrl": "http://auth.example.com" })[key])).toThrow(
      /irv:authUrl \(IRV_AUTH_URL\) must be an https URL/,
    );
    expect(() => clientFor({ apiUrl: "http://10.0.0.1:8080", token: "t" })).toThrow(/irv:apiUrl \(IRV_API_URL\) must be an https URL/);
    // `irv auth login` and every exchange build on the token source: it refuses too.
    expect(() => new ExchangeTokenSource({ authUrl: "http://auth.example.com", audience: "https://api", identity: "x", identityToken: "a.b.c" })).toThrow(
      ConfigurationError,
    );
    configure((key) => ({ "irv:apiUrl": real.server.url, "irv:token": real.server.token })[key]);
  });

  it("reads the identity token only from a small regular file holding a JWT, and caps the issuer's answer", async () => {
    const issuer = await hostile((_req, res, srv) => endless(res, srv));
    const dir = await mkdtemp(join(tmpdir(), "irv-token-"));
    const source = (identityToken: string, authUrl = issuer.url) => new ExchangeTokenSource({ authUrl, audience: "https://api", identity: "x", identityToken });
    const fifo = join(dir, "fifo");
    execFileSync("mkfifo", [fifo]);
    await expect(source(fifo).token()).rejects.toThrow(/not a regular file/);
    await expect(source("/dev/zero").token()).rejects.toThrow(/not a regular file/);
    const big = join(dir, "big");
    await writeFile(big, `a.b.${"c".repeat(MAX_TOKEN_FILE_BYTES)}`);
    await expect(source(big).token()).rejects.toThrow(/larger than 64 KiB/);
    const pat = join(dir, "pat");
    await writeFile(pat, "ghp_personalAccessTokenNeverSent\n");
    await expect(source(pat).token()).rejects.toThrow(/does not hold a JWT/);
    // Nothing of those reached the issuer.
    expect(issuer.requests).toHaveLength(0);
    const jwt = join(dir, "jwt");
    await writeFile(jwt, "eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.\n");
    await expect(source(jwt).token()).rejects.toBeInstanceOf(ResponseTooLargeError);
    expect(issuer.requests).toHaveLength(1);
    // An issued token that would not fit a header line is refused, not sent.
    const splitting = await hostile((_req, res) => json(res, { token: "a.b.c\r\nx-injected: 1" }));
    await expect(source(jwt, splitting.url).token()).rejects.toThrow(/no usable token/);
  });
});
