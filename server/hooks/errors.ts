/**
 * Every failure leaves as a google.rpc.Status: ApiErrors as built, Fastify's own errors (bad JSON,
 * wrong content type, body too large) as INVALID_ARGUMENT, unknown routes as NOT_FOUND, and
 * anything unexpected as INTERNAL (logged, never echoed).
 */
import type { FastifyError, FastifyInstance } from "fastify";
import { notFound, toApiError } from "../errors";

/** Installs the error and not-found handlers. */
export function installErrors(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, req, reply) => {
    const e = toApiError(err);
    if (e.http >= 500 && e.body.code === 13) req.log.error({ err }, "internal error");
    void reply.code(e.http).headers(e.headers).send(e.body);
  });
  app.setNotFoundHandler((req, reply) => {
    const e = notFound(`route ${req.method} ${req.url.split("?")[0]}`);
    void reply.code(e.http).send(e.body);
  });
}
