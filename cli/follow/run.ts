/**
 * `irv drift --follow`: the receiver, the verifier, the follower and the notifier put together
 * for one stack, until SIGTERM or SIGINT.
 */
import { readFileSync } from "node:fs";
import { definitionOfTypeToken } from "../../api/kinds";
import { authUrlOf, readSettings } from "../../client/config";
import { isLoopbackHost } from "../../api/fields";
import { UsageError, type Io } from "../command";
import type { AccessDriftOptions } from "../drift/access";
import { formatDrift, type DriftFormat } from "../drift/format";
import { settingsOf } from "../drift/detect";
import { openStack, readStack, type StackContents, type StackSelection } from "../stack";
import { changeOf } from "./events";
import { Follower, type FollowReport } from "./follow";
import { Notifier } from "./notify";
import { startReceiver } from "./receiver";
import { DEFAULT_MAX_BODY, DeliveryVerifier } from "./verify";

/** The options of `irv drift --follow`, as parsed. */
export interface FollowCommandOptions {
  selection: StackSelection;
  format: DriftFormat;
  access: AccessDriftOptions | false;
  listen?: string;
  path?: string;
  issuer?: string;
  group?: string;
  maxBody?: string;
  tlsCert?: string;
  tlsKey?: string;
  exec?: string;
  webhook?: string;
  repeatWindow?: string;
  gapEvery?: string;
  resyncEvery?: string;
}

/** A positive number of an option, or its default. */
function positive(option: string, v: string | undefined, fallback: number): number {
  if (v === undefined) return fallback;
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0) throw new UsageError(`--${option} must be a positive number, not ${JSON.stringify(v)}`);
  return n;
}

/** A number of seconds, 0 for never, or its default. */
function seconds(option: string, v: string | undefined, fallback: number): number {
  if (v === undefined) return fallback;
  const n = Number(v);
  if (v.trim() === "" || !Number.isFinite(n) || n < 0) throw new UsageError(`--${option} must be a number of seconds (0 for never), not ${JSON.stringify(v)}`);
  return n;
}

/** The default of `--resync-every`: a lost delivery is caught within 15 minutes. */
export const DEFAULT_RESYNC_EVERY_S = 900;

/** `host:port` (`[::]:8080`, `:8080` for every address). */
export function listenAddress(v: string | undefined): { host: string; port: number } {
  const m = /^(?:\[([^\]]+)\]|([^:]*)):(\d{1,5})$/.exec(v ?? "127.0.0.1:8080");
  const port = Number(m?.[3]);
  if (!m || port > 65535) throw new UsageError(`--listen must be HOST:PORT (127.0.0.1:8080, 0.0.0.0:8080, [::]:8080), not ${JSON.stringify(v)}`);
  return { host: m[1] ?? (m[2] || "0.0.0.0"), port };
}

/** The group whose subscription delivers here: `--group`, else the parent of the stack's one subscription. */
export function groupOf(contents: StackContents, given: string | undefined): string {
  if (given) return given;
  const subs = ((contents.state.deployment?.resources ?? []) as { type: string; inputs?: { parentUid?: unknown } }[]).filter(
    (r) => definitionOfTypeToken(r.type)?.kind === "subscriptions",
  );
  const groups = [...new Set(subs.map((s) => s.inputs?.parentUid).filter((g): g is string => typeof g === "string"))];
  if (groups.length === 1) return groups[0];
  throw new UsageError(
    groups.length
      ? `the stack has subscriptions in ${groups.length} groups: pass --group with the one whose sink is this receiver`
      : "the stack declares no events.Subscription: declare one whose sink is this receiver (see docs/drift-follow.md), or pass --group",
  );
}

/** The issuer whose tokens sign deliveries: `--issuer`, else the stack's token issuer (irv:authUrl, or the API's /auth). */
function issuerOf(contents: StackContents, given: string | undefined): string {
  const issuer = given ?? authUrlOf(readSettings(settingsOf(contents), contents.env));
  let u: URL;
  try {
    u = new URL(issuer);
  } catch {
    throw new UsageError(`--issuer must be a URL, not ${JSON.stringify(issuer)}`);
  }
  // The keys come from the issuer: fetched in the clear, anyone on the way could swap them.
  if (u.protocol !== "https:" && !(u.protocol === "http:" && isLoopbackHost(u.hostname)))
    throw new UsageError(`--issuer must be an https URL (plain http only to a loopback host), not ${u.protocol}//${u.host}`);
  return issuer;
}

/** Runs the receiver until a signal (or `stopped`, for tests) stops it. Returns the exit code. */
export async function runFollow(o: FollowCommandOptions, io: Io, stopped?: Promise<void>): Promise<number> {
  // The options first: a mistake in them is told before the stack is read.
  const { host, port } = listenAddress(o.listen);
  const maxBody = positive("max-body", o.maxBody, DEFAULT_MAX_BODY);
  const repeatWindowMs = positive("repeat-window", o.repeatWindow, 3600) * 1000;
  const gapEveryMs = positive("gap-every", o.gapEvery, 60) * 1000;
  const resyncEveryMs = seconds("resync-every", o.resyncEvery, DEFAULT_RESYNC_EVERY_S) * 1000;
  if (!!o.tlsCert !== !!o.tlsKey) throw new UsageError("--tls-cert and --tls-key go together");
  if (o.webhook && !/^https?:\/\/[^/]/.test(o.webhook)) throw new UsageError("--webhook must be an http(s) URL");
  if (o.path !== undefined && !o.path.startsWith("/")) throw new UsageError("--path must start with /");
  const tls = o.tlsCert && o.tlsKey ? { cert: readFileSync(o.tlsCert), key: readFileSync(o.tlsKey) } : undefined;
  const first = await readStack(o.selection);
  const group = groupOf(first, o.group);
  const issuer = issuerOf(first, o.issuer);
  const warn = (m: string) => io.err(`irv drift --follow: ${m}`);
  const notifier = new Notifier({ exec: o.exec, webhook: o.webhook, repeatWindowMs, warn });
  let loaded: StackContents | undefined = first;
  const follower = new Follower({
    // The first load is the one read above; later ones see a `pulumi up` made meanwhile.
    load: async () => {
      const c = loaded ?? (await readStack(o.selection));
      loaded = undefined;
      return c;
    },
    open: () => openStack(o.selection),
    access: o.access,
    gapEveryMs,
    resyncEveryMs,
    warn,
    report: (r) => {
      print(io, r, o.format);
      notifier.take(r);
    },
  });
  const verifier = await DeliveryVerifier.create({ issuer, group });
  let ready = false;
  let refused = 0;
  const receiver = await startReceiver({
    verifier,
    host,
    port,
    path: o.path,
    maxBody,
    tls,
    accepted: (e) => {
      const change = changeOf(e);
      if (change) follower.add(change);
    },
    refused: (status, reason) => {
      refused++;
      warn(`refused a delivery (HTTP ${status}): ${reason}`);
      // One that may have been the platform's (a key rotated, a clock off) leaves a gap; a replay does not.
      if (status === 403 && !/already used/.test(reason)) follower.gap(`a delivery could not be verified: ${reason}`);
    },
    health: () => ({ ready, group, ...follower.stats, refused, remembered: verifier.remembered, notified: notifier.stats, rss: process.memoryUsage().rss }),
  });
  io.err(`irv drift --follow: listening on ${receiver.url}${o.path ?? "/"} for deliveries to group ${group} signed by ${issuer}`);
  const stop = new Promise<void>((resolve) => {
    process.once("SIGTERM", resolve);
    process.once("SIGINT", resolve);
    void stopped?.then(resolve);
  });
  try {
    await Promise.race([follower.start(), stop]);
    ready = true;
    await stop;
  } finally {
    await receiver.close();
    await follower.close();
    await notifier.idle();
    notifier.close();
  }
  return 0;
}

/** One report on standard output: a JSON line, or the text or markdown of `irv drift` under a heading saying why. */
function print(io: Io, r: FollowReport, format: DriftFormat): void {
  if (format === "json") return io.out(JSON.stringify(r));
  // After the start, a batch in sync says nothing a reader needs.
  if (r.inSync && r.follow.trigger === "events") return;
  const why =
    r.follow.trigger === "start"
      ? "at start"
      : r.follow.trigger === "gap"
        ? `after a gap (${r.follow.why})`
        : r.follow.trigger === "resync"
          ? `periodic resync (${r.follow.why})`
          : `after ${r.follow.changes?.length ?? 0} change(s)`;
  io.out(format === "markdown" ? `<!-- ${r.follow.at} ${why} -->\n${formatDrift(r, format)}\n` : `[${r.follow.at}] ${why}\n${formatDrift(r, format)}\n`);
}
