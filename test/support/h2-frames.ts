/**
 * HTTP/2 frames written by hand (RFC 9113), for a client that misbehaves where node:http2 will
 * not let it: one that never reads its socket. Headers are HPACK literals without indexing or
 * Huffman coding (RFC 7541 6.2.2), which every decoder must take.
 */

/** What every HTTP/2 client sends first. */
export const PREFACE = Buffer.from("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", "latin1");

const TYPE = { DATA: 0x0, HEADERS: 0x1, SETTINGS: 0x4, WINDOW_UPDATE: 0x8 } as const;
const END_STREAM = 0x1;
const END_HEADERS = 0x4;

/** One frame: 9-byte header, then the payload. */
function frame(type: number, flags: number, stream: number, payload: Buffer): Buffer {
  const h = Buffer.alloc(9);
  h.writeUIntBE(payload.length, 0, 3);
  h.writeUInt8(type, 3);
  h.writeUInt8(flags, 4);
  h.writeUInt32BE(stream & 0x7fffffff, 5);
  return Buffer.concat([h, payload]);
}

/** An HPACK integer with an `n`-bit prefix (RFC 7541 5.1). */
function hpackInt(value: number, n: number): Buffer {
  const max = (1 << n) - 1;
  if (value < max) return Buffer.from([value]);
  const out = [max];
  for (value -= max; value >= 128; value >>= 7) out.push((value & 0x7f) | 0x80);
  out.push(value);
  return Buffer.from(out);
}

const hpackString = (s: string) => {
  const b = Buffer.from(s, "utf8");
  return Buffer.concat([hpackInt(b.length, 7), b]);
};

/** SETTINGS: each entry an identifier (1..6) and its value. */
export function settings(entries: [number, number][] = []): Buffer {
  const p = Buffer.alloc(6 * entries.length);
  entries.forEach(([id, v], i) => (p.writeUInt16BE(id, 6 * i), p.writeUInt32BE(v, 6 * i + 2)));
  return frame(TYPE.SETTINGS, 0, 0, p);
}

/** SETTINGS_INITIAL_WINDOW_SIZE. */
export const INITIAL_WINDOW_SIZE = 0x4;

/** WINDOW_UPDATE of `increment` bytes on `stream` (0: the connection). */
export function windowUpdate(stream: number, increment: number): Buffer {
  const p = Buffer.alloc(4);
  p.writeUInt32BE(increment, 0);
  return frame(TYPE.WINDOW_UPDATE, 0, stream, p);
}

/** HEADERS with the whole header block (END_HEADERS), pseudo-headers first as given. */
export function headers(stream: number, fields: [string, string][], endStream = false): Buffer {
  const block = Buffer.concat(fields.map(([k, v]) => Buffer.concat([Buffer.from([0]), hpackString(k), hpackString(v)])));
  return frame(TYPE.HEADERS, END_HEADERS | (endStream ? END_STREAM : 0), stream, block);
}

/** DATA, ending the stream when `endStream`. */
export function data(stream: number, payload: Buffer, endStream: boolean): Buffer {
  return frame(TYPE.DATA, endStream ? END_STREAM : 0, stream, payload);
}

/** A gRPC message on the wire: uncompressed flag, 4-byte length, the message. */
export function grpcMessage(message: Uint8Array): Buffer {
  const h = Buffer.alloc(5);
  h.writeUInt32BE(message.length, 1);
  return Buffer.concat([h, message]);
}
