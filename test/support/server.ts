/**
 * Test helpers around a live irv-server on 127.0.0.1 (port 0), for everyone's tests.
 *
 *   const ctx = useServer();                      // starts one in beforeAll, closes it in afterAll
 *   const res = await ctx.api.post(`${COLLECTIONS.groups.path}/${ctx.server.organization}`, { name: "eng" });
 *   expect(res.status).toBe(200);
 *   const viewer = ctx.api.as(await ctx.server.issueToken(someIdentityUid));
 *   const all = await listAll(ctx.api, "groups", { "uidp.descendants_of": org });
 *
 * `api` is a tiny wrapper over global fetch: it never throws on an HTTP error; it returns the
 * status, headers and parsed JSON body (or the raw text when the body is not JSON).
 */
import { afterAll, beforeAll } from "vitest";
import { startServer, type RunningServer, type ServerOptions } from "../../server";
import { COLLECTIONS, type CollectionName } from "../../api";

/** Query values; arrays repeat the parameter, undefined drops it. */
export type Query = Record<string, string | number | boolean | string[] | undefined>;

/** One HTTP answer. */
export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  /** Parsed JSON, or undefined for an empty body. */
  body: T;
  /** The raw body text. */
  text: string;
}

/** Options of one request. */
export interface RequestOptions {
  query?: Query;
  /** JSON body (serialized with content-type application/json). */
  body?: unknown;
  /** A raw body sent as is (with `headers` to set its content type). */
  rawBody?: string;
  headers?: Record<string, string>;
  /** Bearer token for this request; null sends no Authorization header. */
  token?: string | null;
}

/** A small client bound to a base URL and a bearer token. */
export interface Api {
  readonly url: string;
  readonly token: string | null;
  request<T = any>(method: string, path: string, opts?: RequestOptions): Promise<ApiResponse<T>>;
  get<T = any>(path: string, query?: Query): Promise<ApiResponse<T>>;
  post<T = any>(path: string, body?: unknown): Promise<ApiResponse<T>>;
  patch<T = any>(path: string, body: unknown, query?: Query): Promise<ApiResponse<T>>;
  put<T = any>(path: string, body: unknown): Promise<ApiResponse<T>>;
  del<T = any>(path: string): Promise<ApiResponse<T>>;
  /** The same client with another token (null: anonymous). */
  as(token: string | null): Api;
}

/** Builds `base + path + ?query`: `path` is appended to the base's own path (so `apiFor(authUrl)`
 *  takes `/sts/exchange`). Uids contain `/`, which stays as is. */
export function buildUrl(base: string, path: string, query?: Query): string {
  const u = new URL(base);
  u.pathname = `${u.pathname.replace(/\/+$/, "")}${path.startsWith("/") ? path : `/${path}`}`;
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v === undefined) continue;
    for (const one of Array.isArray(v) ? v : [v]) u.searchParams.append(k, String(one));
  }
  return u.toString();
}

/** A client for `url` (an irv-server's `url`, or its `authUrl` for `/sts/exchange`) sending `token`. */
export function apiFor(url: string, token: string | null): Api {
  const request = async <T>(method: string, path: string, opts: RequestOptions = {}): Promise<ApiResponse<T>> => {
    const headers: Record<string, string> = { ...opts.headers };
    const tok = opts.token === undefined ? token : opts.token;
    if (tok) headers.authorization = `Bearer ${tok}`;
    let body: string | undefined = opts.rawBody;
    if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers["content-type"] ??= "application/json";
    }
    const res = await fetch(buildUrl(url, path, opts.query), { method, headers, body });
    const text = await res.text();
    let parsed: any;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = text;
    }
    return { status: res.status, headers: res.headers, body: parsed, text };
  };
  return {
    url,
    token,
    request,
    get: (path, query) => request("GET", path, { query }),
    post: (path, body) => request("POST", path, { body: body ?? {} }),
    patch: (path, body, query) => request("PATCH", path, { body, query }),
    put: (path, body) => request("PUT", path, { body }),
    del: (path) => request("DELETE", path),
    as: (t) => apiFor(url, t),
  };
}

/** A started server and an admin client for it. */
export interface TestServer {
  server: RunningServer;
  /** Client authenticated as the organization's owner (the start-line token). */
  api: Api;
  close(): Promise<void>;
}

/** Starts an irv-server on 127.0.0.1:0 (no logging unless asked) with an admin client. */
export async function startTestServer(opts: ServerOptions = {}): Promise<TestServer> {
  const server = await startServer({ port: 0, host: "127.0.0.1", ...opts });
  return { server, api: apiFor(server.url, server.token), close: () => server.close() };
}

/**
 * Starts one server for the enclosing describe/file (beforeAll) and closes it (afterAll).
 * Read `ctx.server` / `ctx.api` inside tests, not at collection time.
 */
export function useServer(opts: ServerOptions = {}): TestServer {
  let started: TestServer | undefined;
  const ctx = {
    get server() {
      if (!started) throw new Error("useServer: server not started yet (use it inside a test)");
      return started.server;
    },
    get api() {
      if (!started) throw new Error("useServer: server not started yet (use it inside a test)");
      return started.api;
    },
    close: async () => started?.close(),
  };
  beforeAll(async () => {
    started = await startTestServer(opts);
  });
  afterAll(async () => {
    await started?.close();
  });
  return ctx;
}

/** The path of a collection, or of one uid in it: `path("groups", uid)`. */
export function path(collection: CollectionName, uid?: string): string {
  return uid ? `${COLLECTIONS[collection].path}/${uid}` : COLLECTIONS[collection].path;
}

/** Follows `nextPageToken` to the end and returns every item (throws on an error status). */
export async function listAll<T = any>(api: Api, collection: CollectionName, query: Query = {}): Promise<T[]> {
  const items: T[] = [];
  let pageToken: string | undefined;
  for (;;) {
    const res = await api.get(path(collection), { ...query, page_token: pageToken });
    if (res.status !== 200) throw new Error(`list ${collection}: HTTP ${res.status}: ${res.text}`);
    items.push(...(res.body[collection] ?? []));
    pageToken = res.body.nextPageToken || undefined;
    if (!pageToken) return items;
  }
}
