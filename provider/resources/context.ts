/**
 * A provider method's context: everything one call of check, diff, create, read, update or delete
 * (and the plugin's Invoke) runs with, handed to it by its caller, as pulumi-go-provider's `infer`
 * hands each method one: the client, the call's options, the operation's read batch. Nothing a
 * method needs comes from the process: the resource plugin makes one per engine call
 * (plugin/server.ts), the dynamic provider host's adapter one per host call (./host.ts), and
 * `irv drift` one for its own reads (cli/drift/direct.ts).
 */
import type { SourceOptions } from "../../client/auth";
import type { IrvClient } from "../../client/client";
import type { Session } from "../../client/session";
import { DEFAULT_OPERATION_MS } from "../timeouts";
import type { ReadBatch } from "./reads";
import type { Call } from "./spec";

/** One provider method's context. */
export interface Context {
  /**
   * The client for the provider's settings, made on first use: a preview that never calls the API
   * needs no credentials, and a missing setting fails, naming it, only where a call is made.
   * `anonymous`: with no credentials configured, one that reads without a token (public registry reads).
   */
  client(o?: Pick<SourceOptions, "anonymous">): IrvClient;
  /**
   * The call's options: the engine's deadline when it gave one (else each method's default), who
   * hears its requests' retry waits (the resource's status line), what cancels it (the engine's Cancel).
   */
  call: Partial<Call>;
  /** The operation's read batch, when its reads may be answered from listings (./reads.ts); else each read is one GET. */
  reads?: ReadBatch;
}

/** A context over `session`'s client, with the call's options and the operation's read batch. */
export function contextOf(session: Session, call: Partial<Call> = {}, reads?: ReadBatch): Context {
  return { client: (o) => session.client(o), call, reads };
}

/**
 * A context whose call has its deadline fixed: what a create, update or delete runs with, and
 * every hook it calls (a lost create's recovery, ./create.ts).
 */
export interface Operation extends Context {
  call: Call;
}

/** `ctx` as an operation: under its call's deadline, or the default budget (five minutes) from now. */
export const operationOf = (ctx: Context): Operation => until(ctx, ctx.call.deadline ?? Date.now() + DEFAULT_OPERATION_MS);

/** `ctx` with its call's deadline at `deadline` (ms since the epoch), all else the same. */
export const until = (ctx: Context, deadline: number): Operation => ({ ...ctx, call: { ...ctx.call, deadline } });
