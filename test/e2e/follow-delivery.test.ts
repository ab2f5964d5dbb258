/**
 * `irv drift --follow` on irv-server's own deliveries: the stack declares the subscription whose
 * sink is the receiver (https, with a certificate irv-server trusts), irv-server signs each
 * delivery with its own issuer (the stack's irv:authUrl, the receiver's default), and the
 * receiver reports a hand edit, a deletion and a hand-made owner binding. While the receiver is
 * down, irv-server's deliveries fail and are retried; when it is back, its start-up drift and the
 * retried deliveries report what changed meanwhile. Waits are on conditions, bounded generously.
 */
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtinRoleUid } from "../../server";
import { createStack, ENGINE_TIMEOUT, nodeRequire, pulumiEnv, type TestStack } from "../support/engine";
import { path as apiPath, startTestServer, type TestServer } from "../support/server";
import { certOf, receiverCert } from "../support/receiver";
import { irvOnPath, startDoor, startFollow, waitUntil, type FollowProcess } from "../support/follow";
import type { FollowReport } from "../../cli/follow/follow";

const irv = nodeRequire("pulumi-irv") as typeof import("../../dynamic");
const GITHUB = "https://token.actions.githubusercontent.com";

describe("irv drift --follow on irv-server's deliveries", { timeout: ENGINE_TIMEOUT }, () => {
  let srv: TestServer;
  let t: TestStack;
  let env: Record<string, string>;
  let certs: string;
  let bin: string;
  let follow: FollowProcess | undefined;
  // The sink's fixed address: a door to wherever the receiver listens now (nowhere while it is down).
  let sink: Awaited<ReturnType<typeof startDoor>>;

  beforeAll(async () => {
    bin = irvOnPath();
    certs = await receiverCert();
    srv = await startTestServer({ delivery: { allowPrivateSinks: true, ca: certOf(certs), initialBackoffMs: 100, maxBackoffMs: 1000, maxAttempts: 100 } });
    const org = srv.server.organization;
    sink = await startDoor(() => (follow ? new URL(follow.url) : undefined));
    const sinkUrl = `https://127.0.0.1:${new URL(sink.url).port}/`;
    t = await createStack({
      stackName: "delivered",
      server: srv.server,
      program: async () => {
        const eng = new irv.iam.Group("eng", { parentUid: org, name: "engineering", description: "Everyone who builds" });
        new irv.iam.Group("ops", { parentUid: org, name: "ops" });
        new irv.iam.Identity("ci", { groupUid: eng.uid, name: "ci-bot", claimMatch: { issuer: GITHUB, subject: "repo:acme/infra:ref:refs/heads/main" } });
        new irv.events.Subscription("drift", { parentUid: org, sink: sinkUrl });
      },
    });
    env = { ...pulumiEnv(path.join(path.dirname(t.workDir), "home")) };
    env.PATH = `${bin}${path.delimiter}${env.PATH}`;
    await t.stack.up();
  }, ENGINE_TIMEOUT);
  afterAll(async () => {
    await follow?.stop();
    await t?.dispose();
    await sink?.close();
    await srv?.close();
  });

  const start = () =>
    startFollow(
      "irv drift --follow --listen 127.0.0.1:0 --format json",
      ["--stack", "delivered", "--cwd", t.workDir, "--tls-cert", path.join(certs, "cert.pem"), "--tls-key", path.join(certs, "key.pem")],
      env,
    );
  const uidOf = async (name: string): Promise<string> => {
    const state = await t.exportState();
    return (state.deployment.resources as any[]).find((x) => String(x.urn).endsWith(`::${name}`)).outputs.uid;
  };
  const drifted = (r: FollowReport, name: string, status: string) => r.resources.some((x) => x.name === name && x.status === status);

  it("starts in sync, verifying deliveries with the stack's own issuer", async () => {
    follow = await start();
    expect(follow.url).toMatch(/^https:\/\/127\.0\.0\.1:/);
    expect(await follow.waitFor((r) => r.follow.trigger === "start")).toMatchObject({ inSync: true, checked: 4 });
    expect(follow.stderr()).toContain(`signed by ${srv.server.authUrl}`);
  });

  it("reports a hand edit, a deletion and an owner binding made by hand, from irv-server's deliveries", async () => {
    const from = follow!.reports.length;
    const eng = await uidOf("eng");
    expect((await srv.api.patch(apiPath("groups", eng), { description: "Changed in the console" }, { updateMask: "description" })).status).toBe(200);
    expect((await srv.api.del(apiPath("groups", await uidOf("ops")))).status).toBe(200);
    const who = await srv.api.post(apiPath("identities", eng), {
      name: "intruder",
      claimMatch: { issuer: GITHUB, subject: "repo:evil/x:ref:refs/heads/main" },
    });
    const b = await srv.api.post(apiPath("roleBindings", eng), { identityUid: who.body.uid, roleUid: builtinRoleUid("owner") });
    expect(b.status).toBe(200);
    const edit = await follow!.waitFor((r) => r.follow.trigger === "events" && drifted(r, "eng", "changed"), undefined, from);
    expect(edit.resources.find((x) => x.name === "eng")!.fields).toEqual([
      { path: "description", recorded: "Everyone who builds", live: "Changed in the console" },
    ]);
    await follow!.waitFor((r) => r.follow.trigger === "events" && drifted(r, "ops", "deleted"), undefined, from);
    const owner = await follow!.waitFor((r) => r.follow.trigger === "events" && !!r.access?.unmanaged.some((u) => u.uid === b.body.uid), undefined, from);
    expect(owner.access!.unmanaged.find((u) => u.uid === b.body.uid)!.grants.join("\n")).toMatch(/intruder gets role owner/);
    expect(follow!.stderr()).not.toContain("refused a delivery");
  });

  it("misses nothing while it is down: irv-server retries, and the start-up drift covers the gap", async () => {
    expect(await follow!.stop()).toBe(0);
    follow = undefined;
    const ci = await uidOf("ci");
    const retriedBefore = srv.server.deliveryStats().retried;
    expect((await srv.api.patch(apiPath("identities", ci), { description: "edited while nobody listened" }, { updateMask: "description" })).status).toBe(200);
    await waitUntil(() => srv.server.deliveryStats().retried > retriedBefore);
    follow = await start();
    const first = await follow.waitFor((r) => r.follow.trigger === "start");
    expect(first.resources.find((x) => x.name === "ci")!.fields).toContainEqual({ path: "description", recorded: "", live: "edited while nobody listened" });
    // And the delivery irv-server kept retrying arrives too.
    const retried = await follow.waitFor((r) => r.follow.trigger === "events" && !!r.follow.changes?.some((c) => c.uid === ci));
    expect(retried.resources.find((x) => x.name === "ci")?.status).toBe("changed");
  });
});
