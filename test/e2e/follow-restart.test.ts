/**
 * `irv drift --follow` across a restart of irv-server: irv-server runs as a process on a data
 * directory (a Node with node:sqlite, test/support/server-process.ts) on a fixed port; stopped and
 * started again on the same directory and port, it delivers the next change, signed by the same
 * issuer, and the receiver, which kept running, reports it; and a change whose delivery was still
 * queued when it stopped (the sink unreachable) is kept in the data directory and delivered after.
 */
import { existsSync } from "node:fs";
import * as path from "node:path";
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createStack, ENGINE_TIMEOUT, nodeRequire, pulumiEnv, type TestStack } from "../support/engine";
import { apiFor, path as apiPath } from "../support/server";
import { certOf, receiverCert } from "../support/receiver";
import { ensureBuilt, launch, stop, useDataDirs, type ServerProcess } from "../support/server-process";
import { irvOnPath, startDoor, startFollow, type FollowProcess } from "../support/follow";

const irv = nodeRequire("pulumi-irv") as typeof import("../../dynamic");

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

describe("irv drift --follow across a restart of irv-server", { timeout: ENGINE_TIMEOUT }, () => {
  const dataDir = useDataDirs("irv-follow-restart-");
  let server: ServerProcess;
  let args: string[];
  let dir: string;
  let t: TestStack;
  let follow: FollowProcess | undefined;
  let sink: Awaited<ReturnType<typeof startDoor>>;
  let env: Record<string, string>;
  let certs: string;

  beforeAll(async () => {
    ensureBuilt();
    certs = await receiverCert();
    dir = dataDir();
    args = [
      "--port",
      String(await freePort()),
      "--allow-private-sinks",
      "--delivery-ca",
      path.join(certs, "cert.pem"),
      "--delivery-backoff",
      "100",
      "--delivery-max-backoff",
      "1000",
      "--delivery-attempts",
      "100",
    ];
    expect(certOf(certs)).toContain("BEGIN CERTIFICATE");
    server = await launch(dir, args);
    sink = await startDoor(() => (follow ? new URL(follow.url) : undefined));
    const org = server.start.organization;
    t = await createStack({
      stackName: "restarted",
      server: server.start,
      program: async () => {
        new irv.iam.Group("eng", { parentUid: org, name: "engineering", description: "Everyone who builds" });
        new irv.events.Subscription("drift", { parentUid: org, sink: `https://127.0.0.1:${new URL(sink.url).port}/` });
      },
    });
    env = pulumiEnv(path.join(path.dirname(t.workDir), "home"));
    env.PATH = `${irvOnPath()}${path.delimiter}${env.PATH}`;
    await t.stack.up();
  }, ENGINE_TIMEOUT);
  afterAll(async () => {
    await follow?.stop();
    await t?.dispose();
    await sink?.close();
    if (server) await stop(server);
  });

  it("keeps receiving after irv-server stops and starts again", async () => {
    follow = await startFollow(
      "irv drift --follow --listen 127.0.0.1:0 --format json",
      ["--stack", "restarted", "--cwd", t.workDir, "--tls-cert", path.join(certs, "cert.pem"), "--tls-key", path.join(certs, "key.pem")],
      env,
    );
    await follow.waitFor((r) => r.follow.trigger === "start");
    await stop(server);
    server = await launch(dir, args);
    const eng = ((await t.stack.exportStack()).deployment.resources as any[]).find((r) => String(r.urn).endsWith("::eng")).outputs.uid;
    const api = apiFor(server.start.url, server.start.token);
    const from = follow.reports.length;
    expect((await api.patch(apiPath("groups", eng), { description: "Changed after the restart" }, { updateMask: "description" })).status).toBe(200);
    const r = await follow.waitFor(
      (x) => x.follow.trigger === "events" && x.resources.some((y) => y.name === "eng" && y.status === "changed"),
      undefined,
      from,
    );
    expect(r.resources[0].fields).toEqual([{ path: "description", recorded: "Everyone who builds", live: "Changed after the restart" }]);
    expect(follow.stderr()).not.toContain("refused a delivery");
  });

  it("delivers after a restart what was still queued when irv-server stopped", async () => {
    // The sink unreachable: the change's delivery waits in irv-server's queue, retried.
    await sink.shut();
    const eng = ((await t.stack.exportStack()).deployment.resources as any[]).find((r) => String(r.urn).endsWith("::eng")).outputs.uid;
    const from = follow!.reports.length;
    const api = apiFor(server.start.url, server.start.token);
    expect((await api.patch(apiPath("groups", eng), { description: "Queued when the server stopped" }, { updateMask: "description" })).status).toBe(200);
    await stop(server);
    // A graceful stop keeps it in the data directory; the next start sends it.
    expect(existsSync(path.join(dir, "deliveries.json"))).toBe(true);
    server = await launch(dir, args);
    await sink.open();
    const r = await follow!.waitFor(
      (x) => x.follow.trigger === "events" && !!x.resources.find((y) => y.name === "eng")?.fields.some((f) => f.live === "Queued when the server stopped"),
      undefined,
      from,
    );
    expect(r.follow.changes).toEqual([expect.objectContaining({ kind: "groups", action: "updated", uid: eng })]);
    expect(existsSync(path.join(dir, "deliveries.json"))).toBe(false);
  });
});
