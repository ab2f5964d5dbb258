/**
 * The write-ahead journal of a data directory: one record per committed transaction, appended
 * and flushed to disk (fdatasync) before the transaction returns. A record is
 *
 *   uint32 LE payload length | uint32 LE CRC-32 of the payload | payload (UTF-8 JSON)
 *
 * and the payload is {"seq": n, "changes": [[kind, uid, value or null], ...]}: each item's whole
 * new value (null: removed), so replaying a record is idempotent. Reading stops at the first
 * record that is short, fails its checksum or breaks the sequence. When no whole record follows
 * it, that is a write torn by a crash, never acknowledged: it is cut off so the next append starts
 * on a clean boundary. When whole records follow it, they were acknowledged after it: the journal
 * is damaged, not torn, and opening it fails (JournalDamaged) without changing the file.
 */
import { closeSync, fdatasyncSync, ftruncateSync, openSync, readFileSync, writeSync } from "node:fs";
import { crc32 } from "node:zlib";
import type { Keyed } from "./collection";
import { COLLECTION_NAMES, type Change, type CollectionName } from "./store";

const HEADER_BYTES = 8;
/** No honest record is this large (request bodies are capped at 1 MiB); a bigger length is garbage. */
const MAX_RECORD_BYTES = 256 * 1024 * 1024;

/** One replayed write: `value` undefined means removed. */
export interface JournalEntry {
  kind: CollectionName;
  uid: string;
  value: Keyed | undefined;
}

/** What opening a journal found. */
export interface ReplayResult {
  records: number;
  /** Bytes of a torn tail cut off (0 when the journal ended cleanly). */
  droppedBytes: number;
}

/** The file operations a journal needs (tests swap in failing ones). */
export interface JournalIo {
  write(fd: number, buf: Buffer, position: number): void;
  sync(fd: number): void;
  truncate(fd: number, length: number): void;
}

const fileIo: JournalIo = {
  write(fd, buf, position) {
    let done = 0;
    while (done < buf.length) done += writeSync(fd, buf, done, buf.length - done, position + done);
  },
  sync: (fd) => fdatasyncSync(fd),
  truncate: (fd, length) => ftruncateSync(fd, length),
};

/** A failed append: the write was not made durable (and nothing of it stays in the file). */
export class JournalError extends Error {
  constructor(
    message: string,
    /** The errno code (ENOSPC, EIO, ...) when there is one. */
    readonly code: string | undefined,
  ) {
    super(message);
  }
}

/** Encodes one record. */
export function encodeRecord(seq: number, changes: readonly Change[]): Buffer {
  const payload = Buffer.from(JSON.stringify({ seq, changes: changes.map((c) => [c.kind, c.uid, c.after ?? null]) }), "utf8");
  const header = Buffer.alloc(HEADER_BYTES);
  header.writeUInt32LE(payload.length, 0);
  header.writeUInt32LE(crc32(payload), 4);
  return Buffer.concat([header, payload]);
}

/** A journal with a bad record that whole records follow: not a torn write. Nothing was changed. */
export class JournalDamaged extends Error {
  constructor(
    /** Whole records before the damage (replayed). */
    readonly before: number,
    /** Byte offset of the damaged record. */
    readonly at: number,
    /** Whole records found after it. */
    readonly after: number,
  ) {
    super(
      `is damaged at byte ${at}, in record ${before + 1}: ${after} whole record${after === 1 ? "" : "s"} follow${after === 1 ? "s" : ""} it, ` +
        "so it is not a write torn by a crash, and those records hold acknowledged writes",
    );
  }
}

/** The start of every record's payload: where a scan for whole records looks. */
const PAYLOAD_START = Buffer.from('{"seq":', "utf8");

/**
 * Whole records after the bad one at `offset` (whose sequence number would have been `seq`):
 * each place the payload's opening text appears is tried as a record, of any later number, then
 * followed by its length. Linear in the bytes after `offset`.
 */
function recordsAfter(buf: Buffer, offset: number, seq: number): number {
  let found = 0;
  let last = seq - 1;
  for (let at = buf.indexOf(PAYLOAD_START, offset + HEADER_BYTES + 1); at >= 0;) {
    const rec = at >= HEADER_BYTES ? decodeRecord(buf, at - HEADER_BYTES, undefined) : undefined;
    if (rec && rec.seq > last) {
      found++;
      last = rec.seq;
      at = buf.indexOf(PAYLOAD_START, rec.end + HEADER_BYTES);
    } else at = buf.indexOf(PAYLOAD_START, at + 1);
  }
  return found;
}

/** Decodes the record at `offset` (numbered `seq`, when given), or undefined when it is torn or invalid. */
function decodeRecord(buf: Buffer, offset: number, seq: number | undefined): { entries: JournalEntry[]; end: number; seq: number } | undefined {
  if (buf.length - offset < HEADER_BYTES) return undefined;
  const length = buf.readUInt32LE(offset);
  const end = offset + HEADER_BYTES + length;
  if (length > MAX_RECORD_BYTES || end > buf.length) return undefined;
  const payload = buf.subarray(offset + HEADER_BYTES, end);
  if (crc32(payload) !== buf.readUInt32LE(offset + 4)) return undefined;
  let parsed: { seq?: unknown; changes?: unknown };
  try {
    parsed = JSON.parse(payload.toString("utf8"));
  } catch {
    return undefined;
  }
  if (typeof parsed.seq !== "number" || (seq !== undefined && parsed.seq !== seq) || !Array.isArray(parsed.changes)) return undefined;
  const entries: JournalEntry[] = [];
  for (const c of parsed.changes as unknown[]) {
    if (!Array.isArray(c) || !COLLECTION_NAMES.includes(c[0]) || typeof c[1] !== "string") return undefined;
    const value = c[2] as Keyed | null;
    if (value !== null && (typeof value !== "object" || value.uid !== c[1])) return undefined;
    entries.push({ kind: c[0] as CollectionName, uid: c[1], value: value ?? undefined });
  }
  return { entries, end, seq: parsed.seq };
}

/** An open journal file. Appends are synchronous: the event loop serializes them. */
export class Journal {
  /** Set when a failed append could not be rolled back in the file: every later append fails. */
  private broken: string | undefined;

  private constructor(
    private fd: number,
    /** Bytes of whole, durable records. */
    private size: number,
    /** Sequence number of the last record. */
    private seq: number,
    private io: JournalIo,
  ) {}

  /** Creates (or empties) the journal at `path`. */
  static create(path: string, io: JournalIo = fileIo): Journal {
    const fd = openSync(path, "w", 0o600);
    io.sync(fd);
    return new Journal(fd, 0, 0, io);
  }

  /**
   * Opens the journal at `path`, hands every whole record to `apply` in order, and cuts off a
   * torn tail. Throws JournalDamaged, leaving the file as it is, when a bad record is followed
   * by whole ones. The file must exist.
   */
  static open(path: string, apply: (entries: JournalEntry[]) => void, io: JournalIo = fileIo): { journal: Journal; replay: ReplayResult } {
    const buf = readFileSync(path);
    let offset = 0;
    let seq = 0;
    for (;;) {
      const rec = decodeRecord(buf, offset, seq + 1);
      if (!rec) break;
      apply(rec.entries);
      offset = rec.end;
      seq++;
    }
    if (offset < buf.length) {
      const after = recordsAfter(buf, offset, seq + 1);
      if (after > 0) throw new JournalDamaged(seq, offset, after);
    }
    const fd = openSync(path, "r+");
    if (offset < buf.length) {
      io.truncate(fd, offset);
      io.sync(fd);
    }
    return { journal: new Journal(fd, offset, seq, io), replay: { records: seq, droppedBytes: buf.length - offset } };
  }

  /** Bytes of whole records in the file. */
  get bytes(): number {
    return this.size;
  }

  /** Records appended since the journal was created. */
  get records(): number {
    return this.seq;
  }

  /** Appends one record and flushes it to disk; throws JournalError and leaves no trace if it cannot. */
  append(changes: readonly Change[]): void {
    if (this.broken) throw new JournalError(`the journal refuses writes since an earlier failure (${this.broken})`, undefined);
    const buf = encodeRecord(this.seq + 1, changes);
    try {
      this.io.write(this.fd, buf, this.size);
      this.io.sync(this.fd);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      this.cutBack(code ?? "unknown error");
      throw new JournalError(`the journal could not be written (${code ?? "unknown error"})`, code);
    }
    this.size += buf.length;
    this.seq++;
  }

  close(): void {
    closeSync(this.fd);
  }

  /** Removes a partly written record so the next append starts on a record boundary. */
  private cutBack(why: string): void {
    try {
      this.io.truncate(this.fd, this.size);
      this.io.sync(this.fd);
    } catch {
      this.broken = why;
    }
  }
}
