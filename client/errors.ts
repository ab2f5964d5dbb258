import { codes, codeName, TYPE_PREFIX, type CodeName, type ErrorDetail, type FieldViolation, type PreconditionViolation } from "../api/codes";
import { withoutControls } from "../api/text";

/**
 * An error the API answered with: a google.rpc.Status turned into a class keyed on its code.
 * `ApiError.fromStatus` picks the subclass; a code this client does not know stays a plain
 * ApiError, so a new server error never breaks an old client.
 */
export class ApiError extends Error {
  /** The HTTP status of the response. */
  readonly status: number;
  /** The numeric RPC code (google.rpc.Code), or 0 when the body carried none. */
  readonly code: number;
  /** The code's name, such as `NOT_FOUND`, when this client knows it. */
  readonly codeName: CodeName | undefined;
  /** The typed details of the Status; switch on `@type`. */
  readonly details: ErrorDetail[];
  /** The server's own message, without the request line this error's `message` adds. */
  readonly apiMessage: string;
  /** The request answered ("POST /iam/..."), when known. */
  readonly request: string | undefined;

  constructor(status: number, code: number, apiMessage: string, details: ErrorDetail[], request?: string) {
    // The server's words reach terminals and logs: no raw control or bidi character goes with them.
    super(withoutControls(describe(request, apiMessage, details)));
    this.name = new.target.name;
    this.status = status;
    this.code = code;
    this.codeName = codeName(code);
    this.details = details;
    this.apiMessage = withoutControls(apiMessage);
    this.request = request;
  }

  /** Every BadRequest field violation among the details. */
  get fieldViolations(): FieldViolation[] {
    return this.details.flatMap((d) => (d["@type"] === `${TYPE_PREFIX}BadRequest` && "fieldViolations" in d ? d.fieldViolations : []));
  }

  /** Every PreconditionFailure violation among the details. */
  get violations(): PreconditionViolation[] {
    return this.details.flatMap((d) => (d["@type"] === `${TYPE_PREFIX}PreconditionFailure` && "violations" in d ? d.violations : []));
  }

  /** The ErrorInfo reason, when the details carry one. */
  get reason(): string | undefined {
    for (const d of this.details) if (d["@type"] === `${TYPE_PREFIX}ErrorInfo` && "reason" in d) return d.reason;
    return undefined;
  }

  /**
   * The error for a response: the subclass for the body's code (or, with no usable body, for the
   * HTTP status), falling back to ApiError itself. `request` ("POST /iam/...") prefixes the message.
   */
  static fromStatus(status: number, body: unknown, request?: string): ApiError {
    const s = (body && typeof body === "object" ? body : {}) as { code?: unknown; message?: unknown; details?: unknown };
    const code = typeof s.code === "number" ? s.code : codeForHttp(status);
    const message = typeof s.message === "string" && s.message ? s.message : `HTTP ${status}`;
    const details = Array.isArray(s.details) ? (s.details as ErrorDetail[]) : [];
    const Class = byCode.get(code) ?? ApiError;
    return new Class(status, code, message, details, request);
  }
}

/** INVALID_ARGUMENT: the request was malformed; `fieldViolations` names the fields. */
export class InvalidArgumentError extends ApiError {}
/** NOT_FOUND: no resource has that uid (or the caller may not see it). */
export class NotFoundError extends ApiError {}
/** ALREADY_EXISTS: a resource with that identity already exists. */
export class AlreadyExistsError extends ApiError {}
/** PERMISSION_DENIED: the caller's role bindings do not allow this. */
export class PermissionDeniedError extends ApiError {}
/** RESOURCE_EXHAUSTED: rate limited; retried with the server's Retry-After before surfacing. */
export class ResourceExhaustedError extends ApiError {}
/** FAILED_PRECONDITION: the state does not allow it; `violations` says which precondition. */
export class FailedPreconditionError extends ApiError {}
/** ABORTED: a concurrent change conflicted. */
export class AbortedError extends ApiError {}
/** INTERNAL: the server failed. */
export class InternalError extends ApiError {}
/** UNAVAILABLE: the service is down for now; retried with backoff before surfacing. */
export class UnavailableError extends ApiError {}
/** UNAUTHENTICATED: no token, or a token the server does not accept. */
export class UnauthenticatedError extends ApiError {}

const byCode = new Map<number, typeof ApiError>([
  [codes.INVALID_ARGUMENT.code, InvalidArgumentError],
  [codes.NOT_FOUND.code, NotFoundError],
  [codes.ALREADY_EXISTS.code, AlreadyExistsError],
  [codes.PERMISSION_DENIED.code, PermissionDeniedError],
  [codes.RESOURCE_EXHAUSTED.code, ResourceExhaustedError],
  [codes.FAILED_PRECONDITION.code, FailedPreconditionError],
  [codes.ABORTED.code, AbortedError],
  [codes.INTERNAL.code, InternalError],
  [codes.UNAVAILABLE.code, UnavailableError],
  [codes.UNAUTHENTICATED.code, UnauthenticatedError],
]);

/** The code a bare HTTP status stands for (409 is ambiguous: ABORTED and ALREADY_EXISTS; pick the latter). */
function codeForHttp(status: number): number {
  if (status === 409) return codes.ALREADY_EXISTS.code;
  if (status === 400) return codes.INVALID_ARGUMENT.code;
  for (const entry of Object.values(codes)) if (entry.http === status) return entry.code;
  return 0;
}

function describe(request: string | undefined, message: string, details: ErrorDetail[]): string {
  const extra: string[] = [];
  for (const d of details) {
    if ("fieldViolations" in d && Array.isArray(d.fieldViolations)) for (const v of d.fieldViolations) extra.push(`${v.field}: ${v.description}`);
    if ("violations" in d && Array.isArray(d.violations)) for (const v of d.violations) extra.push(`${v.type}: ${v.description}`);
  }
  const tail = extra.length && !extra.every((e) => message.includes(e)) ? ` (${extra.join("; ")})` : "";
  return `${request ? `${request}: ` : ""}${message}${tail}`;
}

/**
 * The request may or may not have reached the server and no response came back (connection
 * reset, closed, timed out). For a create this means "look before trying again".
 */
export class TransportError extends Error {
  /** The underlying error code (`UND_ERR_SOCKET`, `ECONNRESET`, `UND_ERR_HEADERS_TIMEOUT`, ...). */
  readonly errorCode: string | undefined;
  /**
   * `where`: the address asked, and `setting`, the setting that names it (default `irv:apiUrl`),
   * so a mistyped URL shows in the message with what to fix.
   */
  constructor(request: string, cause: unknown, where?: string, setting = "irv:apiUrl (IRV_API_URL)") {
    const code = (cause as { code?: string })?.code;
    const at = where ? ` at ${where}` : "";
    const what = code && REFUSED.includes(code) ? `nothing answers${at}` : `no response from the API${at}`;
    super(`${request}: ${what} (${code ?? (cause as Error)?.message ?? "unknown error"})${where ? `; check ${setting}` : ""}`, { cause });
    this.name = "TransportError";
    this.errorCode = code;
  }

  /** Whether nothing answered at all (a refused connection, an unknown host): the request was never sent. */
  get refused(): boolean {
    return this.errorCode !== undefined && REFUSED.includes(this.errorCode);
  }
}

/** Connection failures that mean nothing answers at the address (client/retry.ts REFUSED_CODES). */
const REFUSED = ["ECONNREFUSED", "ENOTFOUND"];

/** A setting the client needs is missing: names the config key and the environment variable. */
export class ConfigurationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigurationError";
  }
}

/** A response that does not have the shape the API promises. */
export class ResponseShapeError extends Error {
  constructor(request: string, issues: string) {
    super(`${request}: unexpected response shape: ${issues}`);
    this.name = "ResponseShapeError";
  }
}

/**
 * The address answered, but not as the platform's API does: no JSON, or an error without the
 * API's Status. Usually a wrong `irv:apiUrl` pointing at some other web server. The body is
 * never quoted: it is not ours to echo.
 */
export class NotTheApiError extends Error {
  /** The HTTP status of the answer. */
  readonly status: number;
  constructor(request: string, where: string, status: number) {
    super(`${request}: ${where} answered HTTP ${status}, but not as the platform's API does; check irv:apiUrl`);
    this.name = "NotTheApiError";
    this.status = status;
  }
}

/** The operation's time budget ran out before the API answered (see customTimeouts). */
export class DeadlineExceededError extends Error {
  constructor(request: string, budgetMs: number) {
    // A budget spent before the request could start (a loaded machine) is 0 s, not a negative time.
    const ms = Math.max(0, budgetMs);
    super(
      `${request}: gave up after ${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)}s, the time budget for this operation (raise it with the resource's customTimeouts)`,
    );
    this.name = "DeadlineExceededError";
  }
}

/** The caller cancelled the call (the engine's Cancel): whatever it had sent may or may not have been applied. */
export class CancelledError extends Error {
  constructor(request: string) {
    super(`${request}: cancelled`);
    this.name = "CancelledError";
  }
}

/**
 * The API answered, but with something that cannot be the answer: another resource than the one
 * asked for, a page token it sent before, more pages than any listing has. Nothing from it is used.
 */
export class WrongAnswerError extends Error {
  constructor(request: string, what: string) {
    super(withoutControls(`${request}: ${what}; nothing from this answer was used (check irv:apiUrl points at the platform's API)`));
    this.name = "WrongAnswerError";
  }
}

/** An answer larger than any the API gives: abandoned once it passed the limit, never read whole. */
export class ResponseTooLargeError extends Error {
  constructor(request: string, where: string, limit: number) {
    super(`${request}: ${where} sent an answer larger than ${limit / 1024 / 1024} MiB, far beyond any real one; abandoned it`);
    this.name = "ResponseTooLargeError";
  }
}
