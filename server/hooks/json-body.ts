/**
 * Request bodies are JSON only (any other content type is INVALID_ARGUMENT on `content-type`).
 * An empty body is no body (some clients send a content type on DELETE); invalid JSON is reported
 * without quoting the input, which may hold secrets.
 */
import type { FastifyInstance } from "fastify";
import { invalidField } from "../errors";

/** Replaces Fastify's body parsers with one strict JSON parser. */
export function installJsonBody(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("application/json", { parseAs: "string" }, (_req, body, done) => {
    const text = String(body);
    if (text.trim() === "") return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      done(invalidField("body", "is not valid JSON"), undefined);
    }
  });
}
