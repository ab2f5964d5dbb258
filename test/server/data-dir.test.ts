/**
 * `irv-server --data-dir` (a process on a Node with node:sqlite, which its lock needs): a restart
 * keeps what a stack points at (organization, uids, signing key, page tokens); compaction keeps the
 * data; a journal that can no longer be written refuses writes instead of acknowledging them.
 */
import { readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { groupRecord } from "../../server/model/groups";
import { Store } from "../../server/store";
import { DataDir } from "../../server/store/data-dir";
import type { JournalIo } from "../../server/store/journal";
import { apiFor, path } from "../support/server";
import { ensureBuilt, launch, portOf, stop, useDataDirs } from "../support/server-process";
import { bind, mkGroup, mkIdentity, ok, role, wireCaps } from "../support/server-helpers";

beforeAll(() => ensureBuilt(), 180_000);

/**
 * Waits until `url` answers: a fetch right after a server on the same port closed may pick a
 * pooled keep-alive socket that the old server has just closed. Retrying a GET on that is what
 * any client does.
 */
async function reachable(url: string): Promise<void> {
  for (let i = 0; ; i++) {
    try {
      await fetch(`${url}/auth/.well-known/jwks.json`);
      return;
    } catch (e) {
      if (i === 20) throw e;
    }
  }
}

const freshDir = useDataDirs("irv-datadir-");

describe("startServer({ dataDir })", () => {
  it("brings a stack's resources back after a restart: same organization, uids, keys and page tokens", async () => {
    const dataDir = freshDir();
    const first = await launch(dataDir, ["--organization-name", "stack-org"]);
    const api = apiFor(first.start.url, first.start.token);
    const org = first.start.organization;
    const eng = await mkGroup(api, org, "engineering", "eng");
    const ops = await mkGroup(api, org, "operations");
    const ci = await mkIdentity(api, eng.uid, "ci-bot");
    const b = await bind(api, eng.uid, ci.uid, role.editor);
    const custom = ok(await api.post(path("roles", eng.uid), { name: "deployer", capabilities: wireCaps(["repo.list"]) }));
    ok(await api.patch(path("groups", ops.uid), { description: "renamed" }));
    const page1 = ok(await api.get(path("groups"), { "uidp.children_of": org, page_size: 1, order_by: "name" }));
    const jwks = ok(await apiFor(first.start.authUrl, null).get("/.well-known/jwks.json"));
    await stop(first);

    // Options for a new organization do not apply to a directory that holds one.
    const second = await launch(dataDir, ["--port", portOf(first.start.url), "--organization-name", "other-org"]);
    try {
      await reachable(second.start.url);
      expect(second.start.organization).toBe(org);
      expect(second.start.url).toBe(first.start.url);
      // The token signed before the restart still verifies: the signing key was kept.
      const old = apiFor(second.start.url, first.start.token);
      expect(ok(await old.get(path("groups", org))).name).toBe("stack-org");
      expect(ok(await old.get(path("groups", eng.uid)))).toEqual(eng);
      expect(ok(await old.get(path("groups", ops.uid))).description).toBe("renamed");
      expect(ok(await old.get(path("identities", ci.uid)))).toEqual(ci);
      expect(ok(await old.get(path("roleBindings", b.uid)))).toEqual(b);
      expect(ok(await old.get(path("roles", custom.uid)))).toEqual(custom);
      expect(ok(await apiFor(second.start.authUrl, null).get("/.well-known/jwks.json"))).toEqual(jwks);
      const page2 = ok(await old.get(path("groups"), { "uidp.children_of": org, page_size: 1, order_by: "name", page_token: page1.nextPageToken }));
      expect(page2.groups.map((g: { name: string }) => g.name)).toEqual(["operations"]);
      ok(await apiFor(second.start.url, second.start.token).get(path("groups", org)));
    } finally {
      await stop(second);
    }
  });

  it("compacts the journal into a snapshot and recovers the same data from it", async () => {
    const dataDir = freshDir();
    // Compact after every write: each one starts a new generation.
    const first = await launch(dataDir, ["--compact-after", "1"]);
    const api = apiFor(first.start.url, first.start.token);
    const org = first.start.organization;
    const made: string[] = [];
    for (let i = 0; i < 12; i++) {
      const g = await mkGroup(api, org, `compacted-${i}`);
      made.push(g.uid);
      if (i % 3 === 0) ok(await api.patch(path("groups", g.uid), { description: `d${i}` }));
      if (i % 4 === 0) ok(await api.del(path("groups", g.uid)));
    }
    const before = ok(await api.get(path("groups"), { "uidp.descendants_of": org, page_size: 200 }));
    await stop(first);
    const files = readdirSync(dataDir).sort();
    const journals = files.filter((f) => f.startsWith("journal-"));
    expect(journals).toHaveLength(1);
    expect(Number(/journal-(\d+)/.exec(journals[0])![1])).toBeGreaterThan(10);
    expect(files.filter((f) => f.endsWith(".tmp"))).toEqual([]);
    // It holds the signing key: only the owner may read any of it.
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    for (const f of files) expect([f, statSync(join(dataDir, f)).mode & 0o777]).toEqual([f, 0o600]);

    const second = await launch(dataDir);
    try {
      const after = ok(await apiFor(second.start.url, second.start.token).get(path("groups"), { "uidp.descendants_of": org, page_size: 200 }));
      expect(after.groups).toEqual(before.groups);
      expect(after.groups).toHaveLength(1 + 12 - 3);
    } finally {
      await stop(second);
    }
  });

  it("refuses every write once a failed append cannot be cut back out of the journal, leaving memory as it was", async () => {
    const dataDir = freshDir();
    let failNext = false;
    const io: JournalIo = {
      write: (_fd, _buf, _pos) => {
        if (failNext) throw Object.assign(new Error("i/o error"), { code: "EIO" });
      },
      sync: () => {},
      truncate: () => {
        if (failNext) throw Object.assign(new Error("i/o error"), { code: "EIO" });
      },
    };
    const store = new Store();
    const root = groupRecord({ uid: "0123456789abcdef0123456789abcdef01234567", name: "acme", description: "", createTime: "t", updateTime: "t" });
    const { dataDir: dd } = await DataDir.open(
      dataDir,
      store,
      async () => {
        store.groups.insert(root);
        return {
          organization: root.uid,
          adminUid: `${root.uid}/0000000000000001`,
          signingKey: { kty: "EC", crv: "P-256", x: "x", y: "y", d: "d", kid: "k" },
          pageSecret: "cw==",
        };
        // The journal alone: the directory's lock (node:sqlite, which this Node may lack) is the process tests'.
      },
      { journalIo: io, failure: (e) => new Error(`refused: ${e.code ?? e.message}`), lock: () => ({ release: () => {} }) },
    );
    try {
      const child = { ...root, uid: `${root.uid}/00000000000000aa`, name: "child" };
      store.transaction(() => store.groups.insert(child));
      failNext = true;
      const other = { ...root, uid: `${root.uid}/00000000000000bb`, name: "other" };
      expect(() =>
        store.transaction(() => {
          store.groups.replace({ ...child, description: "changed" });
          store.groups.insert(other);
        }),
      ).toThrow("refused: EIO");
      // Undone: neither write of the failed transaction is visible.
      expect(store.groups.get(child.uid)!.description).toBe("");
      expect(store.groups.has(other.uid)).toBe(false);
      // The file may hold part of the failed record: no later write is acknowledged after it.
      failNext = false;
      expect(() => store.transaction(() => store.groups.insert(other))).toThrow(/refused: .*earlier failure/);
      expect(store.groups.has(other.uid)).toBe(false);
      // A write outside any transaction goes through the same commit.
      expect(() => store.groups.remove(child.uid)).toThrow(/refused/);
      expect(store.groups.has(child.uid)).toBe(true);
    } finally {
      dd.close();
    }
  });

  it("recovers from a crash in the middle of a compaction: the stale next journal and temporary snapshot are ignored and removed", async () => {
    const dataDir = freshDir();
    const first = await launch(dataDir);
    const api = apiFor(first.start.url, first.start.token);
    const g = await mkGroup(api, first.start.organization, "before-compaction");
    await stop(first);
    // What a compaction leaves when it dies before renaming its snapshot into place.
    writeFileSync(join(dataDir, "journal-1.log"), "half a journal");
    writeFileSync(join(dataDir, "snapshot.json.tmp"), '{"format":"irv-server-snapshot/1","gen');
    const second = await launch(dataDir);
    try {
      expect(ok(await apiFor(second.start.url, second.start.token).get(path("groups", g.uid))).name).toBe("before-compaction");
      expect(readdirSync(dataDir).sort()).toEqual(["journal-0.log", "lock.db", "snapshot.json", "state.json"]);
    } finally {
      await stop(second);
    }
  });

  it("refuses to start on a damaged data file, naming it, and leaves the directory free", async () => {
    const dataDir = freshDir();
    await stop(await launch(dataDir));
    writeFileSync(join(dataDir, "snapshot.json"), '{"format":');
    await expect(launch(dataDir)).rejects.toThrow(/exited 2: irv-server: .*snapshot\.json is not a valid irv-server data file/);
    writeFileSync(join(dataDir, "state.json"), JSON.stringify({ format: "irv-server-state/1", organization: "x" }));
    await expect(launch(dataDir)).rejects.toThrow(/exited 2: irv-server: .*state\.json is not a valid irv-server data file/);
  });

  it("undoes every write of a transaction whose function throws, indexes included", () => {
    const store = new Store();
    const b = { uid: "0123456789abcdef0123456789abcdef01234567/00000000000000aa", identityUid: "i1", roleUid: "r", createTime: "t" };
    store.putBinding(b);
    expect(() =>
      store.transaction(() => {
        store.putBinding({ ...b, identityUid: "i2" });
        store.removeBinding(b.uid);
        throw new Error("validation failed half-way");
      }),
    ).toThrow("half-way");
    expect(store.roleBindings.get(b.uid)).toEqual(b);
    expect(store.bindingsOf("i1")).toEqual([b]);
    expect(store.bindingsOf("i2")).toEqual([]);
  });
});
