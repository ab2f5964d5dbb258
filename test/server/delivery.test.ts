/**
 * Delivery of events to subscriptions (server/delivery): every committed change reaches the sink
 * of each subscription whose group is the change's group or an ancestor of it, as CloudEvents
 * the SDK's own receiver (chainguard.dev/sdk/events/receiver, test/tools/cmd/receiver) accepts:
 * signed by irv-server's issuer for the subscription's group, with the digest of the body. A sink
 * that fails is retried until it answers; one that never answers neither slows the API nor holds
 * up other sinks; queues are bounded. Every wait is for a condition, never for time.
 */
import { spawn, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type http from "node:http";
import https from "node:https";
import net from "node:net";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../../server";
import { certOf, receiverCert, startReceiver, type Receiver } from "../support/receiver";
import { grpcFor } from "../support/grpc";
import { apiFor, path, type Api } from "../support/server";
import { cli, ensureBuilt } from "../support/server-process";
import { bind, mkGroup, mkIdentity, ok, role } from "../support/server-helpers";

const IAM = "chainguard.platform.iam.v2beta1";
const EVENTS = "chainguard.platform.events.v2beta1";
let certDir: string;
let ca: string;
const receivers: Receiver[] = [];
const servers: RunningServer[] = [];

/** A server that delivers to the test receivers (short backoff, so retries come soon). */
async function server(delivery: object = {}): Promise<{ server: RunningServer; api: Api }> {
  const s = await startServer({ delivery: { allowPrivateSinks: true, ca, initialBackoffMs: 20, maxBackoffMs: 200, ...delivery } });
  servers.push(s);
  return { server: s, api: apiFor(s.url, s.token) };
}

async function receiver(s: RunningServer, group: string, failFirst = 0): Promise<Receiver> {
  const r = await startReceiver({ issuer: s.authUrl, group, dir: certDir, failFirst });
  receivers.push(r);
  return r;
}

async function subscribe(api: Api, group: string, sink: string): Promise<string> {
  return ok(await api.post(path("subscriptions", group), { sink })).uid as string;
}

/** The receiver's accepted deliveries as [type, subject, group]. */
const accepted = (r: Receiver) => r.lines.filter((l) => l.status === 200).map((l) => [l.type, l.subject, l.group]);

beforeAll(async () => {
  certDir = await receiverCert();
  ca = certOf(certDir);
});
afterAll(async () => {
  for (const r of receivers) r.close();
  await Promise.all(servers.map((s) => s.close()));
});

describe("event delivery", () => {
  let s: RunningServer;
  let api: Api;
  let org: string;
  beforeAll(async () => {
    ({ server: s, api } = await server());
    org = s.organization;
  });

  it("delivers every create, update and delete of a group, an identity and a role binding, as the SDK's receiver accepts them", async () => {
    const r = await receiver(s, org);
    const sub = await subscribe(api, org, r.url);
    const g = await mkGroup(api, org, "delivered");
    ok(await api.patch(path("groups", g.uid), { description: "changed" }, { updateMask: "description" }));
    const id = await mkIdentity(api, g.uid, "deployer");
    ok(await api.patch(path("identities", id.uid), { description: "changed" }, { updateMask: "description" }));
    const rb = await bind(api, g.uid, id.uid, role.viewer);
    ok(await api.patch(path("roleBindings", rb.uid), { roleUid: role.editor }, { updateMask: "role_uid" }));
    ok(await api.del(path("roleBindings", rb.uid)));
    ok(await api.del(path("identities", id.uid)));
    ok(await api.del(path("groups", g.uid)));
    const t = (kind: string, action: string) => `dev.chainguard.api.iam.${kind}.${action}.v1`;
    const want = [
      ["dev.chainguard.api.events.subscription.created.v1", sub, org],
      [t("group", "created"), g.uid, g.uid],
      [t("group", "updated"), g.uid, g.uid],
      [t("identity", "created"), id.uid, g.uid],
      [t("identity", "updated"), id.uid, g.uid],
      [t("rolebindings", "created"), rb.uid, g.uid],
      [t("rolebindings", "updated"), rb.uid, g.uid],
      [t("rolebindings", "deleted"), rb.uid, g.uid],
      [t("identity", "deleted"), id.uid, g.uid],
      // A deleted group's event names its parent.
      [t("group", "deleted"), g.uid, org],
    ];
    await r.next(() => r.lines.length >= want.length, `${want.length} deliveries`);
    // In order, each once, none refused: one subscription's deliveries are sent one at a time.
    expect(r.lines.filter((l) => l.status !== 200)).toEqual([]);
    expect(accepted(r)).toEqual(want);
    const byType = (type: string) => r.lines.find((l) => l.type === type)!;
    for (const l of r.lines) {
      // What the SDK's events.Decode read: the message its bodytype names, with the caller as actor.
      expect(l.decodeError, l.type).toBeUndefined();
      expect(l.source).toBe(s.url);
      expect(l.subscription).toBe(sub);
      expect(l.actor).toBeTruthy();
      expect(l.body?.uid).toBe(l.subject);
    }
    expect(byType(t("group", "updated"))).toMatchObject({ bodytype: `${IAM}.Group`, body: { name: "delivered", description: "changed" } });
    expect(byType(t("identity", "created"))).toMatchObject({ bodytype: `${IAM}.Identity`, body: { name: "deployer" } });
    expect(byType(t("rolebindings", "updated"))).toMatchObject({ bodytype: `${IAM}.RoleBinding`, body: { role: { uid: role.editor, name: "editor" } } });
    expect(byType(t("rolebindings", "deleted"))).toMatchObject({ bodytype: `${IAM}.DeleteRoleBindingRequest`, body: { uid: rb.uid } });
    expect(byType(t("group", "deleted"))).toMatchObject({ bodytype: `${IAM}.DeleteGroupRequest` });
    expect(byType("dev.chainguard.api.events.subscription.created.v1").bodytype).toBe(`${EVENTS}.Subscription`);
    // Every event has its own id.
    expect(new Set(r.lines.map((l) => l.id)).size).toBe(r.lines.length);
  });

  it("delivers what changes through every door: v1 REST and gRPC", async () => {
    const team = await mkGroup(api, org, "doors");
    const r = await receiver(s, team.uid);
    await subscribe(api, team.uid, r.url);
    const g = grpcFor(s.url, s.token);
    try {
      const viaGrpc = await g.call("chainguard.platform.iam.v2beta1.GroupsService", "CreateGroup", { parent: team.uid, group: { name: "from-grpc" } });
      if (!("ok" in viaGrpc)) throw viaGrpc.error;
      const child = viaGrpc.ok.uid as string;
      ok(await api.request("PUT", `/iam/v1/groups/${child}`, { body: { name: "from-grpc", description: "via v1" } }));
      await r.next((l) => l.type === "dev.chainguard.api.iam.group.updated.v1", "the v1 update's event");
      expect(accepted(r).slice(1)).toEqual([
        ["dev.chainguard.api.iam.group.created.v1", child, child],
        ["dev.chainguard.api.iam.group.updated.v1", child, child],
      ]);
      expect(r.lines[2].body).toMatchObject({ description: "via v1" });
    } finally {
      g.close();
    }
  });

  it("never carries a secret: an invite's code is not in its event", async () => {
    const team = await mkGroup(api, org, "invited");
    const r = await receiver(s, team.uid);
    await subscribe(api, team.uid, r.url);
    const invite = ok(await api.post(path("groupInvites", team.uid), { roleUid: role.viewer, ttl: "3600s" }));
    expect(typeof invite.code).toBe("string");
    const l = await r.next((x) => x.type === "dev.chainguard.api.iam.group_invite.created.v1", "the invite's event");
    expect(l).toMatchObject({ status: 200, subject: invite.uid, bodytype: `${IAM}.GroupInvite` });
    expect(JSON.stringify(l)).not.toContain(invite.code);
    // As the platform redacts an invite for its events: its uid and expiration only.
    expect(Object.keys(l.body!).sort()).toEqual(["expirationTime", "uid"]);
  });

  it("delivers to a subscription the events of its group's subtree, signed for its group, and not its siblings'", async () => {
    const a = await mkGroup(api, org, "team-a");
    const b = await mkGroup(api, org, "team-b");
    const r = await receiver(s, a.uid);
    const sub = await subscribe(api, a.uid, r.url);
    await mkGroup(api, b.uid, "sibling-child");
    const child = await mkGroup(api, a.uid, "own-child");
    // Deliveries come in order: once the child's has come, the sibling's would have come before it.
    await r.next((l) => l.subject === child.uid, "the subgroup's event");
    expect(accepted(r)).toEqual([
      ["dev.chainguard.api.events.subscription.created.v1", sub, a.uid],
      ["dev.chainguard.api.iam.group.created.v1", child.uid, child.uid],
    ]);
  });

  it("retries a sink that fails at first, until it accepts the event", async () => {
    const team = await mkGroup(api, org, "flaky");
    const r = await receiver(s, team.uid, 2);
    const sub = await subscribe(api, team.uid, r.url);
    const l = await r.next((x) => x.status === 200, "the delivery after two failures");
    expect(l).toMatchObject({ type: "dev.chainguard.api.events.subscription.created.v1", subject: sub });
    // Two attempts answered 503, then the same event (the same id) was accepted.
    expect(r.lines.map((x) => [x.status, x.id])).toEqual([
      [503, l.id],
      [503, l.id],
      [200, l.id],
    ]);
    expect(s.deliveryStats().retried).toBeGreaterThanOrEqual(2);
  });

  it("gives an event up at once when the receiver refuses it (a token for another group: 403)", async () => {
    const team = await mkGroup(api, org, "misaddressed");
    // A receiver that expects deliveries for the organization, subscribed in a subgroup: the
    // tokens name the subgroup, and the SDK's receiver refuses them.
    const r = await receiver(s, org);
    const failed = s.deliveryStats().failed;
    await subscribe(api, team.uid, r.url);
    await r.next((l) => l.status === 403, "the refusal");
    const stats = await until(() => (s.deliveryStats().failed > failed ? s.deliveryStats() : undefined));
    expect(stats.failed).toBe(failed + 1);
    expect(r.lines.map((l) => l.status)).toEqual([403]);
    expect(r.lines[0].error).toContain("this token is intended for");
  });
});

describe("what a sink answers", () => {
  let s: RunningServer;
  let api: Api;
  beforeAll(async () => {
    ({ server: s, api } = await server());
  });

  it("never follows a redirect: the event is given up, and the address redirected to hears nothing", async () => {
    const team = await mkGroup(api, s.organization, "redirected");
    const r = await receiver(s, team.uid);
    const sink = await httpsSink((_req, res) => res.writeHead(307, { location: r.url }).end());
    try {
      const failed = s.deliveryStats().failed;
      await subscribe(api, team.uid, sink.url);
      await until(() => (s.deliveryStats().failed > failed ? true : undefined));
      expect(sink.requests()).toBe(1);
      expect(r.lines).toEqual([]);
    } finally {
      await sink.close();
    }
  });

  it("reads only the start of an endless answer, then drops the connection", async () => {
    const team = await mkGroup(api, s.organization, "chatty");
    let closed = false;
    const sink = await httpsSink((req, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      const chunk = Buffer.alloc(16 * 1024, "x");
      const more = () => {
        while (!res.destroyed && res.write(chunk));
      };
      res.on("drain", more);
      req.socket.on("close", () => (closed = true));
      more();
    });
    try {
      const delivered = s.deliveryStats().delivered;
      await subscribe(api, team.uid, sink.url);
      await until(() => (s.deliveryStats().delivered > delivered && closed ? true : undefined));
      expect(sink.requests()).toBe(1);
    } finally {
      await sink.close();
    }
  });
});

describe("a deleted subscription", () => {
  it("hears nothing more, including what was queued for it", async () => {
    // Attempts enough that its first event is still being retried when it is deleted.
    const { server: s, api } = await server({ maxAttempts: 1_000_000 });
    const sink = await httpsSink((_req, res) => res.writeHead(503).end());
    try {
      const sub = await subscribe(api, s.organization, sink.url);
      for (let i = 0; i < 3; i++) await mkGroup(api, s.organization, `queued-${i}`);
      // Its first event is being retried, three more wait behind it.
      await until(() => (sink.requests() >= 2 ? true : undefined));
      expect(s.deliveryStats().queued).toBe(4);
      ok(await api.del(path("subscriptions", sub)));
      const stats = await until(() => (s.deliveryStats().queued === 0 ? s.deliveryStats() : undefined));
      expect(stats).toMatchObject({ delivered: 0, failed: 4, dropped: 0 });
    } finally {
      await sink.close();
    }
  });
});

describe("the irv-server command", () => {
  beforeAll(ensureBuilt, 180_000);

  it("takes the delivery options as flags: a receiver on this machine, its certificate, quick retries", async () => {
    const child = spawn(
      process.execPath,
      [
        cli,
        "--quiet",
        "--allow-private-sinks",
        "--delivery-ca",
        `${certDir}/cert.pem`,
        "--delivery-backoff",
        "10",
        "--delivery-max-backoff",
        "50",
        "--delivery-attempts",
        "3",
      ],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    try {
      const first = await new Promise<string>((resolve, reject) => {
        createInterface({ input: child.stdout }).once("line", resolve);
        child.once("exit", (code) => reject(new Error(`irv-server exited ${code}`)));
      });
      const start = JSON.parse(first) as { url: string; authUrl: string; organization: string; token: string };
      const r = await startReceiver({ issuer: start.authUrl, group: start.organization, dir: certDir, failFirst: 2 });
      receivers.push(r);
      const sub = await subscribe(apiFor(start.url, start.token), start.organization, r.url);
      const l = await r.next((x) => x.status === 200, "the delivery after two failures");
      expect(l).toMatchObject({ subject: sub, source: start.url });
      expect(r.lines.map((x) => x.status)).toEqual([503, 503, 200]);
    } finally {
      child.kill("SIGTERM");
    }
  });

  it("refuses delivery options out of bounds, naming them", async () => {
    const bad = spawnSync(process.execPath, [cli, "--delivery-attempts", "0"], { encoding: "utf8" });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("--delivery-attempts must be a positive integer");
    await expect(startServer({ delivery: { initialBackoffMs: 500, maxBackoffMs: 100 } })).rejects.toThrow(
      "delivery.maxBackoffMs (100) must not be below delivery.initialBackoffMs (500)",
    );
    await expect(startServer({ delivery: { maxQueued: 0 } })).rejects.toThrow("delivery.maxQueued must be a positive integer");
  });
});

describe("a sink that never answers", () => {
  it("neither slows the API nor holds up other subscriptions", async () => {
    const { server: s, api } = await server({ requestTimeoutMs: 600_000 });
    const dead = await holdingSink();
    try {
      const org = s.organization;
      const r = await receiver(s, org);
      await subscribe(api, org, `https://127.0.0.1:${dead.port}/hook`);
      await subscribe(api, org, r.url);
      // The dead sink holds a delivery: a connection it accepted and never answers.
      await until(() => (dead.held() > 0 ? true : undefined));
      const made: string[] = [];
      for (let i = 0; i < 10; i++) made.push((await mkGroup(api, org, `while-dead-${i}`)).uid);
      // Every write was answered, and the live sink got every event, while the dead one still holds.
      await r.next((l) => l.subject === made[made.length - 1], "the last group's event");
      expect(
        accepted(r)
          .filter((l) => l[0] === "dev.chainguard.api.iam.group.created.v1")
          .map((l) => l[1]),
      ).toEqual(made);
      expect(dead.held()).toBeGreaterThan(0);
      expect(dead.closed()).toBe(0);
    } finally {
      await dead.close();
    }
  });

  it("is given up after its attempts, each cut off at the request timeout", async () => {
    const { server: s, api } = await server({ requestTimeoutMs: 200, maxAttempts: 2 });
    const dead = await holdingSink();
    try {
      await subscribe(api, s.organization, `https://127.0.0.1:${dead.port}/hook`);
      const stats = await until(() => (s.deliveryStats().failed > 0 ? s.deliveryStats() : undefined));
      expect(stats).toMatchObject({ failed: 1, retried: 1, delivered: 0, queued: 0 });
      // Both attempts' connections were dropped by irv-server, not left open.
      await until(() => (dead.closed() === 2 && dead.held() === 0 ? true : undefined));
    } finally {
      await dead.close();
    }
  });

  it("queues a bounded number of events for it and drops the rest", async () => {
    const { server: s, api } = await server({ requestTimeoutMs: 600_000, maxQueuedPerSink: 3 });
    const dead = await holdingSink();
    try {
      const org = s.organization;
      await subscribe(api, org, `https://127.0.0.1:${dead.port}/hook`);
      await until(() => (dead.held() > 0 ? true : undefined));
      for (let i = 0; i < 8; i++) await mkGroup(api, org, `overflow-${i}`);
      // The subscription's own event is in flight, two more wait: 9 events, 3 kept.
      expect(s.deliveryStats()).toMatchObject({ queued: 3, dropped: 6, delivered: 0 });
    } finally {
      await dead.close();
    }
  });
});

/** An https server on 127.0.0.1 with the receivers' certificate, answering as `handle` does. */
async function httpsSink(
  handle: (req: http.IncomingMessage, res: http.ServerResponse) => void,
): Promise<{ url: string; requests(): number; close(): Promise<void> }> {
  let n = 0;
  const srv = https.createServer({ cert: ca, key: readFileSync(`${certDir}/key.pem`) }, (req, res) => {
    n++;
    req.resume();
    handle(req, res);
  });
  await new Promise<void>((resolve) => srv.listen(0, "127.0.0.1", resolve));
  return {
    url: `https://127.0.0.1:${(srv.address() as net.AddressInfo).port}/hook`,
    requests: () => n,
    close: () => new Promise((resolve) => (srv.closeAllConnections(), srv.close(() => resolve()))),
  };
}

/** A TCP server that accepts connections and never says a word: a sink that hangs. */
async function holdingSink(): Promise<{ port: number; held(): number; closed(): number; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  let closed = 0;
  const srv = net.createServer((sock) => {
    sockets.add(sock);
    // Read (and ignore) what comes, so that the peer closing is seen.
    sock.resume();
    sock.on("error", () => {});
    sock.on("close", () => {
      sockets.delete(sock);
      closed++;
    });
  });
  await new Promise<void>((resolve) => srv.listen(0, "127.0.0.1", resolve));
  return {
    port: (srv.address() as net.AddressInfo).port,
    held: () => sockets.size,
    closed: () => closed,
    close: () => {
      for (const so of sockets) so.destroy();
      return new Promise((resolve) => srv.close(() => resolve()));
    },
  };
}

/** `found()` once it is defined, checked every 10 ms; fails after 60 s (generous: CI is loaded). */
async function until<T>(found: () => T | undefined, ms = 60_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = found();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`condition not met within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

// A receiver verifies a delivery with the issuer's keys, which it fetches from irv-server: a stop
// must not close the listener while a delivery is on its way, nor send another after it began.
describe("a graceful stop, with a delivery on its way", () => {
  it("keeps answering until the delivery ends, and sends nothing after", async () => {
    const s = await startServer({ delivery: { allowPrivateSinks: true, ca, initialBackoffMs: 20, maxBackoffMs: 200 } });
    let stopping: Promise<void> | undefined;
    let release!: () => void;
    const closeBegun = new Promise<void>((r) => (release = r));
    const attempts: string[] = [];
    let discovery: number | string | undefined;
    const sink = https.createServer({ cert: readFileSync(join(certDir, "cert.pem")), key: readFileSync(join(certDir, "key.pem")) }, (req, res) => {
      attempts.push(String(req.headers["ce-id"]));
      void (async () => {
        // As a receiver does: with the stop begun, fetch the issuer's discovery document, then refuse for now.
        await closeBegun;
        discovery = await fetch(`${s.authUrl}/.well-known/openid-configuration`).then(
          (r) => r.status,
          (e: Error) => String((e.cause as Error | undefined)?.message ?? e.message),
        );
        res.writeHead(503).end();
      })();
    });
    await new Promise<void>((r) => sink.listen(0, "127.0.0.1", r));
    try {
      const api = apiFor(s.url, s.token);
      await subscribe(api, s.organization, `https://127.0.0.1:${(sink.address() as net.AddressInfo).port}/`);
      while (!attempts.length) await new Promise((r) => setTimeout(r, 20));
      stopping = s.close();
      release();
      await stopping;
      expect(discovery).toBe(200);
      // Answered 503, it would have been retried within 20 to 200 ms: the stop sent nothing more.
      // (What still waits is kept in a data directory for the next start: test/e2e/follow-restart.test.ts.)
      expect(attempts).toHaveLength(1);
    } finally {
      if (!stopping) await s.close();
      await new Promise((r) => sink.close(r));
    }
  });
});
