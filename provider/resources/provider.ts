/** The dynamic provider of a kind, over its spec: check, diff, create, read, update, delete. */
import type { dynamic } from "@pulumi/pulumi";
import { setTimeout as sleep } from "node:timers/promises";
import type { CollectionName } from "../../api/collections";
import { NotFoundError } from "../../client/errors";
import type { Item } from "../../client/shapes";
import { currentClient } from "../../client/session";
import type { CallOptions } from "../../client/client";
import { definitionOf, secretNames, type Kind } from "../../api/kinds";
import { deadlineFor, type Timeouts } from "../timeouts";
import { adopt } from "./adopt";
import { failuresOf, validate } from "./check";
import { createRecovering } from "./create";
import { changesOf, updateBody, verdictOf } from "./diff";
import { inputsOf, outputsFor } from "./outputs";
import { readItem } from "./reads";
import type { KindSpec, Rec } from "./spec";
import { withoutProvider } from "./values";

/**
 * What the resource plugin adds to a method's call, beyond the dynamic provider contract: who
 * hears its requests' retry waits (the resource's status line), and the engine's Cancel.
 */
export type MethodOptions = Pick<CallOptions, "report" | "signal">;

/** The pause before deleting again a resource refused for what it still holds. */
const CONTENTS_WAIT_MS = 1_000;

/**
 * The dynamic provider for a kind: check, diff, create, read, update and delete, following the
 * contract literally (blank id from read on NOT_FOUND; delete treats NOT_FOUND as done).
 */
export function providerFor<C extends CollectionName, I extends object, O extends object>(spec: KindSpec<C>) {
  return {
    /**
     * Validates what the API would reject, naming the field; unknown values pass. `adoptUid` only
     * steers the first create: once the resource is in state (olds), it is dropped, so that a
     * replacement creates a new resource instead of adopting the one it replaces.
     */
    async check(olds: I, news: I): Promise<dynamic.CheckResult<I>> {
      const inputs = withoutProvider(news) as Rec;
      const prior = withoutProvider((olds ?? {}) as Rec);
      const failures = failuresOf(validate(spec, inputs, prior), secretNames(definitionOf(spec.collection as Kind)));
      if (Object.keys(prior).length === 0 || !("adoptUid" in (news as Rec))) return { inputs: news, failures };
      const { adoptUid: _, ...rest } = news as Rec;
      return { inputs: rest as I, failures };
    },

    /** Exact diff over the declared inputs: no change means `changes: false`. */
    async diff(_id: string, olds: O, news: I): Promise<dynamic.DiffResult> {
      const v = verdictOf(spec, olds as Rec, news as Rec);
      return { changes: v.changes, replaces: v.replaces, deleteBeforeReplace: v.deleteBeforeReplace };
    },

    /** Creates (or adopts) the resource; the id is its uid and the outputs are complete. */
    async create(inputs: I, o: MethodOptions = {}): Promise<dynamic.CreateResult<O>> {
      const ins = withoutProvider(inputs) as Rec;
      const call = { deadline: deadlineFor(ins.__timeouts as Timeouts | undefined, "create"), ...o };
      const client = currentClient();
      if (ins.adoptUid) return adopt(client, spec, ins, call) as Promise<dynamic.CreateResult<O>>;
      const item = await createRecovering(client, spec, ins, call);
      spec.created?.(item);
      return { id: item.uid, outs: outputsFor(spec, item, ins) as O };
    },

    /**
     * Reads the live resource: blank id when gone; live outputs and inputs otherwise. Within an
     * operation the read may be answered from a listing of the kind (see ./reads.ts).
     */
    async read(id: string, props?: O, o: MethodOptions = {}): Promise<dynamic.ReadResult<O>> {
      const prior = withoutProvider((props ?? {}) as Rec);
      let item: Item<C>;
      try {
        item = await readItem(currentClient(), spec.collection, id, o);
      } catch (e) {
        if (e instanceof NotFoundError) return { id: "", props: {} as O };
        throw e;
      }
      const outs = outputsFor(spec, item, prior);
      return { id: item.uid, props: outs as O, inputs: inputsOf(spec, outs) as O };
    },

    /** PATCHes exactly the changed fields and returns the complete outputs. */
    async update(id: string, olds: O, news: I, o: MethodOptions = {}): Promise<dynamic.UpdateResult<O>> {
      const ins = withoutProvider(news) as Rec;
      const c = changesOf(spec, olds as Rec, ins);
      if (c.replaces.length) throw new Error(`${spec.label} ${id}: ${c.replaces.join(", ")} cannot change in place`);
      const client = currentClient();
      const call = { deadline: deadlineFor(ins.__timeouts as Timeouts | undefined, "update"), ...o };
      if (c.mask.length) {
        const item = await client.update(spec.collection, id, updateBody(spec, ins, c.mask), c.mask, call);
        return { outs: outputsFor(spec, item, ins) as O };
      }
      // Nothing to change on the API (a stack moving between the plugin and the dynamic classes):
      // read, keeping what only the old outputs know (an invite's code, which only create returns).
      const item = await client.get(spec.collection, id, call);
      return { outs: outputsFor(spec, item, { ...withoutProvider(olds as Rec), ...ins }) as O };
    },

    /**
     * Deletes the resource; NOT_FOUND means it is already gone. A refusal because of what it still
     * holds is tried again while that keeps shrinking: the same run may be deleting its contents
     * in parallel (the engine orders deletes only by references, and a program, or the code
     * `pulumi import` writes, may name a group by its literal uid).
     */
    async delete(id: string, props: O, o: MethodOptions = {}): Promise<void> {
      const prior = withoutProvider((props ?? {}) as Rec);
      const deadline = deadlineFor(prior.__timeouts as Timeouts | undefined, "delete");
      const call = { deadline, ...o };
      let held: string | undefined;
      for (;;) {
        try {
          await currentClient().delete(spec.collection, id, call);
          return;
        } catch (e) {
          if (e instanceof NotFoundError) return;
          const now = spec.heldBy?.(e);
          if (now !== undefined && now !== held && Date.now() + CONTENTS_WAIT_MS < deadline) {
            held = now;
            await sleep(CONTENTS_WAIT_MS, undefined, { signal: o.signal });
            continue;
          }
          throw spec.deleteError?.(e, { ...prior, uid: prior.uid ?? id }) ?? e;
        }
      }
    },
  };
}
