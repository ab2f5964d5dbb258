import { setTimeout as sleep } from "node:timers/promises";
import type { dynamic } from "@pulumi/pulumi";
import { z } from "zod";
import * as f from "../../api/fields";
import { isSelfOrAncestor } from "../../api/uid";
import type { CollectionName } from "../../api/collections";
import type { IrvClient } from "../client/client";
import { DeadlineExceededError, NotFoundError, TransportError } from "../client/errors";
import { backoff } from "../client/retry";
import type { Item } from "../client/shapes";
import { kindInfo, type Kind } from "../kinds";
import { currentClient } from "../session";
import { deadlineFor, parseDuration, type Timeouts } from "../timeouts";
import { clean, containsUnknown, same, unknownAlong, withoutEmpty, withoutProvider, isEmpty } from "./values";

/** Inputs every resource takes besides its own fields. */
export interface CommonInputs {
  /** Adopt the existing resource with this uid instead of creating one (checked to exist and match). */
  adoptUid?: string;
  /** The resource's customTimeouts, copied in by the SDK (see provider/timeouts.ts). */
  __timeouts?: Timeouts;
}

/** How one declared input behaves in diff and update. */
export interface FieldSpec {
  /** Changing it replaces the resource. */
  replace?: boolean;
  /** The value an omitted input means (`""` for description, `false` for singleUse). */
  default?: unknown;
  /** A nested block: update masks name its changed members with dotted paths. */
  block?: boolean;
  /** Computed by the API when omitted: an omitted input means "no opinion", never a change. */
  computedWhenOmitted?: boolean;
  /** Its name on the wire, when it differs (`defaultRoleUid` is sent as `defaultRole`). */
  wire?: string;
}

/** A zod-style issue on input names. */
export interface Issue {
  path: PropertyKey[];
  message: string;
}

type Rec = Record<string, any>;

/** What makes one kind: its collection, its fields and the mapping between inputs, wire and outputs. */
export interface KindSpec<C extends CollectionName> {
  collection: C;
  /** "group", "identity", ... for messages. */
  label: string;
  /** The input naming the parent (`parentUid` or `groupUid`). */
  parentField: string;
  /** Every declared input except adoptUid and __timeouts. */
  fields: Record<string, FieldSpec>;
  /** The create body schema from api/inputs.ts (strict), run by check. */
  createSchema: z.ZodType;
  /** Extra checks on inputs (e.g. an invite's expiration in the future when creating). */
  validate?(inputs: Rec, creating: boolean, olds: Rec): Issue[];
  /** The create body from inputs. */
  createBody(inputs: Rec): Rec;
  /** The update body for `mask` (wire paths): the new values of the fields the mask touches. */
  updateBody?(inputs: Rec, mask: string[]): Rec;
  /** Outputs from an API item; `prior` (inputs or old outputs) supplies write-only values. */
  outputs(item: Item<C>, prior: Rec): Rec;
  /** The live inputs read from outputs (default: the declared fields). */
  inputsOf?(outs: Rec): Rec;
  /** The parent of an item (default: the uid's parent). */
  parentOf(item: Item<C>): string;
  /** Why an existing item cannot be adopted for these inputs, or undefined. */
  adoptMismatch?(item: Item<C>, inputs: Rec): string | undefined;
  /** Mask paths to send on adoption whatever the diff says (write-only values). */
  adoptAlwaysMask?(inputs: Rec): string[];
  /** Extra replaces beyond `replace` fields (an identity's kind). */
  extraReplaces?(olds: Rec, news: Rec): string[];
  /** Replacements must delete first (one per group). */
  deleteBeforeReplace?: boolean;
  /**
   * After a create lost its response: the resource that create made, if it exists. Returning
   * undefined means "create again". Created at or after `since` (ms). A request it makes that
   * loses its response throws TransportError (the caller looks again); its calls honour `deadline`.
   */
  recover(client: IrvClient, inputs: Rec, since: number, deadline: number): Promise<Item<C> | undefined>;
  /** A plain-words error for a failed delete, or undefined to keep the API's. */
  deleteError?(err: unknown, props: Rec): Error | undefined;
  /** Called after a successful create (groups record themselves for propagation waits). */
  created?(item: Item<C>): void;
}

/** What changed between old outputs and new inputs. */
export interface Changes {
  /** Top-level inputs that differ. */
  changed: string[];
  /** Those that force replacement. */
  replaces: string[];
  /** updateMask paths (wire names, dotted inside blocks). */
  mask: string[];
}

/** Compares old outputs with new inputs, field by field, over the declared inputs only. */
export function changesOf(spec: KindSpec<CollectionName>, olds: Rec, news: Rec): Changes {
  const changed: string[] = [];
  const mask: string[] = [];
  for (const [name, fs] of Object.entries(spec.fields)) {
    const o = olds[name] ?? fs.default;
    const n = news[name] ?? fs.default;
    if (fs.computedWhenOmitted && news[name] === undefined) continue;
    if (!containsUnknown(n) && same(o, n)) continue;
    changed.push(name);
    const wire = fs.wire ?? name;
    if (fs.block && !containsUnknown(n) && !isEmpty(o) && !isEmpty(n) && typeof o === "object" && typeof n === "object") {
      for (const k of [...new Set([...Object.keys(o), ...Object.keys(n)])].sort())
        if (!same(o[k], n[k])) mask.push(`${wire}.${k}`);
    } else mask.push(wire);
  }
  const replaces = changed.filter((name) => spec.fields[name].replace);
  for (const r of spec.extraReplaces?.(olds, news) ?? []) if (!replaces.includes(r)) replaces.push(r);
  return { changed, replaces, mask };
}

const timeoutString = z.string().refine((s) => parseDuration(s) !== undefined, "must be a duration such as 90s or 1h30m");
const commonSchema = z.object({
  adoptUid: f.uid.optional(),
  __timeouts: z.object({ create: timeoutString.optional(), update: timeoutString.optional(), delete: timeoutString.optional() }).optional(),
});

/** Runs the kind's rules over inputs; issues on unknown values are dropped. */
export function validate(spec: KindSpec<CollectionName>, inputs: Rec, olds: Rec): Issue[] {
  const creating = Object.keys(withoutProvider(olds)).length === 0;
  const issues: Issue[] = [];
  const parent = z.object({ [spec.parentField]: f.uid }).safeParse(inputs);
  if (!parent.success) issues.push(...parent.error.issues);
  const common = commonSchema.safeParse(inputs);
  if (!common.success) issues.push(...common.error.issues);
  const body = spec.createSchema.safeParse(spec.createBody(inputs));
  const toInput = Object.fromEntries(Object.entries(spec.fields).map(([k, v]) => [v.wire ?? k, k]));
  if (!body.success)
    for (const i of body.error.issues) {
      const [head, ...rest] = i.path;
      const at = head === undefined ? [] : [toInput[head as string] ?? head, ...rest];
      // A strict object reports its unknown keys at the object's path: name each key under it.
      if (i.code === "unrecognized_keys")
        for (const k of i.keys) issues.push({ path: at.length ? [...at, k] : [toInput[k] ?? k], message: "is not a known field" });
      else issues.push({ path: at, message: i.message });
    }
  for (const k of Object.keys(inputs))
    if (!(k in spec.fields) && k !== "adoptUid" && k !== "__timeouts" && k !== "__provider")
      issues.push({ path: [k], message: "is not a known field" });
  // An adoptUid outside the declared parent would only fail in create, during `up`: say so now.
  const adoptUid = inputs.adoptUid;
  const parentUid = inputs[spec.parentField];
  if (creating && common.success && parent.success && typeof adoptUid === "string" && !containsUnknown(parentUid)) {
    const owner = spec.parentOf({ uid: adoptUid } as Item<CollectionName>);
    if (owner !== parentUid) issues.push({ path: ["adoptUid"], message: `belongs to ${owner || "no group"}, but ${spec.parentField} is ${parentUid}` });
  }
  issues.push(...(spec.validate?.(inputs, creating, olds) ?? []));
  return issues.filter((i) => !unknownAlong(inputs, i.path));
}

/**
 * The failures `check` returns: `{property: "claimMatch", reason: "claimMatch.issuer: must be ..."}`.
 * The engine prints `property '<p>' value <inputs[p]>`, looking `p` up among the top-level inputs
 * only, so a nested path (`capabilities.1`) would print `{<nil>}`: the property is the top-level
 * input, and the reason names the full path. A field that holds a secret (`secretFields`, an
 * identity provider's `oidc`) names no property, so the engine prints no value for it.
 */
export function failuresOf(issues: Issue[], secretFields: readonly string[] = []): dynamic.CheckFailure[] {
  const seen = new Set<string>();
  const out: dynamic.CheckFailure[] = [];
  for (const i of issues) {
    const path = i.path.map(String).join(".");
    const reason = path ? `${path}: ${i.message}` : i.message;
    if (seen.has(reason)) continue;
    seen.add(reason);
    const top = i.path.length ? String(i.path[0]) : "";
    out.push({ property: secretFields.includes(top) ? "" : top, reason });
  }
  return out;
}

/**
 * Groups created by this process and when: a child created under one of them soon after may be
 * refused (PERMISSION_DENIED) until the platform's permissions catch up, so such creates retry 403.
 */
const recentGroups = new Map<string, number>();
/** How long after a group's creation its children's creates retry PERMISSION_DENIED. */
export const PROPAGATION_WINDOW_MS = 60_000;

/** Records a group this process just created. */
export function noteGroupCreated(uid: string): void {
  recentGroups.set(uid, Date.now());
}

function propagating(parentUid: string): boolean {
  const now = Date.now();
  for (const [uid, t] of recentGroups) {
    if (now - t > PROPAGATION_WINDOW_MS) recentGroups.delete(uid);
    else if (isSelfOrAncestor(uid, parentUid)) return true;
  }
  return false;
}

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
export async function createRecovering<C extends CollectionName>(
  client: IrvClient,
  spec: KindSpec<C>,
  inputs: Rec,
  deadline: number,
): Promise<Item<C>> {
  const parent = inputs[spec.parentField];
  const body = spec.createBody(inputs);
  const retryStatuses = propagating(parent) ? [403] : undefined;
  const started = Date.now();
  const lateLookup = async (e: unknown) => {
    const late = await Promise.race([
      spec.recover(client, inputs, started - 5_000, Date.now() + LATE_LOOKUP_MS).catch(() => undefined),
      sleep(LATE_LOOKUP_MS, undefined, { ref: false }),
    ]);
    if (late) return late;
    throw e;
  };
  for (let attempt = 1; ; attempt++) {
    try {
      return await client.create(spec.collection, parent, body, { deadline, retryStatuses });
    } catch (e) {
      if (e instanceof DeadlineExceededError) return lateLookup(e);
      if (!(e instanceof TransportError)) throw e;
    }
    // The response was lost: look before sending again.
    for (let look = 1; ; look++) {
      try {
        const found = await spec.recover(client, inputs, started - 5_000, deadline);
        if (found) return found;
        break;
      } catch (e) {
        if (e instanceof DeadlineExceededError) return lateLookup(e);
        if (!(e instanceof TransportError)) throw e;
        await pause(look, deadline, e);
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

/** The outputs for an item: the kind's outputs plus adoptUid and __timeouts, with no undefined. */
function outputsFor<C extends CollectionName>(spec: KindSpec<C>, item: Item<C>, prior: Rec): Rec {
  return clean({ ...spec.outputs(item, prior), adoptUid: prior.adoptUid, __timeouts: prior.__timeouts });
}

/**
 * The inputs `read` reports: the declared fields of the live outputs, without the API's empty
 * defaults (an omitted description reads back as ""), which equal an omitted input in diff and
 * would otherwise show as `+description` on refresh and `- description: ""` in the next preview.
 */
function inputsOf(spec: KindSpec<CollectionName>, outs: Rec): Rec {
  const picked: Rec = spec.inputsOf
    ? spec.inputsOf(outs)
    : Object.fromEntries(Object.keys(spec.fields).map((k) => [k, outs[k]]));
  for (const [k, fs] of Object.entries(spec.fields)) if (fs.default !== undefined && same(picked[k], fs.default)) delete picked[k];
  return clean({ ...withoutEmpty(picked), adoptUid: outs.adoptUid, __timeouts: outs.__timeouts });
}

/**
 * The dynamic provider for a kind: check, diff, create, read, update and delete, following the
 * contract literally (blank id from read on NOT_FOUND; delete treats NOT_FOUND as done).
 */
export function providerFor<C extends CollectionName, I extends object, O extends object>(spec: KindSpec<C>) {
  const anySpec = spec as unknown as KindSpec<CollectionName>;
  return {
    /**
     * Validates what the API would reject, naming the field; unknown values pass. `adoptUid` only
     * steers the first create: once the resource is in state (olds), it is dropped, so that a
     * replacement creates a new resource instead of adopting the one it replaces.
     */
    async check(olds: I, news: I): Promise<dynamic.CheckResult<I>> {
      const inputs = withoutProvider(news) as Rec;
      const prior = withoutProvider((olds ?? {}) as Rec);
      const failures = failuresOf(validate(anySpec, inputs, prior), kindInfo(spec.collection as Kind).secretOutputs);
      if (Object.keys(prior).length === 0 || !("adoptUid" in (news as Rec))) return { inputs: news, failures };
      const { adoptUid: _, ...rest } = news as Rec;
      return { inputs: rest as I, failures };
    },

    /** Exact diff over the declared inputs: no change means `changes: false`. */
    async diff(_id: string, olds: O, news: I): Promise<dynamic.DiffResult> {
      const c = changesOf(anySpec, olds as Rec, news as Rec);
      return {
        changes: c.changed.length > 0 || c.replaces.length > 0,
        replaces: c.replaces,
        deleteBeforeReplace: c.replaces.length > 0 && !!spec.deleteBeforeReplace,
      };
    },

    /** Creates (or adopts) the resource; the id is its uid and the outputs are complete. */
    async create(inputs: I): Promise<dynamic.CreateResult<O>> {
      const ins = withoutProvider(inputs) as Rec;
      const deadline = deadlineFor(ins.__timeouts, "create");
      const client = currentClient();
      if (ins.adoptUid) return adopt(client, spec, ins, deadline) as Promise<dynamic.CreateResult<O>>;
      const item = await createRecovering(client, spec, ins, deadline);
      spec.created?.(item);
      return { id: item.uid, outs: outputsFor(spec, item, ins) as O };
    },

    /** Reads the live resource: blank id when gone; live outputs and inputs otherwise. */
    async read(id: string, props?: O): Promise<dynamic.ReadResult<O>> {
      const prior = withoutProvider((props ?? {}) as Rec);
      let item: Item<C>;
      try {
        item = await currentClient().get(spec.collection, id);
      } catch (e) {
        if (e instanceof NotFoundError) return { id: "", props: {} as O };
        throw e;
      }
      const outs = outputsFor(spec, item, prior);
      return { id: item.uid, props: outs as O, inputs: inputsOf(anySpec, outs) as O };
    },

    /** PATCHes exactly the changed fields and returns the complete outputs. */
    async update(id: string, olds: O, news: I): Promise<dynamic.UpdateResult<O>> {
      const ins = withoutProvider(news) as Rec;
      const c = changesOf(anySpec, olds as Rec, ins);
      if (c.replaces.length) throw new Error(`${spec.label} ${id}: ${c.replaces.join(", ")} cannot change in place`);
      const client = currentClient();
      const deadline = deadlineFor(ins.__timeouts, "update");
      const item = c.mask.length
        ? await client.update(spec.collection, id, updateBody(spec, ins, c.mask), c.mask, { deadline })
        : await client.get(spec.collection, id, { deadline });
      return { outs: outputsFor(spec, item, ins) as O };
    },

    /** Deletes the resource; NOT_FOUND means it is already gone. */
    async delete(id: string, props: O): Promise<void> {
      const prior = withoutProvider((props ?? {}) as Rec);
      try {
        await currentClient().delete(spec.collection, id, { deadline: deadlineFor(prior.__timeouts, "delete") });
      } catch (e) {
        if (e instanceof NotFoundError) return;
        throw spec.deleteError?.(e, { ...prior, uid: prior.uid ?? id }) ?? e;
      }
    },
  };
}

/** The update body: the new values of the top-level fields the mask touches, on the wire. */
function updateBody(spec: KindSpec<CollectionName>, inputs: Rec, mask: string[]): Rec {
  if (spec.updateBody) return clean(spec.updateBody(inputs, mask));
  const body = spec.createBody(inputs);
  const tops = new Set(mask.map((m) => m.split(".")[0]));
  return clean(Object.fromEntries(Object.entries(body).filter(([k]) => tops.has(k))));
}

/** Takes over `inputs.adoptUid`: checks it exists and matches, then PATCHes it to the inputs. */
async function adopt<C extends CollectionName>(client: IrvClient, spec: KindSpec<C>, ins: Rec, deadline: number) {
  const uid = ins.adoptUid as string;
  let item: Item<C>;
  try {
    item = await client.get(spec.collection, uid, { deadline });
  } catch (e) {
    if (e instanceof NotFoundError) throw new Error(`adoptUid ${uid}: no ${spec.label} with this uid exists (or the caller cannot see it)`);
    throw e;
  }
  const parent = spec.parentOf(item);
  if (parent !== ins[spec.parentField])
    throw new Error(`adoptUid ${uid}: this ${spec.label} belongs to ${parent}, but ${spec.parentField} is ${ins[spec.parentField]}`);
  const mismatch = spec.adoptMismatch?.(item, ins);
  if (mismatch) throw new Error(`adoptUid ${uid}: ${mismatch}`);
  // Write-only values (a secret, an invite's ttl) cannot be read: take them from the inputs, and
  // let adoptAlwaysMask send what must be set anyway.
  const live = spec.outputs(item, ins);
  const c = changesOf(spec as unknown as KindSpec<CollectionName>, live, ins);
  if (c.replaces.length)
    throw new Error(`adoptUid ${uid}: ${c.replaces.join(", ")} of the existing ${spec.label} differ from the inputs and cannot change in place`);
  const mask = [...new Set([...c.mask, ...(spec.adoptAlwaysMask?.(ins) ?? [])])];
  const final = mask.length ? await client.update(spec.collection, uid, updateBody(spec as unknown as KindSpec<CollectionName>, ins, mask), mask, { deadline }) : item;
  return { id: final.uid, outs: outputsFor(spec, final, ins) };
}

/** The first item of a List matching `pred` created at or after `since`. */
export async function findCreated<C extends CollectionName>(
  client: IrvClient,
  c: C,
  query: Record<string, string>,
  pred: (item: Item<C>) => boolean,
  since: number,
  deadline?: number,
): Promise<Item<C> | undefined> {
  for await (const item of client.list(c, query, { deadline })) {
    const created = Date.parse((item as { createTime?: string }).createTime ?? "");
    if (pred(item) && !(created < since)) return item;
  }
  return undefined;
}

