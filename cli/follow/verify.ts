/**
 * Verifying one delivery of the platform's events, as the SDK's receiver
 * (`chainguard.dev/sdk/events/receiver`) verifies it, answering each refusal with its status:
 *
 * - not a well-formed CloudEvent (binary mode: `ce-specversion`, `ce-id`, `ce-source`, `ce-type`): 400;
 * - no `Authorization` token: 401;
 * - a token that does not verify against the issuer's keys found by OIDC discovery (signature,
 *   `iss`, `aud` containing `customer`, `exp`, an algorithm the issuer announces): 403;
 * - a subject that is not `webhook:<group>` for the group this receiver serves: 403;
 * - a `webhook.digest` claim that is not `sha256:<hex>` of the body: 403.
 *
 * Beyond the SDK's receiver, which leaves them to the HTTP server: a body over the bound is
 * refused with 413 before it is read, and a token already accepted once is refused with 403, so
 * a delivery captured on the way cannot be played again (the token binds the body's digest, so
 * a new body needs a new token). Tokens are remembered until they expire, at most `maxRemembered`.
 */
import { createHash } from "node:crypto";
import { createRemoteJWKSet, jwtVerify, errors as joseErrors, type JWTVerifyGetKey } from "jose";

/** The audience of every delivery token (the SDK receiver's `oidc.Config{ClientID: "customer"}`). */
export const WEBHOOK_AUDIENCE = "customer";
/** The subject prefix of the platform's webhook component: `webhook:<group uid>`. */
export const WEBHOOK_SUBJECT_PREFIX = "webhook:";
/** The default bound on a delivery's body: an event carries one item. */
export const DEFAULT_MAX_BODY = 1 << 20;
/** The algorithms go-oidc verifies, when the issuer's discovery document announces them. */
const SUPPORTED_ALGS = ["RS256", "RS384", "RS512", "ES256", "ES384", "ES512", "PS256", "PS384", "PS512", "EdDSA"];
/** How large a discovery document may be, and how long its fetch may take. */
const DISCOVERY_MAX_BYTES = 256 * 1024;
const DISCOVERY_TIMEOUT_MS = 10_000;

/** A verified CloudEvent (binary mode). */
export interface VerifiedEvent {
  id: string;
  type: string;
  source: string;
  specversion: string;
  subject?: string;
  time?: string;
  /** The other `ce-*` attributes and extensions, by name (`group`, `bodytype`, ...). */
  extensions: Record<string, string>;
  /** The body, exactly as delivered (its digest is what the token names). */
  data: Buffer;
}

/** What verification found: the event, or the status and reason of the refusal. */
export type Verdict = { ok: true; event: VerifiedEvent; expires: number } | { ok: false; status: number; reason: string };

/** The request headers, as node:http gives them (lower-case names). */
export type Headers = Record<string, string | string[] | undefined>;

/** Options of a verifier. */
export interface VerifierOptions {
  /** The issuer URL, exactly as the tokens' `iss` names it. */
  issuer: string;
  /** The uid of the group whose subscription delivers here. */
  group: string;
  /** How many accepted tokens are remembered against replay (the oldest go first). Default 100 000. */
  maxRemembered?: number;
  /** Keys instead of discovery (tests of the key source only). */
  keys?: JWTVerifyGetKey;
  /** Algorithms instead of discovery's. */
  algorithms?: string[];
}

/** The first value of a header. */
function header(h: Headers, name: string): string | undefined {
  const v = h[name];
  return Array.isArray(v) ? v[0] : v;
}

/** The binary-mode CloudEvent in `headers` and `body`, or why it is not one. */
export function cloudEventOf(headers: Headers, body: Buffer): VerifiedEvent | string {
  const specversion = header(headers, "ce-specversion");
  if (!specversion) return "not a well-formed CloudEvent: no ce-specversion header (only binary mode is read)";
  if (specversion !== "1.0") return `not a well-formed CloudEvent: specversion ${JSON.stringify(specversion).slice(0, 40)} is not 1.0`;
  const extensions: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    if (!k.startsWith("ce-") || v === undefined) continue;
    const name = k.slice(3);
    if (["specversion", "id", "type", "source", "subject", "time"].includes(name)) continue;
    extensions[name] = Array.isArray(v) ? v[0] : v;
  }
  const id = header(headers, "ce-id");
  const type = header(headers, "ce-type");
  const source = header(headers, "ce-source");
  for (const [name, v] of Object.entries({ id, type, source })) if (!v) return `not a well-formed CloudEvent: no ce-${name} header`;
  const subject = header(headers, "ce-subject");
  const time = header(headers, "ce-time");
  return { id: id!, type: type!, source: source!, specversion, ...(subject ? { subject } : {}), ...(time ? { time } : {}), extensions, data: body };
}

/** `sha256:<hex>` of `body`, as the token's `webhook.digest` names it. */
export function digestOf(body: Buffer | string): string {
  return `sha256:${createHash("sha256").update(body).digest("hex")}`;
}

/** The issuer's keys and algorithms, by OIDC discovery as go-oidc finds them (the document must name the same issuer). */
export async function discover(issuer: string): Promise<{ keys: JWTVerifyGetKey; algorithms: string[] }> {
  const { request } = await import("undici");
  const url = `${issuer.replace(/\/+$/, "")}/.well-known/openid-configuration`;
  const res = await request(url, { headersTimeout: DISCOVERY_TIMEOUT_MS, bodyTimeout: DISCOVERY_TIMEOUT_MS, maxRedirections: 0 } as never);
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const c of res.body) {
    size += (c as Buffer).length;
    if (size > DISCOVERY_MAX_BYTES) {
      res.body.destroy();
      throw new Error(`the issuer's discovery document at ${url} is larger than ${DISCOVERY_MAX_BYTES} bytes`);
    }
    chunks.push(c as Buffer);
  }
  if (res.statusCode !== 200) throw new Error(`the issuer's discovery document at ${url} answered HTTP ${res.statusCode}`);
  let doc: { issuer?: unknown; jwks_uri?: unknown; id_token_signing_alg_values_supported?: unknown };
  try {
    doc = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    throw new Error(`the issuer's discovery document at ${url} is not JSON`);
  }
  if (doc.issuer !== issuer) throw new Error(`the discovery document at ${url} names issuer ${JSON.stringify(doc.issuer)}, not ${JSON.stringify(issuer)}`);
  if (typeof doc.jwks_uri !== "string") throw new Error(`the discovery document at ${url} has no jwks_uri`);
  const announced = Array.isArray(doc.id_token_signing_alg_values_supported)
    ? doc.id_token_signing_alg_values_supported.filter((a): a is string => typeof a === "string" && SUPPORTED_ALGS.includes(a))
    : [];
  return { keys: createRemoteJWKSet(new URL(doc.jwks_uri), { timeoutDuration: DISCOVERY_TIMEOUT_MS }), algorithms: announced.length ? announced : ["RS256"] };
}

/** Verifies deliveries for one group from one issuer. */
export class DeliveryVerifier {
  /** Accepted tokens (their sha-256) and when they expire (ms), oldest first. */
  private readonly seen = new Map<string, number>();
  private readonly maxRemembered: number;

  private constructor(
    private readonly o: VerifierOptions,
    private readonly keys: JWTVerifyGetKey,
    private readonly algorithms: string[],
  ) {
    this.maxRemembered = o.maxRemembered ?? 100_000;
  }

  /** A verifier of `o.group`'s deliveries, with the issuer's keys found by discovery (unless given). */
  static async create(o: VerifierOptions): Promise<DeliveryVerifier> {
    const found = o.keys ? { keys: o.keys, algorithms: o.algorithms ?? SUPPORTED_ALGS } : await discover(o.issuer);
    return new DeliveryVerifier(o, found.keys, o.algorithms ?? found.algorithms);
  }

  /** How many accepted tokens are remembered now. */
  get remembered(): number {
    return this.seen.size;
  }

  /** Verifies one delivery; on success its token is remembered, and a second use refused. */
  async verify(headers: Headers, body: Buffer): Promise<Verdict> {
    const event = cloudEventOf(headers, body);
    if (typeof event === "string") return { ok: false, status: 400, reason: event };
    const auth = (header(headers, "authorization") ?? "").replace(/^Bearer /, "");
    if (!auth) return { ok: false, status: 401, reason: "Unauthorized" };
    let payload;
    try {
      ({ payload } = await jwtVerify(auth, this.keys, {
        issuer: this.o.issuer,
        audience: WEBHOOK_AUDIENCE,
        algorithms: this.algorithms,
        requiredClaims: ["exp"],
      }));
    } catch (e) {
      return { ok: false, status: 403, reason: `unable to verify token: ${tokenProblem(e)}` };
    }
    const sub = String(payload.sub ?? "");
    if (!sub.startsWith(WEBHOOK_SUBJECT_PREFIX))
      return { ok: false, status: 403, reason: `subject should be from the Chainguard webhook component, got: ${JSON.stringify(sub).slice(0, 120)}` };
    const group = sub.slice(WEBHOOK_SUBJECT_PREFIX.length);
    if (group !== this.o.group)
      return {
        ok: false,
        status: 403,
        reason: `this token is intended for ${JSON.stringify(group).slice(0, 120)}, wanted one for ${JSON.stringify(this.o.group)}`,
      };
    const webhook = payload.webhook as { digest?: unknown } | undefined;
    if (!webhook || typeof webhook !== "object") return { ok: false, status: 403, reason: "this token does not contain the Chainguard custom webhook claims" };
    const got = digestOf(body);
    if (webhook.digest !== got)
      return {
        ok: false,
        status: 403,
        reason: `this token is intended for a message with digest ${JSON.stringify(String(webhook.digest)).slice(0, 90)}, got message with digest "${got}"`,
      };
    const key = createHash("sha256").update(auth).digest("base64url");
    const now = Date.now();
    this.forgetExpired(now);
    if (this.seen.has(key)) return { ok: false, status: 403, reason: "this token was already used: a delivery is accepted once" };
    const expires = (payload.exp as number) * 1000;
    this.seen.set(key, expires);
    if (this.seen.size > this.maxRemembered) this.seen.delete(this.seen.keys().next().value!);
    return { ok: true, event, expires };
  }

  private forgetExpired(now: number): void {
    // Oldest first, and tokens mostly share a lifetime: stop at the first one still valid.
    for (const [k, exp] of this.seen) {
      if (exp > now) break;
      this.seen.delete(k);
    }
  }
}

/** Why jose refused a token, in a few words (never the token). */
function tokenProblem(e: unknown): string {
  if (e instanceof joseErrors.JWTExpired) return "token is expired";
  if (e instanceof joseErrors.JWTClaimValidationFailed) return `${e.claim} claim check failed (${e.reason})`;
  if (e instanceof joseErrors.JWSSignatureVerificationFailed) return "signature verification failed";
  if (e instanceof joseErrors.JWKSNoMatchingKey) return "no key of the issuer matches";
  if (e instanceof joseErrors.JOSEAlgNotAllowed) return "signing algorithm not announced by the issuer";
  if (e instanceof joseErrors.JOSEError) return e.code;
  return (e as Error).message ?? String(e);
}
