/**
 * Following a stack: a full `irv drift` at start, then, for each batch of verified events, a
 * re-read of only the resources they may have changed, and of the access made outside the stack
 * they name; a full drift again after any gap it cannot account for (more changes waiting than
 * it keeps, a delivery it refused as unverifiable, a re-read that failed), at most once per
 * `gapEveryMs`. Work is coalesced: changes that arrive while a batch runs wait as one set of
 * uids, bounded, so a burst of thousands of events costs one re-read of what they name.
 */
import type { Stack } from "@pulumi/pulumi/automation";
import { isSelfOrAncestor } from "../../api/uid";
import type { StackContents } from "../stack";
import { needsEngine, readSteps } from "../drift/direct";
import { driftOf, runDrift, settingsOf } from "../drift/detect";
import { accessDrift, type AccessDriftOptions, WATCHED_KINDS } from "../drift/access";
import type { DriftedResource, DriftReport } from "../drift/report";
import { affectedIds, type Change } from "./events";

/** Why a report was made. */
export type Trigger = "start" | "events" | "gap" | "resync";

/** A drift report of the follower: `irv drift`'s, with what triggered it. */
export interface FollowReport extends DriftReport {
  follow: {
    trigger: Trigger;
    /** The changes the events announced (for `events`), or why a full drift ran (for `gap` and `resync`). */
    changes?: Change[];
    why?: string;
    /** When the report was made (RFC 3339). */
    at: string;
  };
}

/** Options of a follower. */
export interface FollowerOptions {
  /** Reads the stack's contents now (its state may have changed since the last batch: a `pulumi up`). */
  load(): Promise<StackContents>;
  /** Opens the stack through the Automation API (only when the engine must refresh it). */
  open(): Promise<Stack>;
  /** Access made outside the stack; `false` skips it. */
  access: AccessDriftOptions | false;
  /** Called with each report. */
  report(r: FollowReport): void;
  /** Called with what went wrong (a re-read that failed, ...). */
  warn(message: string): void;
  /** How many distinct uids may wait; past it, the waiting changes become one full drift. Default 10 000. */
  maxPending?: number;
  /** The least time between two full drifts after gaps. Default 60 s. */
  gapEveryMs?: number;
  /**
   * The most time between two full drifts (0: never again after the start). A backstop for what
   * no event announced: a delivery the platform gave up on or lost (irv-server keeps its queue in
   * memory), which nothing here can notice. Default 0.
   */
  resyncEveryMs?: number;
}

/** What a follower keeps of the changes waiting for the next batch. */
interface Pending {
  changes: Map<string, Change>;
  /** A full drift is owed, and why. */
  gap?: string;
  /** The periodic full drift is due. */
  resync?: boolean;
}

/** Follows one stack. */
export class Follower {
  private pending: Pending = { changes: new Map() };
  private running: Promise<void> | undefined;
  private lastFull = 0;
  private gapTimer: NodeJS.Timeout | undefined;
  private resyncTimer: NodeJS.Timeout | undefined;
  private closed = false;
  /** Counters for the health endpoint and the tests. */
  readonly stats = { events: 0, batches: 0, fullDrifts: 0, gaps: 0, resyncs: 0, dropped: 0 };

  constructor(private readonly o: FollowerOptions) {}

  /** Runs the start-up full drift. */
  async start(): Promise<void> {
    // Changes delivered meanwhile wait for it, then run.
    const first = this.full("start");
    this.running = first
      .catch(() => undefined)
      .finally(() => {
        this.running = undefined;
        this.kick();
      });
    await first;
  }

  /** Whether a batch or a full drift runs or waits. */
  get busy(): boolean {
    return this.running !== undefined || this.pending.changes.size > 0 || this.pending.gap !== undefined || !!this.pending.resync;
  }

  /** Takes a change to re-read; returns at once. */
  add(change: Change): void {
    this.stats.events++;
    if (this.pending.gap !== undefined) return; // a full drift reads everything anyway
    this.pending.changes.delete(change.uid); // the latest action wins, and goes last
    this.pending.changes.set(change.uid, change);
    if (this.pending.changes.size > (this.o.maxPending ?? 10_000)) {
      this.stats.dropped += this.pending.changes.size;
      this.gap(`more than ${this.o.maxPending ?? 10_000} changed items waited at once`);
      return;
    }
    this.kick();
  }

  /** Owes a full drift (a delivery that could not be verified, a re-read that failed, ...), at most once per `gapEveryMs`. */
  gap(why: string): void {
    this.stats.gaps++;
    if (this.pending.gap === undefined) this.pending.gap = why;
    this.pending.changes.clear();
    const wait = this.lastFull + (this.o.gapEveryMs ?? 60_000) - Date.now();
    if (wait <= 0) return this.kick();
    this.gapTimer ??= setTimeout(() => {
      this.gapTimer = undefined;
      this.kick();
    }, wait);
  }

  /** Stops taking work and waits for what runs. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.gapTimer) clearTimeout(this.gapTimer);
    if (this.resyncTimer) clearTimeout(this.resyncTimer);
    await this.running;
  }

  /** Waits until nothing runs or waits (tests, and a clean stop). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private kick(): void {
    if (this.running || this.closed) return;
    this.running = this.drain().finally(() => (this.running = undefined));
  }

  private async drain(): Promise<void> {
    while (!this.closed) {
      const { changes, gap } = this.pending;
      if (gap !== undefined) {
        if (this.lastFull + (this.o.gapEveryMs ?? 60_000) > Date.now()) return; // the timer comes back
        this.pending = { changes: new Map() };
        await this.full("gap", gap);
        continue;
      }
      if (this.pending.resync) {
        // It reads everything: the changes waiting are read with it.
        this.pending = { changes: new Map() };
        await this.full("resync", `no full drift for ${Math.round((this.o.resyncEveryMs ?? 0) / 1000)} s`);
        continue;
      }
      if (!changes.size) return;
      this.pending = { changes: new Map() };
      try {
        await this.batch([...changes.values()]);
      } catch (e) {
        this.o.warn(`re-reading after ${changes.size} change(s) failed: ${(e as Error).message}; a full drift follows`);
        this.gap(`a re-read failed: ${(e as Error).message}`);
      }
    }
  }

  private async full(trigger: Trigger, why?: string): Promise<void> {
    this.lastFull = Date.now();
    this.stats.fullDrifts++;
    this.scheduleResync();
    try {
      const contents = await this.o.load();
      const report = await runDrift({ stack: this.o.open, contents, access: this.o.access });
      this.o.report({ ...report, follow: { trigger, ...(why ? { why } : {}), at: new Date().toISOString() } });
    } catch (e) {
      this.o.warn(`the full drift failed: ${(e as Error).message}`);
      if (trigger === "start") throw e;
      this.pending.gap ??= `the last full drift failed: ${(e as Error).message}`;
      const wait = this.o.gapEveryMs ?? 60_000;
      this.gapTimer ??= setTimeout(() => {
        this.gapTimer = undefined;
        this.kick();
      }, wait);
    }
  }

  /** Owes the next periodic full drift `resyncEveryMs` after this one (any full drift resets the clock). */
  private scheduleResync(): void {
    const every = this.o.resyncEveryMs ?? 0;
    if (this.resyncTimer) clearTimeout(this.resyncTimer);
    this.resyncTimer = undefined;
    if (every <= 0 || this.closed) return;
    this.resyncTimer = setTimeout(() => {
      this.resyncTimer = undefined;
      this.stats.resyncs++;
      this.pending.resync = true;
      this.kick();
    }, every);
    this.resyncTimer.unref();
  }

  /** Re-reads what `changes` may have changed, and reports it. */
  private async batch(changes: Change[]): Promise<void> {
    const started = Date.now();
    this.stats.batches++;
    const contents = await this.o.load();
    const state = contents.state;
    const resources = (state.deployment?.resources ?? []) as { urn: string; type: string; id?: string; inputs?: Record<string, unknown> }[];
    if (needsEngine(state)) {
      // The engine reads such a stack whole: no partial read is the same as its refresh.
      const report = await runDrift({ stack: this.o.open, contents, access: this.o.access });
      this.o.report({ ...report, follow: { trigger: "events", changes, at: new Date().toISOString() } });
      return;
    }
    const uids = new Set(changes.map((c) => c.uid));
    const ids = affectedIds(resources, uids);
    const partial = { ...state, deployment: { ...state.deployment, resources: resources.filter((r) => r.id && ids.has(r.id)) } };
    // Access is listed again only for a change that can grant it: an item of a watched kind, or
    // a group made or deleted (what lies in it). A group's edited description grants nothing.
    const grants = (c: Change) => WATCHED_KINDS.includes(c.kind) || (c.kind === "groups" && c.action !== "updated");
    const accessing = this.o.access && changes.some(grants) ? accessDrift(contents, this.o.access) : Promise.resolve(undefined);
    accessing.catch(() => undefined); // awaited below
    const steps = ids.size ? await readSteps(partial, settingsOf(contents)) : [];
    const drifted: DriftedResource[] = [];
    for (const s of steps) {
      const d = driftOf(s);
      if (d) drifted.push(d);
    }
    const access = await accessing;
    // Only what these changes touched: the item, what lies below it, what it grants.
    const touched = (uid: string) => [...uids].some((u) => isSelfOrAncestor(u, uid));
    const unmanaged = access?.unmanaged.filter((u) => touched(u.uid) || changes.some((c) => u.grants.some((g) => g.includes(c.uid)))) ?? [];
    const report: FollowReport = {
      stack: contents.name,
      inSync: drifted.length === 0 && unmanaged.length === 0,
      ...(access ? { access: { ...access, unmanaged } } : {}),
      checked: steps.length,
      changed: drifted.filter((r) => r.status === "changed").length,
      deleted: drifted.filter((r) => r.status === "deleted").length,
      resources: drifted,
      settingsChanged: [],
      readBy: { engine: false },
      durationMs: Date.now() - started,
      follow: { trigger: "events", changes, at: new Date().toISOString() },
    };
    this.o.report(report);
  }
}
