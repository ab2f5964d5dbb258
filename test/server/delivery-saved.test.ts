/** The deliveries kept across a graceful stop (server/delivery/saved.ts): read back once, byte for byte; a damaged file is told and dropped. */
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { saveQueued, takeQueued, type QueuedDelivery } from "../../server/delivery/saved";

describe("deliveries kept in the data directory", () => {
  const dirs: string[] = [];
  const dir = () => {
    const d = mkdtempSync(path.join(tmpdir(), "irv-saved-"));
    dirs.push(d);
    return d;
  };
  afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

  const queued: QueuedDelivery = {
    subscription: "org/sub",
    sink: "https://drift.example.com/",
    event: {
      id: "e1",
      type: "dev.chainguard.api.iam.group.updated.v1",
      subject: "org/g",
      group: "org",
      headers: { "ce-id": "e1" },
      body: Buffer.from([0, 1, 255]),
    },
    attempts: 3,
  };

  it("reads back what was saved, once, the body byte for byte, from a file only its owner reads", () => {
    const d = dir();
    saveQueued(d, [queued]);
    expect(statSync(path.join(d, "deliveries.json")).mode & 0o077).toBe(0);
    const back = takeQueued(d, () => expect.fail("no warning"));
    expect(back).toEqual([queued]);
    expect(back[0].event.body.equals(queued.event.body)).toBe(true);
    expect(takeQueued(d, () => expect.fail("no warning"))).toEqual([]);
  });

  it("writes nothing when nothing waits", () => {
    const d = dir();
    saveQueued(d, []);
    expect(existsSync(path.join(d, "deliveries.json"))).toBe(false);
  });

  it("tells of a damaged file and drops it", () => {
    const d = dir();
    writeFileSync(path.join(d, "deliveries.json"), "{not json");
    const warnings: string[] = [];
    expect(takeQueued(d, (m) => warnings.push(m))).toEqual([]);
    expect(warnings).toEqual([expect.stringMatching(/could not be read .*: they are not delivered/)]);
    expect(existsSync(path.join(d, "deliveries.json"))).toBe(false);
  });
});
