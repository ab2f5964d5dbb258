/**
 * `irv drift --follow` against a live irv-server, the stack applied through the real engine: the
 * server's committed changes are delivered to it as the platform's webhook component delivers
 * them (test/support/deliveries.ts, signed by a test issuer on 127.0.0.1). It reports a hand
 * edit, a deletion and a hand-made owner binding; refuses forged, replayed, wrongly addressed and
 * oversized deliveries without acting on them; catches up on a change made while it was down
 * (a full drift at start) and on one it could not read while the server was down (a gap, then a
 * full drift); and stays bounded under a burst of thousands of events. Every wait is on a
 * condition, bounded generously.
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtinRoleUid } from "../../server";
import { createStack, ENGINE_TIMEOUT, nodeRequire, pulumiEnv, repoRoot, type TestStack } from "../support/engine";
import { path as apiPath, startTestServer, type TestServer } from "../support/server";
import { startOidcIssuer, type OidcIssuer } from "../support/oidc-issuer";
import { deliverer, digest } from "../support/deliveries";
import { irvOnPath, startDoor, startFollow, waitUntil, type FollowProcess } from "../support/follow";
import { execFile } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { promisify } from "node:util";
import type { FollowReport } from "../../cli/follow/follow";

const irv = nodeRequire("pulumi-irv") as typeof import("../../dynamic");
const GITHUB = "https://token.actions.githubusercontent.com";

describe("irv drift --follow", { timeout: ENGINE_TIMEOUT }, () => {
  let srv: TestServer;
  let door: Awaited<ReturnType<typeof startDoor>>;
  let t: TestStack;
  let env: Record<string, string>;
  let issuer: OidcIssuer;
  let follow: FollowProcess | undefined;
  let forward: ReturnType<ReturnType<typeof deliverer>["forward"]>;
  let org: string;
  let bin: string;
  const doc = readFileSync(path.join(repoRoot, "docs", "drift-follow.md"), "utf8");

  beforeAll(async () => {
    bin = irvOnPath();
    srv = await startTestServer();
    org = srv.server.organization;
    // The stack reaches the API through a door the test can shut: the server down and back.
    door = await startDoor(new URL(srv.server.url));
    t = await createStack({
      stackName: "follow",
      server: { url: door.url, authUrl: `${door.url}/auth`, token: srv.server.token },
      program: async () => {
        const eng = new irv.iam.Group("eng", { parentUid: org, name: "engineering", description: "Everyone who builds" });
        new irv.iam.Group("ops", { parentUid: org, name: "ops" });
        const ci = new irv.iam.Identity("ci", {
          groupUid: eng.uid,
          name: "ci-bot",
          claimMatch: { issuer: GITHUB, subject: "repo:acme/infra:ref:refs/heads/main" },
        });
        new irv.iam.RoleBinding("ci-viewer", { groupUid: eng.uid, identityUid: ci.uid, roleUid: builtinRoleUid("viewer") });
        // As docs/drift-follow.md declares it.
        new irv.events.Subscription("drift", { parentUid: org, sink: "https://drift.example.com/" });
      },
    });
    env = pulumiEnv(path.join(path.dirname(t.workDir), "home"));
    await t.stack.up();
    issuer = await startOidcIssuer();
    forward = deliverer(issuer, org).forward(srv.server, () => follow?.url);
  }, ENGINE_TIMEOUT);
  afterAll(async () => {
    forward?.stop();
    await follow?.stop();
    await t?.dispose();
    await door?.close();
    await issuer?.close();
    await srv?.close();
  });

  // The receiver as docs/drift-follow.md runs it, on a free port of the loopback address.
  const SERVICE = "irv drift --follow --listen 0.0.0.0:8080 --format json";
  const NOTIFY = "irv drift --follow --listen 0.0.0.0:8080 --webhook https://hooks.example.com/drift --exec 'logger -t irv-drift'";
  const local = (command: string) => command.replace("0.0.0.0:8080", "127.0.0.1:0");
  const start = (command = SERVICE, more: string[] = []) =>
    startFollow(local(command), ["--stack", "follow", "--cwd", t.workDir, "--issuer", issuer.url, "--gap-every", "1", ...more], {
      ...env,
      PATH: `${bin}${path.delimiter}${env.PATH}`,
    });
  const uidOf = async (name: string): Promise<string> => {
    const state = await t.exportState();
    return (state.deployment.resources as any[]).find((x) => String(x.urn).endsWith(`::${name}`)).outputs.uid;
  };
  const drifted = (r: FollowReport, name: string, status: string) => r.resources.some((x) => x.name === name && x.status === status);

  it("runs a full drift at start, for the group of the stack's subscription, as the docs run it", async () => {
    for (const shown of [SERVICE, NOTIFY, "curl -fsS http://127.0.0.1:8080/healthz"]) expect(doc).toContain(`   ${shown}\n`);
    expect(doc).toContain(`new irv.events.Subscription("drift", { parentUid: org, sink: "https://drift.example.com/" });`);
    follow = await start();
    const first = await follow.waitFor((r) => r.follow.trigger === "start");
    expect(first).toMatchObject({ stack: "follow", inSync: true, checked: 5 });
    expect(follow.stderr()).toContain(`for deliveries to group ${org} signed by ${issuer.url}`);
    const port = new URL(follow.url).port;
    const curl = await promisify(execFile)("sh", ["-c", `curl -fsS http://127.0.0.1:${port}/healthz`]);
    expect(JSON.parse(curl.stdout)).toMatchObject({ ready: true, group: org, fullDrifts: 1 });
  });

  it("reports a hand edit, re-reading only what the event names", async () => {
    const from = follow!.reports.length;
    const eng = await uidOf("eng");
    expect((await srv.api.patch(apiPath("groups", eng), { description: "Changed in the console" }, { updateMask: "description" })).status).toBe(200);
    const r = await follow!.waitFor((x) => x.follow.trigger === "events" && drifted(x, "eng", "changed"), undefined, from);
    expect(r.resources.find((x) => x.name === "eng")!.fields).toEqual([
      { path: "description", recorded: "Everyone who builds", live: "Changed in the console" },
    ]);
    // The group and what lies below it or names it (ci, its binding), not ops or the subscription.
    expect(r.checked).toBe(3);
    expect(r.follow.changes).toEqual([expect.objectContaining({ kind: "groups", action: "updated", uid: eng })]);
  });

  it("reports a deletion", async () => {
    const from = follow!.reports.length;
    expect((await srv.api.del(apiPath("groups", await uidOf("ops")))).status).toBe(200);
    const r = await follow!.waitFor((x) => x.follow.trigger === "events" && drifted(x, "ops", "deleted"), undefined, from);
    expect(r.deleted).toBe(1);
  });

  it("reports an owner binding made by hand, with the access it grants", async () => {
    const from = follow!.reports.length;
    const eng = await uidOf("eng");
    const who = await srv.api.post(apiPath("identities", eng), {
      name: "intruder",
      claimMatch: { issuer: GITHUB, subject: "repo:evil/x:ref:refs/heads/main" },
    });
    expect(who.status).toBe(200);
    const b = await srv.api.post(apiPath("roleBindings", eng), { identityUid: who.body.uid, roleUid: builtinRoleUid("owner") });
    expect(b.status).toBe(200);
    const r = await follow!.waitFor((x) => x.follow.trigger === "events" && !!x.access?.unmanaged.some((u) => u.uid === b.body.uid), undefined, from);
    const binding = r.access!.unmanaged.find((u) => u.uid === b.body.uid)!;
    expect(binding.kind).toBe("iam.RoleBinding");
    expect(binding.grants.join("\n")).toMatch(/intruder gets role owner/);
  });

  it("refuses forged, replayed, wrongly addressed and oversized deliveries, and acts on none of them", async () => {
    const d = deliverer(issuer, org);
    const url = follow!.url;
    const before = await follow!.health();
    const event = { type: "dev.chainguard.api.iam.group.updated.v1", subject: await uidOf("eng"), body: {} };
    expect((await d.send(url, event, { forged: true })).status).toBe(403);
    const ok = await d.build(event);
    expect((await d.post(url, ok)).status).toBe(200);
    expect((await d.post(url, ok)).status).toBe(403); // replayed
    expect((await deliverer(issuer, "ffffffffffffffffffffffffffffffffffffffff").send(url, event)).status).toBe(403); // another group's
    const big = JSON.stringify({ body: { pad: "x".repeat(2 << 20) } });
    const token = await issuer.sign({ sub: `webhook:${org}`, aud: "customer", webhook: { digest: digest(big) } });
    expect((await d.send(url, event, { token, body: big })).status).toBe(413);
    expect((await d.send(url, event, { noToken: true })).status).toBe(401);
    const after = await follow!.health();
    expect(after.refused - before.refused).toBe(5);
    expect(after.events - before.events).toBe(1); // the one accepted
    for (const line of follow!
      .stderr()
      .split("\n")
      .filter((l) => l.includes("refused")))
      expect(line).not.toContain(ok.token);
  });

  it("catches up at start on a change made while it was down", async () => {
    expect(await follow!.stop()).toBe(0);
    follow = undefined;
    const ci = await uidOf("ci");
    expect((await srv.api.patch(apiPath("identities", ci), { description: "edited while nobody listened" }, { updateMask: "description" })).status).toBe(200);
    follow = await start();
    const r = await follow.waitFor((x) => x.follow.trigger === "start");
    expect(r.resources.find((x) => x.name === "ci")!.fields).toContainEqual({ path: "description", recorded: "", live: "edited while nobody listened" });
    expect(drifted(r, "ops", "deleted")).toBe(true);
  });

  it("survives the server going down: a re-read that fails leaves a gap, and a full drift after it catches up", async () => {
    const from = follow!.reports.length;
    await door.shut();
    const eng = await uidOf("eng");
    expect((await srv.api.patch(apiPath("groups", eng), { name: "engineering-renamed" }, { updateMask: "name" })).status).toBe(200);
    await waitUntil(() => /re-reading after .* failed|full drift failed/.test(follow!.stderr()));
    await door.open();
    const r = await follow!.waitFor(
      (x) => x.follow.trigger === "gap" && !!x.resources.find((y) => y.name === "eng")?.fields.some((f) => f.live === "engineering-renamed"),
      undefined,
      from,
    );
    expect(r.follow.why).toBeTruthy();
  });

  it("stays bounded under a burst of thousands of events: they coalesce into few re-reads", async () => {
    const d = deliverer(issuer, org);
    const before = await follow!.health();
    const eng = await uidOf("eng");
    const N = 3000;
    const statuses: number[] = [];
    for (let i = 0; i < N; i += 100) {
      const sent = await Promise.all(
        Array.from({ length: 100 }, (_, j) =>
          d.send(follow!.url, { type: "dev.chainguard.api.iam.group.updated.v1", subject: eng, body: { uid: eng, n: i + j } }),
        ),
      );
      statuses.push(...sent.map((s) => s.status));
    }
    expect(statuses.every((s) => s === 200)).toBe(true);
    await waitUntil(async () => (await follow!.health()).events - before.events === N);
    const after = await follow!.health();
    expect(after.batches - before.batches).toBeLessThan(N / 10);
    expect(after.rss).toBeLessThan(400 * 1024 * 1024);
  });

  it("sends each finding to a webhook and a command, as the docs show", async () => {
    const posted: any[] = [];
    const hook = createServer((req, res) => {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => {
        posted.push(JSON.parse(body));
        res.end();
      });
    });
    await new Promise<void>((r) => hook.listen(0, "127.0.0.1", r));
    try {
      expect(await follow!.stop()).toBe(0);
      const hookUrl = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/drift`;
      follow = await start(NOTIFY.replace("https://hooks.example.com/drift", hookUrl), ["--format", "json"]);
      await follow.waitFor((r) => r.follow.trigger === "start");
      // The drift found at start (ci's description, ops deleted, the owner binding) is sent, once each.
      await waitUntil(() => posted.some((p) => p.finding === "access" && /gets role owner/.test(p.summary)));
      expect(posted.some((p) => p.finding === "drift" && /ops \(iam.Group, uid .*\) was deleted outside Pulumi/.test(p.summary))).toBe(true);
      await waitUntil(async () => (await follow!.health()).notified.sent === posted.length);
      expect((await follow.health()).notified.failed).toBe(0);
    } finally {
      await new Promise<void>((r) => hook.close(() => r()));
    }
  });

  it("reports a change whose delivery was lost at the next periodic resync (--resync-every)", async () => {
    // This receiver gets no deliveries (they go to the other one): every event is lost to it,
    // as one queued in an irv-server that restarted is; only the periodic full drift can see the change.
    const lost = await start(SERVICE, ["--resync-every", "2"]);
    try {
      await lost.waitFor((r) => r.follow.trigger === "start");
      const from = lost.reports.length;
      const eng = await uidOf("eng");
      expect((await srv.api.patch(apiPath("groups", eng), { description: "edited, its delivery lost" }, { updateMask: "description" })).status).toBe(200);
      const r = await lost.waitFor(
        (x) => x.follow.trigger === "resync" && !!x.resources.find((y) => y.name === "eng")?.fields.some((f) => f.live === "edited, its delivery lost"),
        undefined,
        from,
      );
      expect(r.follow.why).toBe("no full drift for 2 s");
      const health = await lost.health();
      expect(health).toMatchObject({ events: 0, batches: 0 });
      expect(health.resyncs).toBeGreaterThanOrEqual(1);
    } finally {
      expect(await lost.stop()).toBe(0);
    }
  });
});
