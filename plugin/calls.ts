/**
 * The calls a plugin server is answering, and the gRPC code each failure reaches the engine with.
 * The engine's Cancel answers every call in flight CANCELLED, aborts their requests to the API and
 * refuses the calls after it; a crash of the process (an uncaught error, an unhandled rejection)
 * answers every call in flight INTERNAL before the process exits, so that the engine never waits on
 * an answer that cannot come.
 */
import * as grpc from "@grpc/grpc-js";
import * as emptyproto from "google-protobuf/google/protobuf/empty_pb";
import { ApiError, CancelledError, DeadlineExceededError, TransportError } from "../client/errors";
import { BadRequestError } from "./errors";

/**
 * The code a failure reaches the engine with: the API's own code for the API's errors (the
 * numbering of google.rpc.Code is gRPC's), DEADLINE_EXCEEDED for a spent budget, UNAVAILABLE for no
 * answer, CANCELLED, INVALID_ARGUMENT for a bad request; anything else (our own bugs, answers that
 * are not the API's) stays UNKNOWN. An error wrapped with a `cause` (a message naming the
 * resource) keeps its cause's code.
 */
export function codeOf(e: unknown): grpc.status {
  for (let x = e; x instanceof Error; x = x.cause) {
    if (x instanceof ApiError) return x.code > grpc.status.OK && x.code <= grpc.status.UNAUTHENTICATED ? x.code : grpc.status.UNKNOWN;
    if (x instanceof BadRequestError) return grpc.status.INVALID_ARGUMENT;
    if (x instanceof DeadlineExceededError) return grpc.status.DEADLINE_EXCEEDED;
    if (x instanceof CancelledError) return grpc.status.CANCELLED;
    if (x instanceof TransportError) return grpc.status.UNAVAILABLE;
  }
  return grpc.status.UNKNOWN;
}

/** A failure as gRPC sends it: its code and, unchanged, its message. */
const failure = (e: unknown, code = codeOf(e)): Partial<grpc.StatusObject> => ({ code, details: e instanceof Error ? e.message : String(e) });

const CANCELLED = "pulumi-resource-irv: the engine cancelled the operation";

/** What a method is handed besides its request: the signal the engine's Cancel aborts. */
export interface CallContext {
  signal: AbortSignal;
}

export class Calls {
  /** The answer of each call in flight, called once. */
  readonly #open = new Set<(err: Partial<grpc.StatusObject>) => void>();
  readonly #cancel = new AbortController();

  /** A unary handler answering with what `f` returns, or with its error at the error's code (see codeOf). */
  unary<Req>(f: (req: Req, c: CallContext) => Promise<unknown> | unknown): grpc.handleUnaryCall<Req, unknown> {
    return (call, done) => {
      if (this.#cancel.signal.aborted) return done(failure(CANCELLED, grpc.status.CANCELLED));
      let answered = false;
      const answer = (err: Partial<grpc.StatusObject> | null, resp?: unknown) => {
        if (answered) return;
        answered = true;
        this.#open.delete(fail);
        done(err, resp);
      };
      const fail = (err: Partial<grpc.StatusObject>) => answer(err);
      this.#open.add(fail);
      Promise.resolve()
        .then(() => f(call.request, { signal: this.#cancel.signal }))
        .then(
          (resp) => answer(null, resp),
          (e: unknown) => answer(failure(e)),
        );
    };
  }

  /**
   * The handler of the engine's Cancel: every call in flight answers CANCELLED, its API requests
   * aborted, and later calls are refused; the Cancel itself is answered.
   */
  cancelling(): grpc.handleUnaryCall<unknown, emptyproto.Empty> {
    return (_call, done) => {
      this.#cancel.abort();
      this.#failAll(failure(CANCELLED, grpc.status.CANCELLED));
      done(null, new emptyproto.Empty());
    };
  }

  /** A crash: every call in flight answers INTERNAL, naming the error. */
  crashed(e: unknown): void {
    const why = e instanceof Error ? e.message : String(e);
    this.#failAll(failure(`pulumi-resource-irv failed and stops: ${why}`, grpc.status.INTERNAL));
  }

  #failAll(err: Partial<grpc.StatusObject>): void {
    for (const fail of [...this.#open]) fail(err);
  }
}
