/**
 * The dynamic classes' path: what Pulumi's Node dynamic provider host runs. The host keeps the
 * serialized provider in the hidden member `__provider` of a resource's inputs and outputs, and
 * passes a dynamic provider none of the engine's timeouts, so the SDK copies the resource's
 * customTimeouts into the hidden input `__timeouts` (see ../timeouts.ts). Here, and only here,
 * both are taken off before a kind's provider sees the values, `__timeouts` becomes the call's
 * deadline, and it stays in the outputs and read inputs, where a later update or delete finds it.
 * The host hands a method no context either: the host's process is one operation, so its
 * settings (`configureHost`) and its read batch (`beginHostOperation`) are the process's, and
 * each call's context (./context.ts) is made here from them.
 */
import { once } from "../../api/once";
import type { dynamic } from "@pulumi/pulumi";
import { z } from "zod";
import { readSettings, type ConfigGetter } from "../../client/config";
import { cachedClient, Session } from "../../client/session";
import { deadlineFor, parseDuration, type Timeouts } from "../timeouts";
import { failuresOf } from "./check";
import { isRecord } from "./values";
import type { Context } from "./context";
import type { ValuesProvider } from "./provider";
import { ReadBatch } from "./reads";
import type { Call, Rec } from "./spec";

/** The host process's settings, once configured (the SDK's shim configures them). */
let hostSession: Session | undefined;
/** The host process's read batch, once its operation began. */
let hostReads: ReadBatch | undefined;

/** Records where the host's settings come from (see `Session`). */
export function configureHost(get: ConfigGetter, o: { once?: boolean } = {}): void {
  hostSession = new Session(get, o);
}

/**
 * Marks the host's process as one engine operation (the engine starts a host per operation): from
 * now on its reads may be answered from listings. Idempotent: the first call counts.
 */
export function beginHostOperation(now = Date.now()): void {
  hostReads ??= new ReadBatch(now);
}

/** A host call's context: the host's client (from the environment alone until configured), `call`, the host's read batch. */
export function hostContext(call: Partial<Call> = {}): Context {
  return {
    client: (o) =>
      hostSession?.client(o) ??
      cachedClient(
        readSettings(() => undefined),
        o,
      ),
    call,
    reads: hostReads,
  };
}

/** The members the host (`__provider`) and the SDK (`__timeouts`) add to a resource's values. */
export interface HostMembers {
  __provider?: string;
  /** The resource's customTimeouts, copied in by the SDK (see provider/timeouts.ts). */
  __timeouts?: Timeouts;
}

const timeoutString = once(() => z.string().refine((s) => parseDuration(s) !== undefined, "must be a duration such as 90s or 1h30m"));
const timeoutsSchema = once(() =>
  z.object({ create: timeoutString().optional(), update: timeoutString().optional(), delete: timeoutString().optional() }).optional(),
);

/** `v` split into the kind's own values and the hidden members. */
function split(v: Rec | undefined): { own: Rec; hidden: HostMembers } {
  const { __provider, __timeouts, ...own } = v ?? {};
  return { own, hidden: { __provider: typeof __provider === "string" ? __provider : undefined, __timeouts: __timeouts as Timeouts | undefined } };
}

/** `v` without the hidden members: the kind's own values (also what `irv drift`'s own reads hand a kind: cli/drift/direct.ts). */
export function ownValues(v: unknown): Rec {
  return split(isRecord(v) ? v : undefined).own;
}

/** `v` with `__timeouts`, when the resource has one: the next update or delete reads it from state. */
const keepingTimeouts = (v: Rec, t: Timeouts | undefined): Rec => (t === undefined ? v : { ...v, __timeouts: t });

/** What the host calls: every method of a dynamic provider but `configure` (see provider/index.ts). */
export type HostProvider = Required<Omit<dynamic.ResourceProvider, "configure">>;

/** A kind's provider as the dynamic provider host calls it (from the SDK's shim: see provider/index.ts). */
export function forDynamicHost(p: ValuesProvider<Rec, Rec>): HostProvider {
  return {
    async check(olds: Rec, news: Rec) {
      const { own, hidden } = split(news);
      const r = await p.check(split(olds).own, own, hostContext());
      const parsed = timeoutsSchema().safeParse(hidden.__timeouts);
      const failures = parsed.success ? [] : failuresOf(parsed.error.issues.map((i) => ({ path: ["__timeouts", ...i.path], message: i.message })));
      const kept = Object.fromEntries(Object.entries(hidden).filter(([, v]) => v !== undefined));
      return { inputs: { ...r.inputs, ...kept }, failures: [...r.failures, ...failures] };
    },

    async diff(id: string, olds: Rec, news: Rec) {
      const v = await p.diff(id, split(olds).own, split(news).own, hostContext());
      return { changes: v.changes, replaces: v.replaces, deleteBeforeReplace: v.deleteBeforeReplace };
    },

    async create(inputs: Rec) {
      const { own, hidden } = split(inputs);
      const r = await p.create(own, hostContext({ deadline: deadlineFor(hidden.__timeouts, "create") }));
      return { id: r.id, outs: keepingTimeouts(r.outs, hidden.__timeouts) };
    },

    async read(id: string, props?: Rec) {
      const { own, hidden } = split(props);
      const r = await p.read(id, own, hostContext());
      // A blank id tells the host the resource is gone.
      if (!r) return { id: "", props: {} };
      return { id: r.id, props: keepingTimeouts(r.props, hidden.__timeouts), inputs: keepingTimeouts(r.inputs, hidden.__timeouts) };
    },

    async update(id: string, olds: Rec, news: Rec) {
      const { own, hidden } = split(news);
      const r = await p.update(id, split(olds).own, own, hostContext({ deadline: deadlineFor(hidden.__timeouts, "update") }));
      return { outs: keepingTimeouts(r.outs, hidden.__timeouts) };
    },

    async delete(id: string, props: Rec) {
      const { own, hidden } = split(props);
      await p.delete(id, own, hostContext({ deadline: deadlineFor(hidden.__timeouts, "delete") }));
    },
  };
}
