/**
 * A kind's provider: check, diff, create, read, update and delete over the kind's inputs `I` and
 * outputs `O`, with each call's options given explicitly. The resource plugin calls it directly;
 * the dynamic classes reach it through ./host.ts, which alone handles what Pulumi's Node dynamic
 * provider host hides in inputs.
 */
import { setTimeout as sleep } from "node:timers/promises";
import type { CollectionName } from "../../api/collections";
import { NotFoundError } from "../../client/errors";
import type { Item } from "../../client/shapes";
import { currentClient } from "../../client/session";
import { definitionOf, secretNames, type Kind } from "../../api/kinds";
import { DEFAULT_OPERATION_MS } from "../timeouts";
import { adopt } from "./adopt";
import { failuresOf, validate } from "./check";
import { createRecovering } from "./create";
import { changesOf, updateBody, verdictOf, type Verdict } from "./diff";
import { inputsOf, outputsFor } from "./outputs";
import { partsGiven, readParts, splitMask, writeParts } from "./parts";
import { readItem } from "./reads";
import type { Call, KindSpec, Rec } from "./spec";

/** A check's verdict: the inputs to use, and what is wrong with them, by top-level input. */
export interface CheckResult<I> {
  inputs: I;
  failures: { property: string; reason: string }[];
}

/** A read's answer: the live resource's id, outputs and inputs. */
export interface ReadResult<I, O> {
  id: string;
  props: O;
  inputs: I;
}

/** One kind's provider. */
export interface KindProvider<I extends object, O extends object> {
  /**
   * Validates what the API would reject, naming the field; unknown values pass. `adoptUid` only
   * steers the first create: once the resource is in state (olds), it is dropped, so that a
   * replacement creates a new resource instead of adopting the one it replaces.
   */
  check(olds: Partial<I> | undefined, news: I): Promise<CheckResult<I>>;
  /** Exact diff over the declared inputs: no change means `changes: false`. */
  diff(id: string, olds: O, news: I): Promise<Verdict>;
  /** Creates (or adopts) the resource; the id is its uid and the outputs are complete. */
  create(inputs: I, o?: Partial<Call>): Promise<{ id: string; outs: O }>;
  /**
   * Reads the live resource: undefined when gone; live outputs and inputs otherwise. Within an
   * operation the read may be answered from a listing of the kind (see ./reads.ts).
   */
  read(id: string, props?: Partial<O>, o?: Partial<Call>): Promise<ReadResult<I, O> | undefined>;
  /** PATCHes exactly the changed fields and returns the complete outputs. */
  update(id: string, olds: O, news: I, o?: Partial<Call>): Promise<{ outs: O }>;
  /**
   * Deletes the resource; NOT_FOUND means it is already gone. A refusal because of what it still
   * holds is tried again while that keeps shrinking: the same run may be deleting its contents
   * in parallel (the engine orders deletes only by references, and a program, or the code
   * `pulumi import` writes, may name a group by its literal uid). A refusal that does not count
   * what is held (no detail) is tried again a bounded number of times.
   */
  delete(id: string, props: O, o?: Partial<Call>): Promise<void>;
}

/** The pause before deleting again a resource refused for what it still holds. */
const CONTENTS_WAIT_MS = 1_000;
/**
 * Attempts a delete is tried while a refusal that counts nothing (no PreconditionFailure detail,
 * which the platform need not send) stays the same: progress cannot be seen, so patience is bounded.
 */
const UNCOUNTED_TRIES = 5;

/**
 * `o` as a Call: its deadline the given one, or the default budget (five minutes) from now; who
 * hears its requests' retry waits (the resource's status line); what cancels it (the engine's Cancel).
 */
const callOf = (o: Partial<Call> = {}): Call => ({ ...o, deadline: o.deadline ?? Date.now() + DEFAULT_OPERATION_MS });

/**
 * The provider of a kind, over its spec (read answers NOT_FOUND with undefined; delete treats
 * NOT_FOUND as done).
 */
export function providerFor<C extends CollectionName, I extends object, O extends object>(spec: KindSpec<C>): KindProvider<I, O> {
  // I and O are the kind's declared types; the rules below read any value by name.
  const rec = (v: object): Rec => v as Rec;
  return {
    async check(olds, news) {
      const inputs = rec(news);
      const prior = rec(olds ?? {});
      const failures = failuresOf(validate(spec, inputs, prior), secretNames(definitionOf(spec.collection as Kind)));
      if (Object.keys(prior).length === 0 || !("adoptUid" in inputs)) return { inputs: news, failures };
      const { adoptUid: _, ...rest } = inputs;
      return { inputs: rest as I, failures };
    },

    async diff(_id, olds, news) {
      return verdictOf(spec, rec(olds), rec(news));
    },

    async create(inputs, o) {
      const ins = rec(inputs);
      const call = callOf(o);
      const client = currentClient();
      if (ins.adoptUid) {
        const adopted = await adopt(client, spec, ins, call);
        return { id: adopted.id, outs: adopted.outs as O };
      }
      const made = await createRecovering(client, spec, ins, call).catch((e: unknown) => {
        throw spec.createError?.(e, ins) ?? e;
      });
      spec.created?.(made);
      const item = await writeParts(client, spec, made, ins, partsGiven(spec, ins), call);
      return { id: item.uid, outs: outputsFor(spec, item, ins) as O };
    },

    async read(id, props, o) {
      let item: Item<C>;
      try {
        item = await readParts(currentClient(), spec, await readItem(currentClient(), spec.collection, id, o), props, o);
      } catch (e) {
        if (e instanceof NotFoundError) return undefined;
        throw e;
      }
      if (spec.gone?.(item)) return undefined;
      const outs = outputsFor(spec, item, props ?? {});
      return { id: item.uid, props: outs as O, inputs: inputsOf(spec, outs) as I };
    },

    async update(id, olds, news, o) {
      const ins = rec(news);
      const c = changesOf(spec, rec(olds), ins);
      if (c.replaces.length) throw new Error(`${spec.label} ${id}: ${c.replaces.join(", ")} cannot change in place`);
      const client = currentClient();
      const call = callOf(o);
      const mask = splitMask(spec, c.mask);
      if (mask.item.length) {
        const item = await client.update(spec.collection, id, updateBody(spec, ins, mask.item), mask.item, call).catch((e: unknown) => {
          throw spec.updateError?.(e, id) ?? e;
        });
        return { outs: outputsFor(spec, await writeParts(client, spec, item, ins, mask.parts, call), ins) as O };
      }
      // Nothing to change on the item itself (only its parts, or a stack moving between the plugin
      // and the dynamic classes): read, keeping what only the old outputs know (an invite's code,
      // which only create returns).
      const item = await writeParts(client, spec, await client.get(spec.collection, id, call), ins, mask.parts, call);
      return { outs: outputsFor(spec, item, { ...olds, ...ins }) as O };
    },

    async delete(id, props, o) {
      const prior = rec(props ?? {});
      const call = callOf(o);
      let held: string | undefined;
      let same = 0;
      for (;;) {
        try {
          await currentClient().delete(spec.collection, id, call);
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
