import type { Dispatcher } from "undici";
import { z } from "zod";
import { COLLECTIONS, PAGE_SIZE_MAX, type CollectionName } from "../api/collections";
import { definitionOfCollection, maskPathOf, repos, singletonPath, snakeOf, withoutNulls } from "../api/kinds";
import type { TokenSource } from "./token-source";
import {
  ApiError,
  CancelledError,
  DeadlineExceededError,
  NotTheApiError,
  ResponseShapeError,
  TransportError,
  UnauthenticatedError,
  WrongAnswerError,
} from "./errors";
import { readCapped } from "./body";
import { PageTokens } from "./paging";
import { retryFunction } from "./retry";
import type { WaitReport } from "./waits";
import { packageVersionMetadata, type PackageVersionMetadata } from "../api/versions";
import { lookedUpIdentity, SHAPES, envelopeOf, textPart, type Item, type LookedUpIdentity } from "./shapes";
import { dispatcherFor } from "./transport";

/** How long one call may take, retries included, unless the caller gives a deadline. */
export const DEFAULT_CALL_BUDGET_MS = 120_000;

/** The call budget: `IRV_CALL_BUDGET_MS` when set to a positive number, else the default. */
export function callBudgetMs(env: NodeJS.ProcessEnv = process.env): number {
  const v = Number(env.IRV_CALL_BUDGET_MS);
  return Number.isFinite(v) && v > 0 ? v : DEFAULT_CALL_BUDGET_MS;
}

/** Per-call options. */
export interface CallOptions {
  /** Absolute time (ms) by which the call, retries included, must finish. */
  deadline?: number;
  /** Extra HTTP statuses to retry (e.g. 403 during permission propagation). */
  retryStatuses?: number[];
  /** Hears each wait before a retry, in one sentence (the resource plugin shows it as a status line). */
  report?: WaitReport;
  /** Aborts the call, its retries and waits (the engine's Cancel): it fails with a CancelledError. */
  signal?: AbortSignal;
}

/** Query of a List: filters by name, `uidp.*` scope filters, ordering and paging. */
export interface ListQuery {
  /** Collection filters (`name`, `identity`, `keyId`, ...) and scope filters (`uidp.children_of`, ...). */
  [filter: string]: string | number | boolean | string[] | undefined;
  /** `order_by`, e.g. `name desc`. */
  orderBy?: string;
  /** `page_size`; the client uses the maximum, 200, unless told. */
  pageSize?: number;
  /** `skip`: results to skip before the first page. */
  skip?: number;
}

/** One page of a List. */
export interface Page<C extends CollectionName> {
  items: Item<C>[];
  nextPageToken: string | undefined;
  totalCount: number;
  skipped: number;
}

/**
 * A typed client of the v2beta1 API over one keep-alive pool per origin. Responses are checked
 * with the loose shapes of api/resources.ts; errors become ApiError subclasses; 429/503 and (for
 * idempotent calls) connection errors are retried with backoff by undici's retry interceptor.
 */
export class IrvClient {
  readonly apiUrl: string;
  readonly #origin: string;
  readonly #base: string;
  readonly #tokens: TokenSource;
  readonly #dispatcher: Dispatcher;
  #writesStarted = 0;
  #writesEnded = 0;

  constructor(apiUrl: string, tokens: TokenSource) {
    const u = new URL(apiUrl);
    this.apiUrl = apiUrl.replace(/\/+$/, "");
    this.#origin = u.origin;
    this.#base = u.pathname.replace(/\/+$/, "");
    this.#tokens = tokens;
    this.#dispatcher = dispatcherFor(u.origin);
  }

  /** True when requests go without a token (no credentials: public registry reads only). */
  get anonymous(): boolean {
    return this.#tokens.anonymous === true;
  }

  /**
   * The writes (every request but GET) this client has started and finished so far. A reader that
   * keeps what it listed (provider/resources/reads.ts) compares them to know whether a write of
   * its own may have changed what it holds since.
   */
  get writes(): { started: number; ended: number } {
    return { started: this.#writesStarted, ended: this.#writesEnded };
  }

  /** GET one resource by uid; an answer about another uid is a WrongAnswerError. */
  async get<C extends CollectionName>(c: C, uid: string, o: CallOptions = {}): Promise<Item<C>> {
    const path = itemPath(c, uid);
    return sameUid(`GET ${path}`, uid, this.#parse(c, await this.send("GET", path, { ...o })));
  }

  /**
   * POST a new resource under `parentUid` (a singleton's: at its owner's path). Not retried on a
   * lost response: see `createRecovering` in the provider, which looks the resource up first.
   */
  async create<C extends CollectionName>(c: C, parentUid: string, body: object, o: CallOptions = {}): Promise<Item<C>> {
    return this.#parse(c, await this.send("POST", itemPath(c, parentUid), { ...o, body }));
  }

  /**
   * PATCH `uid` with an explicit `updateMask`: exactly `mask`, given as wire (JSON) paths and sent
   * as the proto field names the API reads (`claimMatch` goes as `claim_match`); idempotent, so
   * retried. A singleton (a repo's deployment) is PUT whole instead: `body` is all of it.
   */
  async update<C extends CollectionName>(c: C, uid: string, body: object, mask: string[], o: CallOptions = {}): Promise<Item<C>> {
    if (mask.length === 0) throw new Error("update called with an empty mask");
    const path = itemPath(c, uid);
    if (singletonOf(c)) return sameUid(`PUT ${path}`, uid, this.#parse(c, await this.send("PUT", path, { ...o, body })));
    const updateMask = mask.map((p) => maskPathOf(c, p)).join(",");
    const answer = this.#parse(c, await this.send("PATCH", path, { ...o, body, query: { updateMask } }));
    return sameUid(`PATCH ${path}`, uid, answer);
  }

  /** DELETE `uid`; a singleton, which the API cannot delete, is cleared (PUT with its `cleared` body). */
  async delete(c: CollectionName, uid: string, o: CallOptions = {}): Promise<void> {
    const s = singletonOf(c);
    await this.send(s ? "PUT" : "DELETE", itemPath(c, uid), { ...o, ...(s && { body: { ...s.cleared } }) });
  }

  /** The README of repo `uid` (GetRepoReadme): its Markdown, `""` when it has none. */
  async repoReadme(uid: string, o: CallOptions = {}): Promise<string> {
    const { suffix, member } = repos.fields.readme.part;
    return this.partText("repos", uid, suffix, member, o);
  }

  /**
   * The text of part `suffix` of item `uid`, kept apart from the item (a repo's `readme`, as its
   * field's `part` says): its member `member`, `""` when unset.
   */
  async partText(c: CollectionName, uid: string, suffix: string, member: string, o: CallOptions = {}): Promise<string> {
    const path = partPath(c, uid, suffix);
    return (checkShape(textPart(member), await this.send("GET", path, { ...o }), `GET ${path}`) as Record<string, string>)[member];
  }

  /** Sets part `suffix` of item `uid` to `text`, its member `member` named by the mask (so `""` clears it): the text it now holds. */
  async setPartText(c: CollectionName, uid: string, suffix: string, member: string, text: string, o: CallOptions = {}): Promise<string> {
    const path = partPath(c, uid, suffix);
    const answer = await this.send("PATCH", path, { ...o, body: { [member]: text }, query: { updateMask: snakeOf(member) } });
    return (checkShape(textPart(member), answer, `PATCH ${path}`) as Record<string, string>)[member];
  }

  /** The version streams of package `name` (registry v1 GetPackageVersionMetadata). */
  async packageVersions(name: string, o: CallOptions = {}): Promise<PackageVersionMetadata> {
    const path = `/registry/v1/versions/${name.split("/").map(encodeURIComponent).join("/")}`;
    return checkShape(packageVersionMetadata(), await this.send("GET", path, { ...o }), `GET ${path}`);
  }

  /**
   * The identity that signs in with `issuer` and `subject`, as the platform's lookup finds it (v1
   * `Identities.Lookup`, which the Terraform provider's `chainguard_identity` calls): a person, or
   * a workload identity whose claimMatch names exactly both. NotFoundError when there is none:
   * v2beta1's LookupIdentity answers a person who never signed in with the uid they will have,
   * so it cannot say whether one exists.
   */
  async lookupIdentity(issuer: string, subject: string, o: CallOptions = {}): Promise<LookedUpIdentity> {
    const path = `${COLLECTIONS.identities.path.replace("/v2beta1/", "/v1/")}/lookup`;
    return checkShape(lookedUpIdentity(), await this.send("GET", path, { ...o, query: { issuer, subject } }), `GET ${path}`);
  }

  /** One page of a List. */
  async page<C extends CollectionName>(c: C, q: ListQuery = {}, pageToken?: string, o: CallOptions = {}): Promise<Page<C>> {
    if (singletonOf(c)) throw new Error(`${c} cannot be listed: the API has no List of them, only a Get of each`);
    const { orderBy, pageSize, skip, ...filters } = q;
    const query: Record<string, unknown> = { ...filters, page_size: pageSize ?? PAGE_SIZE_MAX };
    if (orderBy) query.order_by = orderBy;
    if (skip) query.skip = skip;
    if (pageToken) query.page_token = pageToken;
    const raw = await this.send("GET", COLLECTIONS[c].path, { ...o, query });
    const env = checkShape(envelopeOf(c), raw, `GET ${COLLECTIONS[c].path}`);
    return { items: env[c], nextPageToken: env.nextPageToken || undefined, totalCount: Number(env.totalCount), skipped: env.skipped };
  }

  /**
   * Every page of a List, following nextPageToken until it is empty. A token the server sent
   * before, or more pages than any listing has (`MAX_PAGES`), is a WrongAnswerError.
   */
  async *pages<C extends CollectionName>(c: C, q: ListQuery = {}, o: CallOptions = {}): AsyncIterable<Page<C>> {
    const tokens = new PageTokens(`GET ${COLLECTIONS[c].path}`);
    let token: string | undefined;
    let query = q;
    do {
      const p = await this.page(c, query, token, o);
      yield p;
      token = tokens.next(p.nextPageToken);
      // `skip` applies once, to the first page; the token carries the position after that.
      if (query.skip) query = { ...query, skip: undefined };
    } while (token);
  }

  /** Every item of a List, page after page (see `pages`). */
  async *list<C extends CollectionName>(c: C, q: ListQuery = {}, o: CallOptions = {}): AsyncIterable<Item<C>> {
    for await (const p of this.pages(c, q, o)) yield* p.items;
  }

  /** All items of a List in one array (built on `list`). */
  async collect<C extends CollectionName>(c: C, q: ListQuery = {}, o: CallOptions = {}): Promise<Item<C>[]> {
    const out: Item<C>[] = [];
    for await (const item of this.list(c, q, o)) out.push(item);
    return out;
  }

  /**
   * Sends one request and returns the parsed JSON body (undefined when empty). Non-2xx answers
   * throw ApiError subclasses; a lost response throws TransportError; a spent budget throws
   * DeadlineExceededError. A 401 with a cached exchanged token is retried once with a fresh one.
   */
  async send(method: string, path: string, o: CallOptions & { body?: object; query?: Record<string, unknown> } = {}): Promise<unknown> {
    if (method === "GET") return this.#send(method, path, o);
    this.#writesStarted++;
    try {
      return await this.#send(method, path, o);
    } finally {
      this.#writesEnded++;
    }
  }

  async #send(method: string, path: string, o: CallOptions & { body?: object; query?: Record<string, unknown> }): Promise<unknown> {
    const start = Date.now();
    const deadline = o.deadline ?? start + callBudgetMs();
    const request = `${method} ${path}`;
    const search = toSearch(o.query);
    const report = o.report;
    const onWait =
      report &&
      ((ms: number, why: string) =>
        report(
          `${request}: ${why} from ${this.apiUrl}; trying again in ${Math.ceil(ms / 1000)} s (${Math.max(0, Math.round((deadline - Date.now()) / 1000))} s left of the operation's budget)`,
        ));
    for (let authAttempt = 0; ; authAttempt++) {
      if (o.signal?.aborted) throw new CancelledError(request);
      // Getting a token (an exchange, a token file) counts against the call's deadline too.
      const token = await beforeDeadline(this.#tokens.token(), deadline, () => new DeadlineExceededError(request, deadline - start));
      const remaining = deadline - Date.now();
      if (o.signal?.aborted) throw new CancelledError(request);
      if (remaining <= 0) throw new DeadlineExceededError(request, deadline - start);
      const signal = o.signal ? AbortSignal.any([AbortSignal.timeout(remaining), o.signal]) : AbortSignal.timeout(remaining);
      /** The error for an aborted request: cancelled by the caller, or out of time. */
      const stopped = () => (o.signal?.aborted ? new CancelledError(request) : new DeadlineExceededError(request, deadline - start));
      let res: Dispatcher.ResponseData;
      try {
        res = await this.#dispatcher.request({
          origin: this.#origin,
          path: this.#base + path + search,
          method: method,
          headers: {
            // An empty token is an anonymous request (public registry reads): no header at all.
            ...(token ? { authorization: `Bearer ${token}` } : {}),
            accept: "application/json",
            ...(o.body ? { "content-type": "application/json" } : {}),
          },
          body: o.body ? JSON.stringify(o.body) : undefined,
          signal,
          retryOptions: {
            retry: retryFunction({
              deadline,
              // PATCH always carries an explicit updateMask here, so repeating it is harmless.
              idempotent: method !== "POST",
              extraStatuses: o.retryStatuses,
              onWait,
            }),
          },
        } as Dispatcher.RequestOptions);
      } catch (e) {
        if (signal.aborted) throw stopped();
        throw new TransportError(request, e, this.apiUrl);
      }
      let text: string;
      try {
        text = await readCapped(res, request, this.apiUrl);
      } catch (e) {
        if (!(e instanceof TransportError)) throw e;
        // The connection died mid-body: the request may have been applied, the answer is lost.
        if (signal.aborted) throw stopped();
        throw e;
      }
      const body = text ? parseJson(text) : undefined;
      // A gateway's own 429/502/503/504 page still means "try later": keep those as the status says.
      if (!GATEWAY_STATUSES.includes(res.statusCode) && (body === NOT_JSON || (res.statusCode >= 300 && !isStatus(body))))
        throw new NotTheApiError(request, this.apiUrl, res.statusCode);
      if (body === NOT_JSON) throw ApiError.fromStatus(res.statusCode, undefined, request);
      // A Status with a non-zero code is an error whatever the HTTP status says (`{code: 7}` is no empty list).
      if (res.statusCode < 300 && !(isStatus(body) && (body as { code: number }).code !== 0)) return body;
      const err = ApiError.fromStatus(res.statusCode, body, request);
      // An exchanged token the server refuses may have been revoked or skewed: exchange again once.
      if (err instanceof UnauthenticatedError && authAttempt === 0 && this.#tokens.invalidate) {
        this.#tokens.invalidate(token);
        continue;
      }
      if (err instanceof UnauthenticatedError && this.#tokens.refused) throw this.#tokens.refused(err);
      throw err;
    }
  }

  #parse<C extends CollectionName>(c: C, raw: unknown): Item<C> {
    // A kind whose uid field is named otherwise (a deployment's `id`) reads as every item: by `uid`.
    const uidName = definitionOfCollection(c)?.proto.uidName;
    const item = uidName && raw && typeof raw === "object" ? { ...raw, uid: (raw as Record<string, unknown>)[uidName] } : raw;
    return checkShape(SHAPES[c] as z.ZodType, item, `${c} response`) as Item<C>;
  }
}

/** The singleton facet of collection `c`'s kind (a repo's deployment: api/kinds/definition.ts), if any. */
const singletonOf = (c: CollectionName) => definitionOfCollection(c)?.singleton;

/** The path of item `uid` of `c` (for a create, of its parent): `<collection>/<uid>`, or a singleton's `<owner path>/<uid>/<suffix>`. */
function itemPath(c: CollectionName, uid: string): string {
  const s = singletonOf(c);
  return s ? singletonPath(s, uid) : `${COLLECTIONS[c].path}/${uid}`;
}

/** The path of part `suffix` of item `uid` of `c` (a repo's README: `<item path>/readme`). */
const partPath = (c: CollectionName, uid: string, suffix: string): string => `${itemPath(c, uid)}/${suffix}`;

/** `p`, or the error of `late()` once `deadline` passes first. */
async function beforeDeadline<T>(p: Promise<T>, deadline: number, late: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(late()), Math.max(0, deadline - Date.now()))));
  try {
    return await Promise.race([p, expired]);
  } finally {
    clearTimeout(timer);
  }
}

/** `item`, when it is the one `uid` names; else a WrongAnswerError (a wrong uid must never reach state). */
function sameUid<T extends { uid: string }>(request: string, uid: string, item: T): T {
  if (item.uid !== uid) throw new WrongAnswerError(request, `the API answered with ${JSON.stringify(item.uid)} instead of ${uid}`);
  return item;
}

function checkShape<T>(schema: z.ZodType<T>, raw: unknown, what: string): T {
  const r = schema.safeParse(withoutNulls(raw));
  if (!r.success) throw new ResponseShapeError(what, r.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "));
  return r.data;
}

function toSearch(query: Record<string, unknown> | undefined): string {
  if (!query) return "";
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined || v === null || v === "") continue;
    if (Array.isArray(v)) for (const x of v) p.append(k, String(x));
    else p.append(k, String(v));
  }
  const s = p.toString();
  return s ? `?${s}` : "";
}

/** Statuses a proxy in front of the API answers with a page of its own. */
const GATEWAY_STATUSES = [429, 502, 503, 504];

/** What parseJson returns for a body that is not JSON. */
const NOT_JSON = Symbol("not JSON");

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return NOT_JSON;
  }
}

/** Whether an error body is the API's Status (`{code, message}`), as every API error is. */
function isStatus(body: unknown): boolean {
  return typeof body === "object" && body !== null && typeof (body as { code?: unknown }).code === "number";
}
