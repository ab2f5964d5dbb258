/**
 * Durability benchmark (`--data-dir`):
 * - write throughput and latency over HTTP, memory-only and with a data directory side by side
 *   (rounds interleaved so both see the same machine load; each write is fdatasynced before its
 *   answer with a data directory);
 * - start-up time of a directory whose journal holds 100,000 records (replay), of the same
 *   directory compacted into a snapshot, and of a memory-only server for comparison;
 * - one commit's cost in the journal against SQLite's (node:sqlite, synchronous=FULL) in the
 *   modes it could keep a data directory in: why the data stays in the journal (docs/irv-server.md).
 *
 * A data directory needs node:sqlite (its lock): on a Node without it, the benchmark runs itself
 * on one that has it (harness/node.ts).
 */
import { execFileSync } from "node:child_process";
import { closeSync, fdatasyncSync, ftruncateSync, mkdtempSync, openSync, rmSync, statSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { hasSqlite, nodeWithSqlite } from "../harness/node";
import { startServer, type RunningServer } from "../server";
import { Store } from "../server/store";
import { DataDir } from "../server/store/data-dir";
import { encodeRecord } from "../server/store/journal";
import { sqlite } from "../server/store/lock";
import { groupRecord } from "../server/model/groups";

const WRITES_PER_ROUND = 250;
const ROUNDS = 6;
const CONCURRENCY = 8;
const RECORDS = 100_000;
const EMPTY = { repos: [], advisories: [] };

const medianOf = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (n: number, digits = 0) => n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** `n` group creates and updates against `server`, `CONCURRENCY` at a time; returns [ms, latencies]. */
async function writes(server: RunningServer, n: number, tag: string): Promise<[number, number[]]> {
  const latencies: number[] = [];
  let next = 0;
  const one = async () => {
    for (let i = next++; i < n; i = next++) {
      const t0 = performance.now();
      const res = await fetch(`${server.url}/iam/v2beta1/groups/${server.organization}`, {
        method: "POST",
        headers: { authorization: `Bearer ${server.token}`, "content-type": "application/json" },
        body: JSON.stringify({ name: `${tag}-${i}`, description: "bench" }),
      });
      if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${await res.text()}`);
      await res.arrayBuffer();
      latencies.push(performance.now() - t0);
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, one));
  return [performance.now() - t0, latencies];
}

async function throughput(dir: string): Promise<string[]> {
  const servers = [await startServer({ fixtures: EMPTY }), await startServer({ fixtures: EMPTY, dataDir: join(dir, "throughput") })];
  const ms = [0, 0];
  const lat: number[][] = [[], []];
  try {
    for (let r = 0; r < ROUNDS; r++) {
      for (const k of r % 2 === 0 ? [0, 1] : [1, 0]) {
        const [t, l] = await writes(servers[k], WRITES_PER_ROUND, `r${r}`);
        ms[k] += t;
        lat[k].push(...l);
      }
    }
  } finally {
    for (const s of servers) await s.close();
  }
  const n = WRITES_PER_ROUND * ROUNDS;
  const rate = ms.map((t) => (n / t) * 1000);
  return [
    `Writes (group creates over HTTP, ${CONCURRENCY} concurrent, ${fmt(n)} per server in ${ROUNDS} interleaved rounds):`,
    "",
    "| server | writes/s | median latency |",
    "|---|---|---|",
    `| memory only | ${fmt(rate[0])} | ${fmt(medianOf(lat[0]), 2)} ms |`,
    `| --data-dir (fdatasync per write) | ${fmt(rate[1])} | ${fmt(medianOf(lat[1]), 2)} ms |`,
    "",
    `Data directory / memory: ${fmt(rate[1] / rate[0], 2)}x the throughput.`,
  ];
}

/** A data directory whose journal holds `RECORDS` records: creates, updates and deletes of groups. */
async function longJournal(dir: string): Promise<{ bytes: number; groups: number }> {
  const init = await startServer({ fixtures: EMPTY, dataDir: dir });
  await init.close();
  const store = new Store();
  // Only the file's contents matter here: skip the flushes to build it quickly.
  const { dataDir, state } = await DataDir.open(dir, store, () => Promise.reject(new Error("exists")), {
    compactAfterBytes: Number.POSITIVE_INFINITY,
    journalIo: {
      write: (fd, buf, pos) => void writeSync(fd, buf, 0, buf.length, pos),
      sync: () => {},
      truncate: (fd, len) => ftruncateSync(fd, len),
    },
  });
  const now = new Date().toISOString();
  const uid = (i: number) => `${state.organization}/${i.toString(16).padStart(16, "0")}`;
  let records = 0;
  for (let i = 0; records < RECORDS; i++) {
    const g = groupRecord({ uid: uid(i + 0x100), name: `g-${i}`, description: "", createTime: now, updateTime: now });
    store.transaction(() => store.groups.insert(g));
    records++;
    if (i % 2 === 0 && records < RECORDS) {
      store.transaction(() => store.groups.replace({ ...g, description: "changed", updateTime: now }));
      records++;
    }
    if (i % 5 === 4 && records < RECORDS) {
      store.transaction(() => store.groups.remove(g.uid));
      records++;
    }
  }
  const bytes = dataDir.journalBytes;
  dataDir.close();
  return { bytes, groups: store.groups.size };
}

/** Median ms (of `runs`) from startServer() to listening, closing each server after. */
async function timeStart(opts: Parameters<typeof startServer>[0], runs = 3): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const s = await startServer(opts);
    times.push(performance.now() - t0);
    await s.close();
  }
  return medianOf(times);
}

async function replay(dir: string): Promise<string[]> {
  const data = join(dir, "replay");
  const { bytes, groups } = await longJournal(data);
  await timeStart({ fixtures: EMPTY }, 1); // warm-up: the first start in a process also compiles
  const memMs = await timeStart({ fixtures: EMPTY });
  // An unbounded limit leaves the journal as it is, so every run replays all of it.
  const replayMs = await timeStart({ dataDir: data, compactAfterBytes: Number.POSITIVE_INFINITY });
  const compactMs = await timeStart({ dataDir: data }, 1);
  const snapshotMs = await timeStart({ dataDir: data });
  const snapshotBytes = statSync(join(data, "snapshot.json")).size;
  return [
    `Start-up with a journal of ${fmt(RECORDS)} records (${fmt(bytes / 1048576, 1)} MiB; group creates, updates and deletes, leaving ${fmt(groups)} groups):`,
    "",
    "| start (median of 3, after a warm-up) | time |",
    "|---|---|",
    `| memory only, empty organization (baseline) | ${fmt(memMs)} ms |`,
    `| replay the whole journal | ${fmt(replayMs)} ms |`,
    `| replay, then compact into a snapshot (what a start does when the journal is over its limit; once) | ${fmt(compactMs)} ms |`,
    `| load that snapshot (${fmt(snapshotBytes / 1048576, 1)} MiB), empty journal | ${fmt(snapshotMs)} ms |`,
  ];
}

const COMMITS = 400;

/**
 * Median ms of one durable commit of one group (a record of what a create writes), `COMMITS` in a
 * row: appended to the journal and fdatasynced, or committed to SQLite (synchronous=FULL) in each
 * journal mode. WAL is the fast one, but SQLite's recovery ends the log at the first frame whose
 * checksum fails, dropping every commit after it without a word (measured when this was chosen):
 * the loss the journal now refuses. The modes that keep committed data in the database file
 * (a rollback journal, or WAL folded in after every commit) pay for it in flushes.
 */
function commits(dir: string): string[] {
  const now = new Date().toISOString();
  const group = (i: number) =>
    groupRecord({ uid: `${"a".repeat(40)}/${i.toString(16).padStart(16, "0")}`, name: `group-${i}`, description: "bench", createTime: now, updateTime: now });
  const median = (one: (i: number) => void): number => {
    const times: number[] = [];
    for (let i = 0; i < COMMITS; i++) {
      const t0 = performance.now();
      one(i);
      times.push(performance.now() - t0);
    }
    return medianOf(times);
  };
  const rows: [string, number][] = [];
  const fd = openSync(join(dir, "journal.log"), "w", 0o600);
  let at = 0;
  rows.push([
    "the journal: append, fdatasync (irv-server)",
    median((i) => {
      const rec = encodeRecord(i + 1, [{ kind: "groups", uid: group(i).uid, before: undefined, after: group(i) }]);
      at += writeSync(fd, rec, 0, rec.length, at);
      fdatasyncSync(fd);
    }),
  ]);
  closeSync(fd);
  const DatabaseSync = sqlite();
  for (const [label, pragmas] of [
    ["SQLite, WAL", "journal_mode=WAL"],
    ["SQLite, WAL folded in after every commit", "journal_mode=WAL; PRAGMA wal_autocheckpoint=1"],
    ["SQLite, rollback journal (TRUNCATE)", "journal_mode=TRUNCATE"],
    ["SQLite, rollback journal (DELETE, its default)", "journal_mode=DELETE"],
  ] as const) {
    const db = new DatabaseSync(join(dir, `${label.replace(/\W+/g, "-")}.db`));
    db.exec(
      `PRAGMA locking_mode=EXCLUSIVE; PRAGMA synchronous=FULL; PRAGMA ${pragmas}; CREATE TABLE items (kind TEXT NOT NULL, uid TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (kind, uid)) WITHOUT ROWID`,
    );
    const put = db.prepare("INSERT OR REPLACE INTO items (kind, uid, value) VALUES (?, ?, ?)");
    rows.push([label, median((i) => put.run("groups", group(i).uid, JSON.stringify(group(i))))]);
    db.close();
  }
  return [
    `One durable commit of one group (synchronous=FULL for SQLite; median of ${fmt(COMMITS)} in a row):`,
    "",
    "| storage | median commit |",
    "|---|---|",
    ...rows.map(([label, ms]) => `| ${label} | ${fmt(ms, 2)} ms |`),
  ];
}

/** Runs the durability benchmark and returns its report (markdown). */
export async function runDurabilityBench(): Promise<string> {
  if (!hasSqlite())
    return execFileSync(nodeWithSqlite(), [__filename], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], maxBuffer: 16 << 20 }).trimEnd();
  const dir = mkdtempSync(join(tmpdir(), "irv-bench-durable-"));
  try {
    const lines = ["## Durability", "", `(Node ${process.version})`, "", ...(await throughput(dir)), "", ...(await replay(dir)), "", ...commits(dir)];
    return lines.join("\n");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  runDurabilityBench().then(
    (r) => console.log(r),
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );
}
