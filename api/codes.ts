/**
 * The API's status codes (google.rpc.Code) with the HTTP status the gateway maps each to and the
 * prefix of its messages. One table for the server, which builds errors from it, and the client,
 * which turns errors back into typed classes.
 */
export const codes = {
  INVALID_ARGUMENT: { code: 3, http: 400, label: "Invalid argument" },
  NOT_FOUND: { code: 5, http: 404, label: "Not found" },
  ALREADY_EXISTS: { code: 6, http: 409, label: "Already exists" },
  PERMISSION_DENIED: { code: 7, http: 403, label: "Permission denied" },
  RESOURCE_EXHAUSTED: { code: 8, http: 429, label: "Resource exhausted" },
  FAILED_PRECONDITION: { code: 9, http: 400, label: "Failed precondition" },
  ABORTED: { code: 10, http: 409, label: "Aborted" },
  INTERNAL: { code: 13, http: 500, label: "Internal" },
  UNAVAILABLE: { code: 14, http: 503, label: "Unavailable" },
  UNAUTHENTICATED: { code: 16, http: 401, label: "Unauthenticated" },
} as const;

/** A status name such as `NOT_FOUND`. */
export type CodeName = keyof typeof codes;

/** The name of a numeric code, or undefined for a code this table does not know. */
export function codeName(code: number): CodeName | undefined {
  for (const [name, entry] of Object.entries(codes)) if (entry.code === code) return name as CodeName;
  return undefined;
}

/** The `@type` prefix every typed detail carries. */
export const TYPE_PREFIX = "type.googleapis.com/google.rpc.";

/**
 * The ErrorInfo domain on every error, as the platform sends it: `iam.<service_domain>` (the
 * spec), the platform's service domain being chainguard.dev (its resource types are
 * `iam.chainguard.dev/Group` and the like). A client switching on the domain sees the platform's.
 */
export const ERROR_DOMAIN = "iam.chainguard.dev";

/** Why a request failed, as an ErrorInfo detail says. */
export interface ErrorInfo {
  "@type": `${typeof TYPE_PREFIX}ErrorInfo`;
  reason: string;
  domain: string;
  metadata?: Record<string, string>;
}

/** One field that failed validation, named by its camelCase path (`claimMatch.issuer`). */
export interface FieldViolation {
  field: string;
  description: string;
}

/** The fields of a request that failed validation. */
export interface BadRequest {
  "@type": `${typeof TYPE_PREFIX}BadRequest`;
  fieldViolations: FieldViolation[];
}

/** One precondition that did not hold; `type` is e.g. `RESOURCE_NOT_EMPTY`. */
export interface PreconditionViolation {
  type: string;
  subject?: string;
  description: string;
}

/** The preconditions a request failed. */
export interface PreconditionFailure {
  "@type": `${typeof TYPE_PREFIX}PreconditionFailure`;
  violations: PreconditionViolation[];
}

/** How long to wait before trying again (sent with RESOURCE_EXHAUSTED and UNAVAILABLE). */
export interface RetryInfo {
  "@type": `${typeof TYPE_PREFIX}RetryInfo`;
  retryDelay: string;
}

/** Any typed detail. Clients switch on `@type` and must tolerate types they do not know. */
export type ErrorDetail = ErrorInfo | BadRequest | PreconditionFailure | RetryInfo;

/** The body of every error response: a google.rpc.Status. */
export interface Status {
  code: number;
  message: string;
  details: ErrorDetail[];
}
