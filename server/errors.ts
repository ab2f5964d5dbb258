/**
 * Every error the server sends, built from the shared code table (api/codes.ts) in one place:
 * a google.rpc.Status body {code, message "<Label>: <text>", details: [ErrorInfo, ...]} with the
 * HTTP status the table gives. Handlers throw `ApiError`s; the error plugin turns them (and
 * Fastify's own errors) into responses.
 */
import { codes, ERROR_DOMAIN, TYPE_PREFIX, type CodeName, type ErrorDetail, type FieldViolation, type PreconditionViolation, type Status } from "../api/codes";

/** A wrong method on a known path. Not in the shared table: it is the gateway's routing answer
 *  (grpc-gateway sends code 12 UNIMPLEMENTED with HTTP 405 Method Not Allowed). */
const METHOD_NOT_ALLOWED = { code: 12, http: 405, label: "Method not allowed", reason: "UNIMPLEMENTED" } as const;

/**
 * An error as the API answers it: throw it from anywhere under a route. `http` is the HTTP status,
 * `body` the google.rpc.Status sent (its `code` the rpc code). The client's ApiError has the
 * answer's HTTP status as `.status`.
 */
export class ApiError extends Error {
  constructor(
    readonly http: number,
    readonly body: Status,
    /** Extra response headers (Retry-After). */
    readonly headers: Record<string, string> = {},
  ) {
    super(body.message);
  }
}

function errorInfo(reason: string): ErrorDetail {
  return { "@type": `${TYPE_PREFIX}ErrorInfo`, reason, domain: ERROR_DOMAIN };
}

/** Builds an ApiError for code `name` with message text and extra details. */
export function apiError(name: CodeName, text: string, details: ErrorDetail[] = [], headers?: Record<string, string>): ApiError {
  const c = codes[name];
  return new ApiError(c.http, { code: c.code, message: `${c.label}: ${text}`, details: [errorInfo(name), ...details] }, headers);
}

/** INVALID_ARGUMENT with a BadRequest naming each failed field. */
export function invalidArgument(violations: FieldViolation[]): ApiError {
  const text = violations.map((v) => `${v.field}: ${v.description}`).join("; ");
  return apiError("INVALID_ARGUMENT", text, [{ "@type": `${TYPE_PREFIX}BadRequest`, fieldViolations: violations }]);
}

/** INVALID_ARGUMENT for one field. */
export function invalidField(field: string, description: string): ApiError {
  return invalidArgument([{ field, description }]);
}

/** NOT_FOUND: `what` names the missing thing, e.g. `group 0a1b…`. */
export function notFound(what: string): ApiError {
  return apiError("NOT_FOUND", `${what} does not exist`);
}

export function alreadyExists(text: string): ApiError {
  return apiError("ALREADY_EXISTS", text);
}

export function permissionDenied(text: string): ApiError {
  return apiError("PERMISSION_DENIED", text);
}

export function unauthenticated(text: string): ApiError {
  return apiError("UNAUTHENTICATED", text);
}

/** FAILED_PRECONDITION with a PreconditionFailure listing each violation. */
export function failedPrecondition(text: string, violations: PreconditionViolation[]): ApiError {
  return apiError("FAILED_PRECONDITION", text, [{ "@type": `${TYPE_PREFIX}PreconditionFailure`, violations }]);
}

/** A method the collection does not offer on this path (e.g. PATCH of an invite). */
export function methodNotAllowed(method: string, path: string, why: string): ApiError {
  const m = METHOD_NOT_ALLOWED;
  return new ApiError(m.http, {
    code: m.code,
    message: `${m.label}: ${method} ${path}: ${why}`,
    details: [errorInfo(m.reason)],
  });
}

/** RESOURCE_EXHAUSTED or UNAVAILABLE with a RetryInfo and a Retry-After header. */
export function retryLater(name: "RESOURCE_EXHAUSTED" | "UNAVAILABLE", text: string, seconds: number): ApiError {
  return apiError(name, text, [{ "@type": `${TYPE_PREFIX}RetryInfo`, retryDelay: `${seconds}s` }], {
    "retry-after": String(seconds),
  });
}

/** Fastify's own request errors, by code, as the field violation we report (never echoing input). */
const FRAMEWORK_ERRORS: Record<string, { field: string; description: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { field: "body", description: "is not valid JSON" },
  FST_ERR_CTP_EMPTY_JSON_BODY: { field: "body", description: "must not be empty when content-type is application/json" },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { field: "content-type", description: "must be application/json" },
  FST_ERR_CTP_BODY_TOO_LARGE: { field: "body", description: "is too large" },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { field: "content-length", description: "does not match the body" },
};

/** Turns anything thrown under a route into an ApiError; unknown errors become INTERNAL. */
export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  const e = err as { code?: string; statusCode?: number; name?: string };
  const known = e.code ? FRAMEWORK_ERRORS[e.code] : undefined;
  if (known) return invalidField(known.field, known.description);
  // JSON.parse errors surface as SyntaxError with statusCode 400; their text quotes the body.
  if (e.name === "SyntaxError" || (e.statusCode && e.statusCode >= 400 && e.statusCode < 500)) return invalidField("body", "could not be parsed");
  return apiError("INTERNAL", "internal error");
}
