/**
 * The data directory behind `--data-dir`: what makes a store survive a restart or a crash.
 *
 *   state.json          organization, admin identity, signing key (private JWK), page-token key:
 *                       written once, atomically, when the directory is first used
 *   snapshot.json       the whole store as of generation g (written atomically)
 *   journal-<g>.log     every transaction committed since that snapshot (journal.ts)
 *   lock.db             the lock the server holds while it uses the directory (lock.ts)
 *
 * Start: load the snapshot, replay its journal, cut off a torn tail; a journal damaged anywhere
 * else stops the start (journal.ts), unless told to recover from it, which keeps the damaged
 * file as it is. Every committed transaction
 * is one journal record, flushed before the transaction returns. When the journal outgrows the
 * snapshot, a new snapshot is written and a fresh journal started (compaction), so start-up time
 * stays proportional to the data, not to its history.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { z } from "zod";
import { syncDir, writeFileAtomic, writeFlushed } from "./files";
import { secureDataDir } from "./permissions";
import { Journal, JournalDamaged, JournalError, type JournalEntry, type JournalIo, type ReplayResult } from "./journal";
import { lockDataDir, sqlite, type DirLock } from "./lock";
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
  /**
   * Start from the records before a damaged one in the middle of the journal, instead of
   * refusing to start; the damaged journal is kept, renamed, byte for byte.
   */
  recoverJournal?: boolean;
  /** Takes the directory's lock (default: the operating system's, lock.ts; tests of the journal alone pass another). */
  lock?: (dir: string) => DirLock;
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
/** The pid file an older irv-server locked the directory with: removed, it locks nothing. */
const OLD_LOCK = "lock";
const journalName = (generation: number) => `journal-${generation}.log`;
const JOURNAL_FILE = /^journal-(\d+)\.log$/;

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
    private lock: DirLock,
  ) {}

  /**
   * Opens `dir` for `store` (which must be empty). A new directory is initialized by `init`,
   * which fills the store and returns the state to keep; an existing one is recovered.
   */
  static async open(dir: string, store: Store, init: () => Promise<Omit<DurableState, "format">>, opts: DataDirOptions = {}): Promise<Opened> {
    const root = resolve(dir);
    // Nothing is made where no lock can be held.
    if (!opts.lock) sqlite();
    mkdirSync(root, { recursive: true, mode: 0o700 });
    secureDataDir(root, opts.warn ?? (() => undefined));
    const lock = (opts.lock ?? lockDataDir)(root);
    try {
      rmSync(join(root, OLD_LOCK), { force: true });
      const opened = existsSync(join(root, STATE)) ? recover(root, store, opts, lock) : await initialize(root, store, init, opts, lock);
      // A long journal is folded into a snapshot now, so the next start is quick too.
      if (opened.dataDir.compactionDue()) opened.dataDir.compact();
      store.setCommitter((changes) => opened.dataDir.commit(changes));
      return opened;
    } catch (e) {
      lock.release();
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
    this.lock.release();
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
async function initialize(dir: string, store: Store, init: () => Promise<Omit<DurableState, "format">>, opts: DataDirOptions, lock: DirLock): Promise<Opened> {
  const state: DurableState = { format: "irv-server-state/1", ...(await init()) };
  const snapshot = dumpSnapshot(store, 0);
  const journal = Journal.create(join(dir, journalName(0)), opts.journalIo);
  writeFileAtomic(join(dir, SNAPSHOT), snapshot);
  // state.json marks the directory as initialized: a crash before it starts over from scratch.
  writeFileAtomic(join(dir, STATE), JSON.stringify(state));
  return { dataDir: new DataDir(dir, store, journal, 0, snapshot.length, opts, lock), state };
}

/** An existing directory: load the snapshot, replay its journal, clear what a crash left behind. */
function recover(dir: string, store: Store, opts: DataDirOptions, lock: DirLock): Opened {
  const state = readJson(join(dir, STATE), (v) => DurableState.parse(v));
  const text = readFileSync(join(dir, SNAPSHOT), "utf8");
  const generation = readJson(join(dir, SNAPSHOT), (doc) => loadSnapshot(store, doc), text);
  const name = journalName(generation);
  const path = join(dir, name);
  if (!existsSync(path)) {
    opts.warn?.(`${name} is missing: starting it empty`);
    Journal.create(path, opts.journalIo).close();
  }
  const apply = (entries: JournalEntry[]) => {
    for (const e of entries) store.restore(e.kind, e.uid, e.value);
  };
  let opened: { journal: Journal; replay: ReplayResult };
  let kept: string | undefined;
  try {
    opened = Journal.open(path, apply, opts.journalIo);
  } catch (e) {
    if (!(e instanceof JournalDamaged)) throw e;
    if (!opts.recoverJournal) throw new Error(`${path} ${e.message}. ${RECOVERY}`);
    // The evidence stays as it is, under another name; the store holds the records before the
    // damage (replayed above), and continues in a fresh journal of the next generation once it
    // is folded into a snapshot below.
    kept = `${name}.damaged-${new Date().toISOString().replace(/[:.]/g, "-")}`;
    renameSync(path, join(dir, kept));
    syncDir(dir);
    opts.warn?.(`${name} ${e.message}; started from the ${e.before} records before the damage, as asked; the damaged journal is kept as ${kept}`);
    Journal.create(path, opts.journalIo).close();
    opened = Journal.open(path, apply, opts.journalIo);
  }
  const { journal, replay } = opened;
  if (replay.droppedBytes > 0) opts.warn?.(`dropped a torn record at the end of ${name} (${replay.droppedBytes} bytes, never acknowledged)`);
  for (const f of readdirSync(dir)) {
    const m = JOURNAL_FILE.exec(f);
    if ((m && Number(m[1]) !== generation) || f.endsWith(".tmp")) rmSync(join(dir, f), { force: true });
  }
  const dataDir = new DataDir(dir, store, journal, generation, text.length, opts, lock);
  // What was recovered becomes the next snapshot at once: nothing of it depends on the kept file.
  if (kept) dataDir.compact();
  return { dataDir, state, replay };
}

/** How to start again after a damaged journal stopped the start. */
const RECOVERY =
  "The server did not start and changed nothing. To start from the records before the damage " +
  "(losing the writes the damaged record and those after it hold), keeping the damaged journal " +
  "byte for byte under a new name, start it once with --recover-journal";

function readJson<T>(path: string, parse: (value: unknown) => T, text?: string): T {
  try {
    return parse(JSON.parse(text ?? readFileSync(path, "utf8")));
  } catch (e) {
    throw new Error(`${path} is not a valid irv-server data file: ${(e as Error).message}`);
  }
}
