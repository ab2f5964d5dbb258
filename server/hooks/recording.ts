/**
 * Records every request (method, path, query, redacted body, status, caller) in memory for tests
 * and benchmarks. Never logged. Secrets in bodies are replaced before they are stored.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";

/** One request the server answered (or dropped: status 0). */
export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, unknown>;
  /** The parsed body, with clientSecret, token, code and the like redacted (the query too). */
  body: unknown;
  status: number;
  /** Identity uid of the authenticated caller, if any. */
  caller?: string;
}

/** Secret-looking keys, camelCase or snake_case (`access_token` is how OAuth puts a token in a query). */
const SECRET_KEYS = /^(client_?secret|token|code|password|secret|identity_?token|access_?token|id_?token|refresh_?token)$/i;

/** A deep copy of `v` with secret-looking fields replaced by "[REDACTED]". */
export function redact(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(redact);
  if (typeof v !== "object" || v === null) return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) out[k] = SECRET_KEYS.test(k) ? "[REDACTED]" : redact(x);
  return out;
}

const recorded = new WeakSet<FastifyRequest>();

/** Appends `req` to `into` once. */
export function record(into: RecordedRequest[], req: FastifyRequest, status: number): void {
  if (recorded.has(req)) return;
  recorded.add(req);
  const caller = req.caller;
  into.push({
    method: req.method,
    path: req.url.split("?")[0],
    query: redact({ ...(req.query as Record<string, unknown>) }) as Record<string, unknown>,
    body: redact(req.body),
    status,
    ...(caller ? { caller } : {}),
  });
}

/** Installs the recording hook on the whole app. */
export function installRecording(app: FastifyInstance, into: RecordedRequest[]): void {
  app.addHook("onResponse", async (req, reply) => record(into, req, reply.statusCode));
}
