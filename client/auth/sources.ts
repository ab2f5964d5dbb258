import { constants } from "node:fs";
import { open, stat } from "node:fs/promises";
import { readCapped } from "../body";
import { secureUrl } from "../config";
import { STS_EXCHANGE_PATH } from "../../api/collections";
import { dispatcherFor } from "../transport";
import { retryFunction } from "../retry";
import { ApiError, TransportError } from "../errors";
import type { TokenSource } from "../token-source";

export type { TokenSource };

/** A fixed token (`irv:token` / `IRV_TOKEN`). */
export class StaticTokenSource implements TokenSource {
  readonly describe = "irv:token";
  readonly #token: string;
  constructor(token: string) {
    this.#token = token;
  }
  async token(): Promise<string> {
    return this.#token;
  }
  /** The API refused the token: say which setting holds it (never the token). */
  refused(err: ApiError): Error {
    return withHint(err, "the API refused the token in irv:token (IRV_TOKEN): check that it is a token of this API (irv:apiUrl) that has not expired");
  }
}

/** `err` (an UNAUTHENTICATED answer) with `hint` after its message, of the same class, code and details. */
export function withHint(err: ApiError, hint: string): ApiError {
  const Class = err.constructor as new (...a: ConstructorParameters<typeof ApiError>) => ApiError;
  return new Class(err.status, err.code, `${err.apiMessage}; ${hint}`, err.details, err.request);
}

/** Refresh when less than this is left on the cached token. */
export const REFRESH_MARGIN_MS = 60_000;

/** Options of an STS exchange. */
export interface ExchangeOptions {
  /** The token issuer's base URL; the exchange is `${authUrl}/sts/exchange`. */
  authUrl: string;
  /** The API audience (the API base URL). */
  audience: string;
  /** The identity uid to assume. */
  identity: string;
  /** An external OIDC token, or the path of a file holding one (re-read on every exchange). */
  identityToken: string;
  /** Clock, for tests. */
  now?: () => number;
}

/**
 * Exchanges an external OIDC token for an API token of `identity` (STS), caches it, and exchanges
 * again when less than a minute is left, so applies longer than the token's hour keep working.
 * Concurrent callers share one in-flight exchange.
 */
export class ExchangeTokenSource implements TokenSource {
  readonly describe = "irv:identity + irv:identityToken";
  readonly #opts: ExchangeOptions;
  #cached: { token: string; expiresAt: number } | undefined;
  #inflight: Promise<string> | undefined;
  /** How many exchanges ran (for tests and diagnostics). */
  exchanges = 0;

  constructor(opts: ExchangeOptions) {
    // The external token is a bearer credential too: never in the clear to another host.
    secureUrl(opts.authUrl, "authUrl");
    this.#opts = opts;
  }

  async token(): Promise<string> {
    const now = (this.#opts.now ?? Date.now)();
    if (this.#cached && this.#cached.expiresAt - now > REFRESH_MARGIN_MS) return this.#cached.token;
    this.#inflight ??= this.#exchange().finally(() => (this.#inflight = undefined));
    return this.#inflight;
  }

  invalidate(refused?: string): void {
    // Concurrent requests refused with the same old token must not each throw away the fresh
    // token the first of them already exchanged for.
    if (refused === undefined || this.#cached?.token === refused) this.#cached = undefined;
  }

  async #exchange(): Promise<string> {
    const external = await externalToken(this.#opts.identityToken);
    const url = new URL(this.#opts.authUrl.replace(/\/+$/, "") + STS_EXCHANGE_PATH);
    url.searchParams.set("aud", this.#opts.audience);
    url.searchParams.set("identity", this.#opts.identity);
    const request = `GET ${url.pathname}`;
    let res;
    try {
      res = await dispatcherFor(url.origin).request({
        origin: url.origin,
        path: url.pathname + url.search,
        method: "GET",
        headers: { authorization: `Bearer ${external}`, accept: "application/json" },
        signal: AbortSignal.timeout(60_000),
        retryOptions: { retry: retryFunction({ deadline: Date.now() + 60_000, idempotent: true }) },
      } as Parameters<ReturnType<typeof dispatcherFor>["request"]>[0]);
    } catch (e) {
      throw new TransportError(request, e, url.origin, "irv:authUrl (IRV_AUTH_URL), default <irv:apiUrl>/auth");
    }
    const body = parseJson(await readCapped(res, request, url.origin, MAX_ISSUER_ANSWER_BYTES));
    if (res.statusCode >= 300) {
      const err = ApiError.fromStatus(res.statusCode, body, `token exchange for identity ${this.#opts.identity} (${request})`);
      throw err;
    }
    const token = (body as { token?: unknown } | undefined)?.token;
    if (typeof token !== "string" || !token) throw new Error(`${request}: the token issuer's reply has no token`);
    // It goes into an Authorization header: printable ASCII only, never a line break.
    if (!/^[\x21-\x7e]+$/.test(token)) throw new Error(`${request}: the token issuer's reply holds no usable token`);
    this.exchanges++;
    this.#cached = { token, expiresAt: expiryOf(token) };
    return token;
  }
}

/** The expiry (ms) of a JWT from its `exp`; tokens without one are treated as an hour long. */
export function expiryOf(token: string): number {
  try {
    // jose on first use, not at the resource plugin's start-up (see transport.ts).
    const { exp } = (require("jose") as typeof import("jose")).decodeJwt(token);
    if (typeof exp === "number") return exp * 1000;
  } catch {
    /* not a JWT: fall through */
  }
  return Date.now() + 3600_000;
}

const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

/** The most of the token issuer's answer read: one token, in far less than this. */
export const MAX_ISSUER_ANSWER_BYTES = 1024 * 1024;

/** The largest identity token file read: OIDC tokens are a few kilobytes. */
export const MAX_TOKEN_FILE_BYTES = 64 * 1024;

const NOT_A_TOKEN = "irv:identityToken (IRV_IDENTITY_TOKEN) is neither a JWT nor a readable file holding one";

/**
 * The external token: the setting itself when it looks like a JWT, otherwise the contents of the
 * file it names. Read on each exchange because CI token files rotate. Only a regular file of at
 * most MAX_TOKEN_FILE_BYTES is read (a FIFO would wait for a writer forever, `/dev/zero` never
 * ends), opened without blocking, and only content shaped like a JWT is sent: a file holding
 * anything else (a personal access token, say) goes nowhere. The setting and the file's content
 * are never echoed.
 */
export async function externalToken(setting: string): Promise<string> {
  const trimmed = setting.trim();
  if (JWT_SHAPE.test(trimmed)) return trimmed;
  const failed = (why: string) => new Error(`${NOT_A_TOKEN} (${why})`);
  const code = (e: unknown) => (e as NodeJS.ErrnoException).code ?? "unreadable";
  const before = await stat(trimmed).catch((e: unknown) => {
    throw failed(code(e));
  });
  if (!before.isFile()) throw failed("not a regular file");
  if (before.size > MAX_TOKEN_FILE_BYTES) throw failed(`larger than ${MAX_TOKEN_FILE_BYTES / 1024} KiB`);
  // O_NONBLOCK: should the path have become a FIFO since, opening it does not wait for a writer.
  const file = await open(trimmed, constants.O_RDONLY | constants.O_NONBLOCK).catch((e: unknown) => {
    throw failed(code(e));
  });
  try {
    if (!(await file.stat()).isFile()) throw failed("not a regular file");
    const buf = Buffer.alloc(MAX_TOKEN_FILE_BYTES + 1);
    const { bytesRead } = await file.read(buf, 0, buf.length, 0);
    if (bytesRead > MAX_TOKEN_FILE_BYTES) throw failed(`larger than ${MAX_TOKEN_FILE_BYTES / 1024} KiB`);
    const token = buf.subarray(0, bytesRead).toString("utf8").trim();
    if (!JWT_SHAPE.test(token)) throw failed("the file does not hold a JWT");
    return token;
  } finally {
    await file.close();
  }
}

function parseJson(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
