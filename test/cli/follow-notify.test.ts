/**
 * Where `irv drift --follow` sends findings beyond standard output (cli/follow/notify.ts): a
 * webhook POSTed and a command run per finding, each finding once; repeats within the window
 * counted and sent as one digest when it closes. And the options it refuses before reading a stack.
 */
import { mkdtempSync, readFileSync, readdirSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Notifier, findingsOf, type Digest, type Finding } from "../../cli/follow/notify";
import type { FollowReport } from "../../cli/follow/follow";
import { listenAddress } from "../../cli/follow/run";
import { runIrv } from "../support/cli";

const report = (live: string): FollowReport => ({
  stack: "prod",
  inSync: false,
  checked: 1,
  changed: 1,
  deleted: 0,
  resources: [
    {
      name: "eng",
      kind: "iam.Group",
      type: "irv:iam:Group",
      urn: "urn:pulumi:prod::org::irv:iam:Group::eng",
      uid: "aa/bb",
      status: "changed",
      fields: [{ path: "description", recorded: "a", live }],
    },
  ],
  access: {
    unmanaged: [
      {
        kind: "iam.RoleBinding",
        uid: "aa/bb/cc",
        name: "aa/bb/cc",
        group: "engineering",
        grants: ["intruder gets role owner (40 capabilities) on engineering"],
      },
    ],
    watched: { groups: ["engineering"], kinds: ["roleBindings"] },
    expected: 0,
  },
  settingsChanged: [],
  readBy: { engine: false },
  durationMs: 3,
  follow: { trigger: "events", at: "2026-01-01T00:00:00.000Z" },
});

describe("findings sent to a webhook and a command, with a digest of repeats", () => {
  let hook: Server;
  let hookUrl = "";
  const posted: (Finding | Digest)[] = [];
  beforeAll(async () => {
    hook = createServer((req, res) => {
      let body = "";
      req.on("data", (d) => (body += d));
      req.on("end", () => {
        posted.push(JSON.parse(body));
        res.end();
      });
    });
    await new Promise<void>((r) => hook.listen(0, "127.0.0.1", r));
    hookUrl = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`;
  });
  afterAll(() => new Promise<void>((r) => hook.close(() => r())));

  it("sends each finding once, counts repeats, and sends one digest of them", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "irv-notify-"));
    // One file per run: the commands run side by side.
    const warnings: string[] = [];
    const n = new Notifier({ webhook: hookUrl, exec: `cat > "$(mktemp -p ${JSON.stringify(dir)})"`, warn: (m) => warnings.push(m) });
    expect(findingsOf(report("b")).map((f) => f.summary)).toEqual([
      "eng (iam.Group, uid aa/bb) changed outside Pulumi: description",
      "iam.RoleBinding aa/bb/cc in engineering was made outside the stack: intruder gets role owner (40 capabilities) on engineering",
    ]);
    n.take(report("b"));
    n.take(report("b"));
    n.take(report("b"));
    await n.idle();
    expect(posted.length).toBe(2);
    expect(n.stats).toMatchObject({ sent: 2, repeats: 4, failed: 0 });
    // A different live value is a new finding.
    n.take(report("c"));
    await n.idle();
    expect(posted.length).toBe(3);
    n.closeWindow();
    await n.idle();
    const digest = posted[posted.length - 1] as Digest;
    expect(digest.digest).toEqual(expect.arrayContaining([expect.objectContaining({ repeats: 2 })]));
    expect(digest.digest.length).toBe(2);
    const lines = readdirSync(dir).map((f) => JSON.parse(readFileSync(path.join(dir, f), "utf8")));
    expect(lines.length).toBe(4);
    expect(lines.filter((l) => l.finding === "drift").length).toBe(2);
    expect(lines.filter((l) => l.digest).length).toBe(1);
    expect(warnings).toEqual([]);
    // After the window, a finding is new again.
    n.take(report("b"));
    await n.idle();
    expect(posted.length).toBe(6);
    n.close();
  });

  it("says when a command fails, and keeps going", async () => {
    const warnings: string[] = [];
    const n = new Notifier({ exec: "exit 3", warn: (m) => warnings.push(m) });
    n.take(report("z"));
    await n.idle();
    expect(n.stats.failed).toBe(2);
    expect(warnings[0]).toMatch(/the command exited 3/);
    n.close();
  });
});

describe("irv drift --follow refuses bad options before reading a stack", () => {
  it.each([
    [["--follow", "--listen", "nowhere"], /--listen must be HOST:PORT/],
    [["--follow", "--max-body=-1"], /--max-body must be a positive number/],
    [["--follow", "--tls-cert", "x.pem"], /--tls-cert and --tls-key go together/],
    [["--follow", "--webhook", "ftp://x"], /--webhook must be an http\(s\) URL/],
    [["--follow", "--engine"], /--engine does not go with --follow/],
    [["--listen", "127.0.0.1:1"], /--listen goes with --follow/],
    [["--follow", "--resync-every=-1"], /--resync-every must be a number of seconds \(0 for never\), not "-1"/],
    [["--resync-every", "60"], /--resync-every goes with --follow/],
  ])("irv drift %j", async (args, message) => {
    const run = await runIrv(["drift", ...args]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(message);
  });

  it("reads listen addresses", () => {
    expect(listenAddress(undefined)).toEqual({ host: "127.0.0.1", port: 8080 });
    expect(listenAddress(":9000")).toEqual({ host: "0.0.0.0", port: 9000 });
    expect(listenAddress("[::]:0")).toEqual({ host: "::", port: 0 });
  });
});
