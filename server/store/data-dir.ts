/**
 * The data directory behind `--data-dir`: what makes a store survive a restart or a crash.
 *
 *   state.json          organization, admin identity, signing key (private JWK), page-token key:
 *                       written once, atomically, when the directory is first used
 *   snapshot.json       the whole store as of generation g (written atomically)
 *   journal-<g>.log     every transaction committed since that snapshot (journal.ts)
 *   lock                the pid of the server using the directory
 *
 * Start: load the snapshot, replay its journal, cut off a torn tail. Every committed transaction
 * is one journal record, flushed before the transaction returns. When the journal outgrows the
 * snapshot, a new snapshot is written and a fresh journal started (compaction), so start-up time
 * stays proportional to the data, not to its history.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { z } from "zod";
import { syncDir, writeFileAtomic, writeFlushed } from "./files";
import { secureDataDir } from "./permissions";
import { Journal, JournalError, type JournalIo, type ReplayResult } from "./journal";
import { dumpSnapshot, loadSnapshot } from "./snapshot";
import type { Change, Store } from "./store";

/** The server's token signing key: a private ES256 JWK. */
export const SigningKey = z.object({ kty: z.literal("EC"), crv: z.literal("P-256"), x: z.string(), y: z.string(), d: z.string(), kid: z.string() });

/** What a data directory keeps besides the store. */
const DurableState = z.object({
  format: z.literal("irv-server-state/1"),
  organization: z.string().min(1),
  adminUid: z.string().min(1),
  signingKey: SigningKey,
  /** base64 HMAC key of page tokens. */
  pageSecret: z.string().min(1),
});
export type DurableState = z.infer<typeof DurableState>;

/** Options of `DataDir.open`. */
export interface DataDirOptions {
  /** Compact when the journal grows past this many bytes. Default: max(8 MiB, the last snapshot's size). */
  compactAfterBytes?: number;
  /** Turns a failed journal append into the error the caller sees. */
  failure?: (e: JournalError) => Error;
  /** Where notices go (a torn tail cut off, a compaction that failed). */
  warn?: (message: string) => void;
  /** File operations of the journal (tests inject failures). */
  journalIo?: JournalIo;
}

/** What opening found. */
export interface Opened {
  dataDir: DataDir;
  state: DurableState;
  /** Set when an existing directory was recovered. */
  replay?: ReplayResult;
}

const DEFAULT_COMPACT_AFTER = 8 * 1024 * 1024;
const STATE = "state.json";
const SNAPSHOT = "snapshot.json";
const LOCK = "lock";
const journalName = (generation: number) => `journal-${generation}.log`;
const JOURNAL_FILE = /^journal-(\d+)\.log$/;

/** Directories this process has open: a second server on one directory would corrupt it. */
const openHere = new Set<string>();

/** A store's data directory, attached as the store's committer. */
export class DataDir {
  private compacting = false;
  private closed = false;
  /** Journal size when a compaction last failed: the next try waits until it has doubled. */
  private failedAt = 0;

  /** Use `DataDir.open`. */
  constructor(
    private dir: string,
    private store: Store,
    private journal: Journal,
    private generation: number,
    private snapshotBytes: number,
    private opts: DataDirOptions,
  ) {}

  /**
   * Opens `dir` for `store` (which must be empty). A new directory is initialized by `init`,
   * which fills the store and returns the state to keep; an existing one is recovered.
   */
  static async open(dir: string, store: Store, init: () => Promise<Omit<DurableState, "format">>, opts: DataDirOptions = {}): Promise<Opened> {
    const root = resolve(dir);
    mkdirSync(root, { recursive: true, mode: 0o700 });
    secureDataDir(root, opts.warn ?? (() => undefined));
    takeLock(root);
    try {
      const opened = existsSync(join(root, STATE)) ? recover(root, store, opts) : await initialize(root, store, init, opts);
      // A long journal is folded into a snapshot now, so the next start is quick too.
      if (opened.dataDir.compactionDue()) opened.dataDir.compact();
      store.setCommitter((changes) => opened.dataDir.commit(changes));
      return opened;
    } catch (e) {
      releaseLock(root);
      throw e;
    }
  }

  /** Bytes in the current journal. */
  get journalBytes(): number {
    return this.journal.bytes;
  }

  /** Writes a snapshot of the store and starts a fresh journal. */
  compact(): void {
    const next = this.generation + 1;
    const snapshot = dumpSnapshot(this.store, next);
    // The next journal exists before the snapshot that names it, so a crash at any point leaves
    // a snapshot whose journal is on disk; a journal of another generation is stale and removed.
    const journal = Journal.create(join(this.dir, journalName(next)), this.opts.journalIo);
    try {
      renameSync(writeFlushed(join(this.dir, `${SNAPSHOT}.tmp`), snapshot), join(this.dir, SNAPSHOT));
    } catch (e) {
      journal.close();
      rmSync(join(this.dir, journalName(next)), { force: true });
      throw e;
    }
    // Renamed: from here on the store continues in the new journal.
    this.journal.close();
    this.journal = journal;
    const old = this.generation;
    this.generation = next;
    this.snapshotBytes = snapshot.length;
    syncDir(this.dir);
    rmSync(join(this.dir, journalName(old)), { force: true });
  }

  /** Detaches from the store and releases the directory. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.store.setCommitter(undefined);
    this.journal.close();
    releaseLock(this.dir);
  }

  private commit(changes: readonly Change[]): void {
    if (this.closed) throw this.failed(new JournalError("the data directory is closed", undefined));
    try {
      this.journal.append(changes);
    } catch (e) {
      throw e instanceof JournalError ? this.failed(e) : e;
    }
    if (!this.compacting && this.compactionDue()) {
      this.compacting = true;
      // After the answer, between requests: the store is quiescent, the snapshot consistent.
      setImmediate(() => {
        this.compacting = false;
        if (this.closed) return;
        try {
          this.compact();
          this.failedAt = 0;
        } catch (e) {
          this.failedAt = this.journal.bytes;
          this.opts.warn?.(`compaction failed, the journal keeps growing: ${(e as Error).message}`);
        }
      });
    }
  }

  /** True when the journal has outgrown its limit. */
  compactionDue(): boolean {
    const limit = this.opts.compactAfterBytes ?? Math.max(DEFAULT_COMPACT_AFTER, this.snapshotBytes);
    return this.journal.bytes > Math.max(limit, 2 * this.failedAt);
  }

  private failed(e: JournalError): Error {
    return this.opts.failure?.(e) ?? e;
  }
}

/** A new directory: fill the store, write the snapshot and its journal, then the state last. */
async function initialize(dir: string, store: Store, init: () => Promise<Omit<DurableState, "format">>, opts: DataDirOptions): Promise<Opened> {
  const state: DurableState = { format: "irv-server-state/1", ...(await init()) };
  const snapshot = dumpSnapshot(store, 0);
  const journal = Journal.create(join(dir, journalName(0)), opts.journalIo);
  writeFileAtomic(join(dir, SNAPSHOT), snapshot);
  // state.json marks the directory as initialized: a crash before it starts over from scratch.
  writeFileAtomic(join(dir, STATE), JSON.stringify(state));
  return { dataDir: new DataDir(dir, store, journal, 0, snapshot.length, opts), state };
}

/** An existing directory: load the snapshot, replay its journal, clear what a crash left behind. */
function recover(dir: string, store: Store, opts: DataDirOptions): Opened {
  const state = readJson(join(dir, STATE), (v) => DurableState.parse(v));
  const text = readFileSync(join(dir, SNAPSHOT), "utf8");
  const generation = readJson(join(dir, SNAPSHOT), (doc) => loadSnapshot(store, doc), text);
  const path = join(dir, journalName(generation));
  if (!existsSync(path)) {
    opts.warn?.(`${journalName(generation)} is missing: starting it empty`);
    Journal.create(path, opts.journalIo).close();
  }
  const { journal, replay } = Journal.open(path, (entries) => {
    for (const e of entries) store.restore(e.kind, e.uid, e.value);
  }, opts.journalIo);
  if (replay.droppedBytes > 0)
    opts.warn?.(`dropped a torn record at the end of ${journalName(generation)} (${replay.droppedBytes} bytes, never acknowledged)`);
  for (const f of readdirSync(dir)) {
    const m = JOURNAL_FILE.exec(f);
    if ((m && Number(m[1]) !== generation) || f.endsWith(".tmp")) rmSync(join(dir, f), { force: true });
  }
  const dataDir = new DataDir(dir, store, journal, generation, text.length, opts);
  return { dataDir, state, replay };
}

function readJson<T>(path: string, parse: (value: unknown) => T, text?: string): T {
  try {
    return parse(JSON.parse(text ?? readFileSync(path, "utf8")));
  } catch (e) {
    throw new Error(`${path} is not a valid irv-server data file: ${(e as Error).message}`);
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Claims `dir` for this process; a lock left by a process that is gone (a crash) is taken over. */
function takeLock(dir: string): void {
  if (openHere.has(dir)) throw new Error(`data directory ${dir} is already in use by this process`);
  const path = join(dir, LOCK);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(path, `${process.pid}\n`, { flag: "wx", mode: 0o600 });
      openHere.add(dir);
      return;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    }
    const pid = Number(readFileSync(path, "utf8").trim());
    if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid))
      throw new Error(`data directory ${dir} is in use by process ${pid}`);
    rmSync(path, { force: true });
  }
  throw new Error(`could not lock data directory ${dir}`);
}

function releaseLock(dir: string): void {
  openHere.delete(dir);
  rmSync(join(dir, LOCK), { force: true });
}
