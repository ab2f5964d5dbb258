/** `create` with recovery: a lost answer is looked up before the create is sent again. */
import { setTimeout as sleep } from "node:timers/promises";
import { COLLECTIONS, type CollectionName } from "../../api/collections";
import type { Kind } from "../../api/kinds";
import { isUid } from "../../api/uid";
import { DeadlineExceededError, TransportError, WrongAnswerError } from "../../client/errors";
import { backoff } from "../../client/retry";
import type { Item } from "../../client/shapes";
import { until, type Context, type Operation } from "./context";
import { propagating } from "./recent-groups";
import type { Inputs, KindSpec, Rec } from "./spec";

/** First and largest pause between a lost create and its next attempt, ms. */
const RECREATE_MIN_MS = 250;
const RECREATE_MAX_MS = 5_000;
/** The look-up after a create that ran out of time gets this long of its own. */
const LATE_LOOKUP_MS = 15_000;

/**
 * POSTs a create so that a retry never makes a duplicate: when the response is lost (reset,
 * closed, timed out), the resource is looked up first and re-created only if it is not there.
 * Lost responses are tried again until the operation's deadline, not a fixed number of times: on
 * a bad network three lost answers in a row are common over a large apply. A look-up that fails
 * on the network is itself tried again, never mistaken for "not there". A create that ran out of
 * its time budget is looked up once more before failing, so one that landed is kept rather than
 * orphaned.
 */
export async function createRecovering<K extends Kind>(ctx: Operation, spec: KindSpec<K>, inputs: Inputs<K>): Promise<Item<K>> {
  const body = spec.createBody(inputs);
  const parent = parentIn(spec, inputs);
  return created(spec, parent, body, await createOrFind(ctx, spec, inputs, parent, body));
}

/** The parent uid the inputs name (their parent field, a uid once checked). */
const parentIn = <K extends Kind>(spec: KindSpec<K>, inputs: Inputs<K>): string => String(byName(inputs)[spec.parentField]);
/** Values read by name. */
const byName = (v: Rec): Rec => v;

/** The text fields a create's answer must echo as they were sent (the API stores them as given). */
const ECHOED = ["name", "description"] as const;

/**
 * `item`, when it can be the resource just created: a well-formed uid under the parent asked for,
 * carrying the name and description sent. Anything else (another group's record, say) is a
 * WrongAnswerError and is never recorded: a later delete would remove someone else's resource.
 */
function created<K extends Kind>(spec: KindSpec<K>, parent: string, body: Rec, item: Item<K>): Item<K> {
  const request = `POST ${COLLECTIONS[spec.collection].path}/${parent}`;
  if (!isUid(item.uid) || spec.parentOf(item) !== parent)
    throw new WrongAnswerError(request, `the API answered with ${JSON.stringify(item.uid)}, which is not a ${spec.label} in ${parent}`);
  for (const f of ECHOED) {
    const sent = body[f];
    const got = byName(item)[f];
    if (typeof sent === "string" && sent !== "" && got !== sent)
      throw new WrongAnswerError(request, `the API answered with a ${spec.label} whose ${f} is not the one sent`);
  }
  return item;
}

async function createOrFind<K extends Kind>(ctx: Operation, spec: KindSpec<K>, inputs: Inputs<K>, parent: string, body: Rec): Promise<Item<K>> {
  const { deadline } = ctx.call;
  const retryStatuses = propagating(parent) ? [403] : undefined;
  const existing = await spec.existing?.(ctx, inputs);
  const started = Date.now();
  const lateLookup = async (e: unknown) => {
    const late = await Promise.race([
      spec.recover(until(ctx, Date.now() + LATE_LOOKUP_MS), inputs, started - 5_000, existing).catch(() => undefined),
      sleep(LATE_LOOKUP_MS, undefined, { ref: false }),
    ]);
    if (late) return late;
    throw e;
  };
  for (let attempt = 1; ; attempt++) {
    // The create's own lost answer: when the look-ups after it fail too, this is what the user
    // is told, since the create is what failed (not the look-up that happened to run last).
    let lost: TransportError;
    try {
      return await ctx.client().create(spec.collection, parent, body, { ...ctx.call, retryStatuses });
    } catch (e) {
      if (e instanceof DeadlineExceededError) return lateLookup(e);
      // Nothing answered: the create was never sent, and the client has tried it again already.
      if (!(e instanceof TransportError) || e.refused) throw e;
      lost = e;
    }
    // The response was lost: look before sending again.
    for (let look = 1; ; look++) {
      try {
        const found = await spec.recover(ctx, inputs, started - 5_000, existing);
        if (found) return found;
        break;
      } catch (e) {
        if (e instanceof DeadlineExceededError) return lateLookup(lost);
        if (!(e instanceof TransportError)) throw e;
        await pause(look, deadline, lost);
      }
    }
    await pause(attempt, deadline, undefined);
  }
}

/** Waits before attempt `n + 1`, or throws `e` (or a deadline error) when the wait would pass the deadline. */
async function pause(n: number, deadline: number, e: unknown): Promise<void> {
  const wait = backoff(n, RECREATE_MIN_MS, RECREATE_MAX_MS);
  if (Date.now() + wait >= deadline) {
    if (e) throw e;
    return;
  }
  await sleep(wait);
}

/** The first item of a List matching `pred` created at or after `since`. */
export async function findCreated<C extends CollectionName>(
  ctx: Context,
  c: C,
  query: Record<string, string>,
  pred: (item: Item<C>) => boolean,
  since: number,
): Promise<Item<C> | undefined> {
  for await (const item of ctx.client().list(c, query, ctx.call)) {
    const time = byName(item).createTime;
    const created = Date.parse(typeof time === "string" ? time : "");
    if (pred(item) && !(created < since)) return item;
  }
  return undefined;
}
