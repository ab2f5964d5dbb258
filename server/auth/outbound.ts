/**
 * The only requests this server sends on a caller's behalf: OIDC discovery documents and key sets
 * of issuers an identity trusts. A stranger chooses the token's `iss`, so every fetch is held to
 * what a careful relying party allows: https only; never a private, loopback, link-local or
 * otherwise special address (every address a name resolves to is checked, and the connection is
 * made to exactly the checked addresses, so a second DNS answer cannot swap them); no redirects;
 * a bounded time and body. Whatever goes wrong, the caller learns one thing: the fetch failed.
 * The operator may allow private addresses (and plain http on loopback hosts) for test issuers.
 */
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { BlockList, isIP, type LookupFunction } from "node:net";
import { Agent, request } from "undici";
import { isLoopbackHost } from "../../api/fields";
import { ServerWork } from "../work";

/** The longest a discovery document or key set may be. */
export const FETCH_MAX_BYTES = 64 * 1024;
/** The longest one fetch may take, connection to last byte. */
export const FETCH_TIMEOUT_MS = 5000;

/** Addresses no issuer may live at (RFC 6890 special-purpose ranges, and multicast). */
const SPECIAL = new BlockList();
for (const [net, bits] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const)
  SPECIAL.addSubnet(net, bits, "ipv4");
for (const [net, bits] of [
  ["::", 128],
  ["::1", 128],
  ["64:ff9b::", 96],
  ["64:ff9b:1::", 48],
  ["100::", 64],
  ["2001::", 23],
  ["2001:db8::", 32],
  ["2002::", 16],
  ["fc00::", 7],
  ["fe80::", 10],
  ["fec0::", 10],
  ["ff00::", 8],
] as const)
  SPECIAL.addSubnet(net, bits, "ipv6");

/** True when `address` (an IP literal) is public: neither private, loopback, link-local nor special. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !SPECIAL.check(address, "ipv4");
  if (family !== 6) return false;
  // ::ffff:a.b.c.d and ::a.b.c.d carry an IPv4 address: judge that one.
  const mapped = /^::(?:ffff:)?(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return isPublicAddress(mapped[1]);
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (hex) {
    const [hi, lo] = [parseInt(hex[1], 16), parseInt(hex[2], 16)];
    return isPublicAddress(`${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`);
  }
  return !SPECIAL.check(address, "ipv6");
}

/** Which outbound requests are allowed. */
export interface OutboundPolicy {
  /** May a connection go to this IP address? */
  addressAllowed(address: string): boolean;
  /** May plain http be used for this URL (https always may)? */
  httpAllowed(url: URL): boolean;
}

/** The policy of a production server, or (`allowPrivate`) of one that trusts test issuers. */
export function outboundPolicy(allowPrivate: boolean): OutboundPolicy {
  return {
    addressAllowed: (a) => allowPrivate || isPublicAddress(a),
    httpAllowed: (u) => allowPrivate && isLoopbackHost(u.hostname),
  };
}

/** Why a fetch failed, for the operator's log (never what came back). */
export type FetchFailure = "insecure" | "refused" | "unreachable" | "status" | "too-large" | "not-json" | "timeout";

/**
 * A failed outbound fetch. Its message is the same whatever happened, except for an issuer URL
 * that is not https, which the caller can see in its own token; `kind` is for logs only.
 */
export class OutboundError extends Error {
  constructor(readonly kind: FetchFailure) {
    super(kind === "insecure" ? "the token's issuer must be an https URL" : "the token issuer's keys could not be fetched");
  }
}

/** Names in the special-use top-level domains `example`, `invalid`, `test` and `localhost`. */
const RESERVED_NAME = /(^|\.)(example|invalid|test|localhost)\.?$/i;

/** A hostname IP literal as `net` expects it (`[::1]` -> `::1`). */
const bare = (host: string) => host.replace(/^\[|\]$/g, "");

/**
 * A DNS lookup that resolves every address of a name and fails unless all are allowed; the
 * connection then uses exactly those addresses (no second resolution that could answer otherwise).
 */
export function checkedLookup(policy: OutboundPolicy): LookupFunction {
  return (hostname, options, callback) => {
    // Names under the special-use domains no registry delegates (RFC 2606, 6761) are never asked
    // of a resolver: they name nothing, and examples and tests use them freely.
    if (RESERVED_NAME.test(hostname) && !(hostname === "localhost" && policy.addressAllowed("127.0.0.1")))
      return callback(Object.assign(new Error(`${hostname} is a reserved name`), { code: "ENOTFOUND" }), "", 0);
    dnsLookup(hostname, { all: true, family: options.family, hints: options.hints }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, "", 0);
      if (addresses.length === 0 || addresses.some((a) => !policy.addressAllowed(a.address)))
        return callback(Object.assign(new Error("address not allowed"), { code: "EADDRNOTALLOWED" }), "", 0);
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

/** Drops a response body unread (its abort error heard, so it cannot go uncaught). */
export function discard(body: NodeJS.ReadableStream & { destroy(): void }): void {
  body.on("error", () => {});
  body.destroy();
}

/** Fetches JSON documents under one policy. */
export class OutboundFetcher {
  private agent: Agent;

  constructor(
    readonly policy: OutboundPolicy,
    /** Where the fetches started are counted (the server's; a fetcher of its own counts alone). */
    private readonly work: ServerWork = new ServerWork(),
  ) {
    this.agent = new Agent({
      connect: { lookup: checkedLookup(policy), timeout: FETCH_TIMEOUT_MS },
      headersTimeout: FETCH_TIMEOUT_MS,
      bodyTimeout: FETCH_TIMEOUT_MS,
      connections: 8,
    });
  }

  /** True when `url`'s scheme may be fetched: https, or http where the policy allows it. */
  schemeAllowed(url: string): boolean {
    const u = URL.parse(url);
    return u?.protocol === "https:" || (u?.protocol === "http:" && this.policy.httpAllowed(u));
  }

  /** Why `url` may not be fetched at all (before any connection), or undefined. */
  refusal(url: string): FetchFailure | undefined {
    const u = URL.parse(url);
    if (!u || u.username || u.password || !this.schemeAllowed(url)) return "refused";
    // IP literals (the URL parser has already read decimal, octal and hex spellings) skip DNS.
    const host = bare(u.hostname);
    if (isIP(host) && !this.policy.addressAllowed(host)) return "refused";
    return undefined;
  }

  /** The JSON object at `url`; throws OutboundError for anything else. */
  async json(url: string): Promise<Record<string, unknown>> {
    const refused = this.refusal(url);
    if (refused) throw new OutboundError(refused);
    this.work.exchangeFetches++;
    const signal = AbortSignal.timeout(FETCH_TIMEOUT_MS);
    let text: string;
    try {
      const res = await request(url, { dispatcher: this.agent, signal, headers: { accept: "application/json" } });
      if (res.statusCode !== 200) {
        discard(res.body);
        throw new OutboundError("status");
      }
      const declared = Number(res.headers["content-length"] ?? 0);
      if (declared > FETCH_MAX_BYTES) {
        discard(res.body);
        throw new OutboundError("too-large");
      }
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of res.body as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > FETCH_MAX_BYTES) {
          discard(res.body);
          throw new OutboundError("too-large");
        }
        chunks.push(chunk);
      }
      text = Buffer.concat(chunks).toString("utf8");
    } catch (e) {
      if (e instanceof OutboundError) throw e;
      if (signal.aborted) throw new OutboundError("timeout");
      const code = (e as { code?: string }).code ?? (e as { cause?: { code?: string } }).cause?.code;
      throw new OutboundError(code === "EADDRNOTALLOWED" ? "refused" : "unreachable");
    }
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch {
      throw new OutboundError("not-json");
    }
    if (typeof doc !== "object" || doc === null || Array.isArray(doc)) throw new OutboundError("not-json");
    return doc as Record<string, unknown>;
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}
