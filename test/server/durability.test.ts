/**
 * `irv-server --data-dir`: every acknowledged write survives a crash (SIGKILL in the middle of
 * a concurrent write load), a torn journal record is dropped whole, a journal damaged anywhere
 * else stops the start, a write the disk refuses is answered UNAVAILABLE and not applied, a
 * second server is refused even from another PID namespace, and a restart keeps organization,
 * uids and signing key.
 */
import { readFileSync, readdirSync, statSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { apiFor, path, type Api, type ApiResponse } from "../support/server";
import { crash, ensureBuilt, journalRecords, launch, portOf, stop, useDataDirs } from "../support/server-process";
import { expectError, mkGroup, mkIdentity, bind, ok, role, wireCaps } from "../support/server-helpers";

beforeAll(() => ensureBuilt(), 180_000);

const freshDir = useDataDirs("irv-durable-");

type Collection = "groups" | "identities" | "roles" | "roleBindings";
/** What an item may look like after the restart: fields it must have, or null for gone. */
type Outcome = Record<string, unknown> | null;

/** True when `actual` has every field of `fields` (recursively, as toMatchObject). */
function contains(actual: unknown, fields: Record<string, unknown>): boolean {
  try {
    expect(actual).toMatchObject(fields);
    return true;
  } catch {
    return false;
  }
}

describe("irv-server --data-dir", () => {
  it.each([
    ["", []],
    // Compacting every few writes: the crash may land in the middle of one.
    [", compacting every 4 KiB", ["--compact-after", "4096"]],
  ])(
    "keeps every acknowledged write across a SIGKILL in the middle of a concurrent write load%s",
    async (_, args) => {
      const dir = freshDir();
      const first = await launch(dir, args);
      const { organization, token } = first.start;
      const api = apiFor(first.start.url, token);
      /** Per uid, the outcomes allowed: one once a write is acknowledged, two while it was in flight at the crash. */
      const expected = new Map<string, { collection: Collection; outcomes: Outcome[] }>();
      const settle = (collection: Collection, uid: string, outcome: Outcome) => expected.set(uid, { collection, outcomes: [outcome] });
      /** A write in flight when the process died may or may not have landed (but never half). */
      const either = (uid: string, outcome: Outcome) => expected.get(uid)!.outcomes.push(outcome);
      /** Identity deletes in flight when the process died: identity and binding go together or not at all. */
      const inFlightDeletes: { identity: string; binding: string }[] = [];
      let acks = 0;
      let killing: Promise<void> | undefined;
      const KILL_AFTER_ACKS = 400;

      /** Sends one write; undefined once the server is gone (the write's outcome is unknown). */
      const write = async (send: () => Promise<ApiResponse>): Promise<any> => {
        let res: ApiResponse;
        try {
          res = await send();
        } catch {
          return undefined;
        }
        expect(res.status, res.text).toBe(200);
        if (++acks === KILL_AFTER_ACKS) killing = crash(first);
        return res.body;
      };

      const worker = async (w: number) => {
        for (let i = 0; ; i++) {
          const name = `w${w}-${i}`;
          const g = await write(() => api.post(path("groups", organization), { name }));
          if (!g) return;
          settle("groups", g.uid, { name, description: "" });
          const id = await write(() =>
            api.post(path("identities", g.uid), { name: "ci-bot", claimMatch: { issuer: "https://ci.example.com", subject: name } }),
          );
          if (!id) return;
          settle("identities", id.uid, { name: "ci-bot", claimMatch: { subject: name } });
          const b = await write(() => api.post(path("roleBindings", g.uid), { identityUid: id.uid, roleUid: role.viewer }));
          if (!b) return;
          settle("roleBindings", b.uid, { identity: { uid: id.uid }, role: { uid: role.viewer } });
          const r = await write(() => api.post(path("roles", g.uid), { name: "reader", capabilities: wireCaps(["groups.list"]) }));
          if (!r) return;
          settle("roles", r.uid, { capabilities: wireCaps(["groups.list"]) });
          if (!(await write(() => api.patch(path("groups", g.uid), { description: `v${i}` })))) return either(g.uid, { name, description: `v${i}` });
          settle("groups", g.uid, { name, description: `v${i}` });
          if (i % 2 === 1) continue;
          // Deleting the identity also deletes its binding: one transaction, one journal record.
          if (!(await write(() => api.del(path("identities", id.uid))))) {
            inFlightDeletes.push({ identity: id.uid, binding: b.uid });
            either(id.uid, null);
            return either(b.uid, null);
          }
          settle("identities", id.uid, null);
          settle("roleBindings", b.uid, null);
          if (!(await write(() => api.del(path("roles", r.uid))))) return either(r.uid, null);
          settle("roles", r.uid, null);
          if (!(await write(() => api.del(path("groups", g.uid))))) return either(g.uid, null);
          settle("groups", g.uid, null);
        }
      };
      await Promise.all([0, 1, 2, 3, 4, 5].map(worker));
      await killing;
      expect(acks).toBeGreaterThanOrEqual(KILL_AFTER_ACKS);
      expect(await first.exited).toBe("SIGKILL");

      // Same directory, same port: the old token (signed before the crash) must still verify.
      const second = await launch(dir, ["--port", portOf(first.start.url), ...args]);
      try {
        expect(second.start.organization).toBe(organization);
        const old = apiFor(second.start.url, token);
        let present = 0;
        let absent = 0;
        for (const [uid, want] of expected) {
          const res = await old.get(path(want.collection, uid));
          const found = res.status === 404 ? null : ok(res);
          if (found === null) absent++;
          else present++;
          const matches = (o: Outcome) => (o === null ? found === null : found !== null && contains(found, o));
          expect(want.outcomes.some(matches), `${want.collection} ${uid}: ${JSON.stringify(found)} is none of ${JSON.stringify(want.outcomes)}`).toBe(true);
        }
        for (const d of inFlightDeletes) {
          const statuses = [(await old.get(path("identities", d.identity))).status, (await old.get(path("roleBindings", d.binding))).status];
          expect([
            [200, 200],
            [404, 404],
          ]).toContainEqual(statuses);
        }
        // Nothing appeared that no one wrote: every worker group listed is one a write created.
        const listed = ok(await old.get(path("groups"), { "uidp.children_of": organization, page_size: 200 }));
        for (const grp of listed.groups as { uid: string; name: string }[]) expect(grp.name).toMatch(/^w\d+-\d+$/);
        // And it takes writes again.
        ok(await old.post(path("groups", organization), { name: "after-crash" }));
      } finally {
        await stop(second);
      }
    },
    120_000,
  );

  it("drops a journal record torn by a crash whole, and appends cleanly after it", async () => {
    const dir = freshDir();
    const first = await launch(dir);
    const { organization, token } = first.start;
    const api = apiFor(first.start.url, token);
    const g = await mkGroup(api, organization, "kept");
    const id = await mkIdentity(api, g.uid, "torn");
    const b1 = await bind(api, g.uid, id.uid, role.viewer);
    const b2 = await bind(api, g.uid, id.uid, role.editor);
    // The last record: the identity and both its bindings removed, in one transaction.
    ok(await api.del(path("identities", id.uid)));
    await crash(first);

    const journal = join(
      dir,
      readdirSync(dir).find((f) => f.startsWith("journal-"))!,
    );
    const { starts, length } = journalRecords(journal);
    const last = starts[starts.length - 1];
    // Torn: only part of the record reached the disk.
    truncateSync(journal, last + Math.floor((length - last) / 2));

    const second = await launch(dir, ["--port", portOf(first.start.url)]);
    const again = apiFor(second.start.url, token);
    // Never half-applied: the identity and both bindings are all still there.
    expect(ok(await again.get(path("identities", id.uid))).name).toBe("torn");
    ok(await again.get(path("roleBindings", b1.uid)));
    ok(await again.get(path("roleBindings", b2.uid)));
    expect(statSync(journal).size).toBe(last);
    const g2 = await mkGroup(again, organization, "after-torn");
    await stop(second);

    // A complete record whose bytes changed fails its checksum: dropped as well.
    const { starts: s2, length: l2 } = journalRecords(journal);
    const bytes = readFileSync(journal);
    const at = s2[s2.length - 1] + 8 + Math.floor((l2 - s2[s2.length - 1] - 8) / 2);
    bytes[at] ^= 0x20;
    writeFileSync(journal, bytes);
    const third = await launch(dir, ["--port", portOf(first.start.url)]);
    try {
      const api3 = apiFor(third.start.url, token);
      expectError(await api3.get(path("groups", g2.uid)), "NOT_FOUND");
      ok(await api3.get(path("groups", g.uid)));
      ok(await api3.get(path("identities", id.uid)));
    } finally {
      await stop(third);
    }
  }, 60_000);

  it("answers UNAVAILABLE to a write the disk refuses, applies none of it, and loses no acknowledged write", async () => {
    const dir = freshDir();
    const fixtures = join(dir, "..", "fixtures.json");
    writeFileSync(fixtures, "{}");
    // Files may grow to 48 KiB: the first snapshot fits, the journal fills up.
    const first = await launch(dir, ["--fixtures", fixtures], { fileSizeKiB: 48 });
    const { organization, token, url } = first.start;
    const api = apiFor(url, token);
    const acked: string[] = [];
    let refused: ApiResponse | undefined;
    for (let i = 0; i < 2000 && !refused; i++) {
      const res = await api.post(path("groups", organization), { name: `grp-${i}`, description: "x".repeat(200) });
      if (res.status === 200) acked.push(res.body.uid);
      else refused = res;
    }
    expect(acked.length).toBeGreaterThan(10);
    const body = expectError(refused!, "UNAVAILABLE");
    expect(body.message).toContain("EFBIG");
    expect(refused!.headers.get("retry-after")).toBe("1");
    const listed = async (a: Api) => ok(await a.get(path("groups"), { "uidp.children_of": organization, page_size: 200 })).totalCount;
    // Not applied: the listing holds exactly the acknowledged groups, reads keep working.
    expect(Number(await listed(api))).toBe(acked.length);
    expectError(await api.patch(path("groups", acked[0]), { description: "y".repeat(300) }), "UNAVAILABLE");
    expect(ok(await api.get(path("groups", acked[0]))).description).toBe("x".repeat(200));
    await crash(first);

    const second = await launch(dir, ["--port", portOf(url)]);
    try {
      const again = apiFor(second.start.url, token);
      expect(Number(await listed(again))).toBe(acked.length);
      for (const uid of acked) ok(await again.get(path("groups", uid)));
      ok(await again.post(path("groups", organization), { name: "room-again" }));
    } finally {
      await stop(second);
    }
  }, 60_000);

  it("refuses a second server on a directory in use", async () => {
    const dir = freshDir();
    const first = await launch(dir);
    try {
      await expect(launch(dir)).rejects.toThrow(new RegExp(`data directory ${dir} is in use by another irv-server \\(process ${first.child.pid} on host `));
    } finally {
      await stop(first);
    }
    // A clean stop releases it.
    await stop(await launch(dir));
  }, 30_000);

  it("refuses a second server in another PID namespace, which cannot see the first's pid; once the first is killed, takes over with every acknowledged write", async () => {
    const dir = freshDir();
    const first = await launch(dir);
    const api = apiFor(first.start.url, first.start.token);
    const acked: string[] = [];
    for (let i = 0; i < 20; i++) acked.push((await mkGroup(api, first.start.organization, `before-${i}`)).uid);
    // A new PID namespace (as a second container on the same volume has), where the first
    // server's pid does not exist: a pid in a file would let it in.
    const elsewhere = {
      wrap: ["unshare", ...(process.getuid?.() === 0 ? [] : ["--user", "--map-root-user"]), "--pid", "--fork", "--mount-proc", "--kill-child=SIGTERM"],
    };
    await expect(launch(dir, [], elsewhere)).rejects.toThrow(
      new RegExp(`exited 2: irv-server: data directory ${dir} is in use by another irv-server \\(process ${first.child.pid} on host `),
    );
    // Still the only one: it keeps taking writes, all of them acknowledged.
    for (let i = 0; i < 20; i++) acked.push((await mkGroup(api, first.start.organization, `after-${i}`)).uid);
    await crash(first);
    // The lock went with the process.
    const second = await launch(dir, ["--port", portOf(first.start.url)], elsewhere);
    try {
      const again = apiFor(second.start.url, first.start.token);
      for (const uid of acked) ok(await again.get(path("groups", uid)));
    } finally {
      await stop(second);
    }
  }, 60_000);

  it("refuses to start on a journal damaged before its last record, changing nothing, and starts from the records before the damage only when told to, keeping the damaged journal", async () => {
    const dir = freshDir();
    const first = await launch(dir);
    const { organization, token, url } = first.start;
    const api = apiFor(url, token);
    const groups: string[] = [];
    for (let i = 0; i < 13; i++) groups.push((await mkGroup(api, organization, `acked-${i}`)).uid);
    await crash(first);

    const name = readdirSync(dir).find((f) => f.startsWith("journal-"))!;
    const journal = join(dir, name);
    const { starts } = journalRecords(journal);
    expect(starts).toHaveLength(13);
    // Record 6 of 13 damaged in turn in its length, its checksum and its payload: 7
    // acknowledged writes follow it.
    for (const at of [starts[5], starts[5] + 4, starts[5] + 8 + 20]) {
      const bytes = readFileSync(journal);
      const damaged = Buffer.from(bytes);
      damaged[at] ^= 0x20;
      writeFileSync(journal, damaged);
      const refused = launch(dir, ["--port", portOf(url)]);
      await expect(refused).rejects.toThrow(
        new RegExp(`exited 2: irv-server: ${journal} is damaged at byte ${starts[5]}, in record 6: 7 whole records follow it`),
      );
      await expect(refused).rejects.toThrow(/--recover-journal/);
      // Not a byte changed.
      expect(readFileSync(journal).equals(damaged)).toBe(true);
      writeFileSync(journal, bytes);
    }

    // Told to recover: the 5 records before the damage, and the damaged journal kept as it was.
    const bytes = readFileSync(journal);
    bytes[starts[5] + 8 + 20] ^= 0x20;
    writeFileSync(journal, bytes);
    const second = await launch(dir, ["--port", portOf(url), "--recover-journal"]);
    try {
      expect(second.stderr()).toMatch(/started from the 5 records before the damage, as asked; the damaged journal is kept as journal-\d+\.log\.damaged-/);
      const again = apiFor(second.start.url, token);
      for (const uid of groups.slice(0, 5)) ok(await again.get(path("groups", uid)));
      for (const uid of groups.slice(5)) expectError(await again.get(path("groups", uid)), "NOT_FOUND");
      ok(await again.post(path("groups", organization), { name: "after-recovery" }));
    } finally {
      await stop(second);
    }
    const kept = readdirSync(dir).filter((f) => f.startsWith(`${name}.damaged-`));
    expect(kept).toHaveLength(1);
    expect(readFileSync(join(dir, kept[0])).equals(bytes)).toBe(true);
    // And the next start needs no flag.
    await stop(await launch(dir, ["--port", portOf(url)]));
  }, 60_000);
});
