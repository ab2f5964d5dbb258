/**
 * A kind's provider: check, diff, create, read, update and delete over the kind's inputs and
 * outputs (its definition's types), each method given its context (./context.ts): the client,
 * the call's options, the operation's read batch. The resource plugin calls it directly;
 * the dynamic classes reach it through ./host.ts, which alone handles what Pulumi's Node dynamic
 * provider host hides in inputs.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { NotFoundError } from "../../client/errors";
import type { Item } from "../../client/shapes";
import { definitionOf, secretNames, type Kind } from "../../api/kinds";
import { adopt } from "./adopt";
import { operationOf, type Context } from "./context";
import { failuresOf, validate } from "./check";
import { createRecovering } from "./create";
import { changesOf, updateBody, verdictOf, type Verdict } from "./diff";
import { inputsOf, outputsFor } from "./outputs";
import { partsGiven, readParts, splitMask, writeParts } from "./parts";
import { readItem } from "./reads";
import type { Inputs, KindSpec, Outputs, Unchecked } from "./spec";

/** A check's verdict: the inputs to use, and what is wrong with them, by top-level input. */
export interface CheckResult<I> {
  /** The inputs, without `adoptUid` once the resource is in state. */
  inputs: I | Omit<I, "adoptUid">;
  failures: { property: string; reason: string }[];
}

/** A read's answer: the live resource's id, outputs and inputs. */
export interface ReadResult<I, O> {
  id: string;
  props: O;
  inputs: I;
}

/**
 * A provider over inputs `I` and outputs `O`: `KindProvider<K>` is kind `K`'s, over its
 * definition's types; the plugin, the dynamic host and `irv drift`, which hold the engine's
 * values as records, call it as `ValuesProvider<Rec, Rec>`.
 */
export interface ValuesProvider<I extends object, O extends object> {
  /**
   * Validates what the API would reject, naming the field; unknown values pass. `adoptUid` only
   * steers the first create: once the resource is in state (olds), it is dropped, so that a
   * replacement creates a new resource instead of adopting the one it replaces.
   */
  check(olds: Unchecked<O> | undefined, news: Unchecked<I>, ctx: Context): Promise<CheckResult<Unchecked<I>>>;
  /** Exact diff over the declared inputs: no change means `changes: false`. At preview a value may be unknown. */
  diff(id: string, olds: Unchecked<O>, news: Unchecked<I>, ctx: Context): Promise<Verdict>;
  /** Creates (or adopts) the resource; the id is its uid and the outputs are complete. */
  create(inputs: I, ctx: Context): Promise<{ id: string; outs: O }>;
  /**
   * Reads the live resource: undefined when gone; live outputs and inputs otherwise. Within an
   * operation the read may be answered from a listing of the kind (see ./reads.ts).
   */
  read(id: string, props: Partial<O> | undefined, ctx: Context): Promise<ReadResult<I, O> | undefined>;
  /** PATCHes exactly the changed fields and returns the complete outputs. */
  update(id: string, olds: O, news: I, ctx: Context): Promise<{ outs: O }>;
  /**
   * Deletes the resource; NOT_FOUND means it is already gone. A refusal because of what it still
   * holds is tried again while that keeps shrinking: the same run may be deleting its contents
   * in parallel (the engine orders deletes only by references, and a program, or the code
   * `pulumi import` writes, may name a group by its literal uid). A refusal that does not count
   * what is held (no detail) is tried again a bounded number of times.
   */
  delete(id: string, props: Partial<O>, ctx: Context): Promise<void>;
}

/** Kind `K`'s provider, over its definition's inputs and outputs. */
export type KindProvider<K extends Kind> = ValuesProvider<Inputs<K>, Outputs<K>>;

/** The pause before deleting again a resource refused for what it still holds. */
const CONTENTS_WAIT_MS = 1_000;
/**
 * Attempts a delete is tried while a refusal that counts nothing (no PreconditionFailure detail,
 * which the platform need not send) stays the same: progress cannot be seen, so patience is bounded.
 */
const UNCOUNTED_TRIES = 5;

/**
 * The provider of a kind, over its spec (read answers NOT_FOUND with undefined; delete treats
 * NOT_FOUND as done).
 */
export function providerFor<K extends Kind>(spec: KindSpec<K>): KindProvider<K> {
  const secrets = secretNames(definitionOf<Kind>(spec.collection));
  return {
    async check(olds, news) {
      const prior = olds ?? {};
      const failures = failuresOf(validate(spec, news, prior), secrets);
      if (Object.keys(prior).length === 0 || !("adoptUid" in news)) return { inputs: news, failures };
      const { adoptUid: _, ...rest } = news;
      return { inputs: rest, failures };
    },

    async diff(_id, olds, news) {
      return verdictOf(spec, olds, news);
    },

    async create(inputs, ctx) {
      const op = operationOf(ctx);
      if (inputs.adoptUid) return adopt(op, spec, inputs, inputs.adoptUid);
      const made = await createRecovering(op, spec, inputs).catch((e: unknown) => {
        throw spec.createError?.(e, inputs) ?? e;
      });
      spec.created?.(made);
      const item = await writeParts(op, spec, made, inputs, partsGiven(spec, inputs));
      return { id: item.uid, outs: outputsFor(spec, item, inputs) };
    },

    async read(id, props, ctx) {
      let item: Item<K>;
      try {
        item = await readParts(ctx, spec, await readItem(ctx.reads, ctx.client(), spec.collection, id, ctx.call), props);
      } catch (e) {
        if (e instanceof NotFoundError) return undefined;
        throw e;
      }
      if (spec.gone?.(item)) return undefined;
      const outs = outputsFor(spec, item, props ?? {});
      return { id: item.uid, props: outs, inputs: inputsOf(spec, outs) };
    },

    async update(id, olds, news, ctx) {
      const c = changesOf(spec, olds, news);
      if (c.replaces.length) throw new Error(`${spec.label} ${id}: ${c.replaces.join(", ")} cannot change in place`);
      const op = operationOf(ctx);
      const mask = splitMask(spec, c.mask);
      if (mask.item.length) {
        const item = await op
          .client()
          .update(spec.collection, id, updateBody(spec, news, mask.item), mask.item, op.call)
          .catch((e: unknown) => {
            throw spec.updateError?.(e, id) ?? e;
          });
        return { outs: outputsFor(spec, await writeParts(op, spec, item, news, mask.parts), news) };
      }
      // Nothing to change on the item itself (only its parts, or a stack moving between the plugin
      // and the dynamic classes): read, keeping what only the old outputs know (an invite's code,
      // which only create returns).
      const item = await writeParts(op, spec, await op.client().get(spec.collection, id, op.call), news, mask.parts);
      return { outs: outputsFor(spec, item, { ...olds, ...news }) };
    },

    async delete(id, props, ctx) {
      const prior = props ?? {};
      const { call } = operationOf(ctx);
      let held: string | undefined;
      let same = 0;
      for (;;) {
        try {
          await ctx.client().delete(spec.collection, id, call);
          return;
        } catch (e) {
          if (e instanceof NotFoundError) return;
          const now = spec.heldBy?.(e);
          same = now?.what === held ? same + 1 : 1;
          const again = now !== undefined && (now.what !== held || (!now.counted && same < UNCOUNTED_TRIES));
          if (again && Date.now() + CONTENTS_WAIT_MS < call.deadline) {
            held = now.what;
            await sleep(CONTENTS_WAIT_MS, undefined, { signal: call.signal });
            continue;
          }
          throw spec.deleteError?.(e, { ...prior, uid: prior.uid ?? id }) ?? e;
        }
      }
    },
  };
}
