/** What every request goes through (Fastify hooks, not the resource plugin): the error model, request recording, fault injection. */
export { installErrors } from "./errors";
export { clientErrorHandler } from "./client-errors";
export { installJsonBody } from "./json-body";
export { installRecording, redact, type RecordedRequest } from "./recording";
export { installFaults, Faults, type Fault } from "./faults";
