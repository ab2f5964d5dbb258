/**
 * Where findings go beyond standard output: a command run per finding (the finding as JSON on its
 * standard input) and a webhook POSTed per finding (a chat channel, an issue tracker). A finding
 * seen again within the repeat window is not sent again: it is counted, and one digest of the
 * repeats is sent when the window closes, so a resource edited by hand fifty times is one
 * message and one digest, not fifty. Sends are bounded: a few at once, a queue of at most
 * `MAX_QUEUED`, each with a timeout.
 */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import type { UnmanagedItem } from "../drift/access";
import type { DriftedResource } from "../drift/report";
import type { FollowReport } from "./follow";

/** One thing found: a resource that drifted, or an item granting access made outside the stack. */
export interface Finding {
  stack: string;
  /** `drift`: a resource differs or is gone; `access`: access made outside the stack. */
  finding: "drift" | "access";
  /** One line, for a chat message or an issue title. */
  summary: string;
  resource?: DriftedResource;
  item?: UnmanagedItem;
  at: string;
}

/** A digest of repeated findings. */
export interface Digest {
  stack: string;
  digest: { summary: string; repeats: number }[];
  /** The window they were counted in, in seconds. */
  windowSeconds: number;
  at: string;
}

/** The findings of a report. */
export function findingsOf(r: FollowReport): Finding[] {
  const at = r.follow.at;
  const drift = r.resources.map<Finding>((res) => ({
    stack: r.stack,
    finding: "drift",
    summary:
      res.status === "deleted"
        ? `${res.name} (${res.kind}, uid ${res.uid}) was deleted outside Pulumi`
        : `${res.name} (${res.kind}, uid ${res.uid}) changed outside Pulumi: ${res.fields.map((f) => f.path).join(", ")}`,
    resource: res,
    at,
  }));
  const access = (r.access?.unmanaged ?? []).map<Finding>((u) => ({
    stack: r.stack,
    finding: "access",
    summary: `${u.kind} ${u.name !== u.uid ? `${u.name} (uid ${u.uid})` : u.uid} in ${u.group} was made outside the stack${u.grants.length ? `: ${u.grants[0]}` : ""}`,
    item: u,
    at,
  }));
  return [...drift, ...access];
}

/** What identifies a finding across reports: the same drift of the same resource, the same item. */
function keyOf(f: Finding): string {
  const what = f.resource ? [f.resource.urn, f.resource.status, f.resource.fields.map((x) => [x.path, x.live])] : [f.item?.uid, f.item?.grants];
  return createHash("sha256")
    .update(JSON.stringify([f.stack, f.finding, what]))
    .digest("base64url");
}

/** Options of a notifier. */
export interface NotifierOptions {
  /** A shell command run per finding, the finding as JSON on its standard input. */
  exec?: string;
  /** An http(s) URL each finding is POSTed to as JSON. */
  webhook?: string;
  /** How long a finding is not sent again. Default one hour. */
  repeatWindowMs?: number;
  warn(message: string): void;
}

const MAX_QUEUED = 1000;
const AT_ONCE = 4;
const SEND_TIMEOUT_MS = 30_000;
/** How many distinct findings are remembered in a window. */
const MAX_REMEMBERED = 10_000;

/** Sends findings, with a digest of repeats. */
export class Notifier {
  private readonly sent = new Map<string, { summary: string; repeats: number; stack: string }>();
  private readonly queue: (Finding | Digest)[] = [];
  private inFlight = 0;
  private readonly window: NodeJS.Timeout;
  private idleWaiters: (() => void)[] = [];
  readonly stats = { sent: 0, repeats: 0, dropped: 0, failed: 0 };

  constructor(private readonly o: NotifierOptions) {
    this.window = setInterval(() => this.closeWindow(), o.repeatWindowMs ?? 3_600_000);
    this.window.unref();
  }

  /** Whether anything is configured to receive findings. */
  get active(): boolean {
    return !!(this.o.exec || this.o.webhook);
  }

  /** Takes a report's findings. */
  take(r: FollowReport): void {
    if (!this.active) return;
    for (const f of findingsOf(r)) {
      const key = keyOf(f);
      const seen = this.sent.get(key);
      if (seen) {
        seen.repeats++;
        this.stats.repeats++;
        continue;
      }
      if (this.sent.size < MAX_REMEMBERED) this.sent.set(key, { summary: f.summary, repeats: 0, stack: f.stack });
      this.enqueue(f);
    }
  }

  /** Sends the digest of the repeats counted so far, and forgets what was sent. */
  closeWindow(): void {
    const repeated = [...this.sent.values()].filter((s) => s.repeats > 0);
    this.sent.clear();
    if (!repeated.length) return;
    this.enqueue({
      stack: repeated[0].stack,
      digest: repeated.map(({ summary, repeats }) => ({ summary, repeats })),
      windowSeconds: Math.round((this.o.repeatWindowMs ?? 3_600_000) / 1000),
      at: new Date().toISOString(),
    });
  }

  /** Resolves once nothing is queued or being sent. */
  idle(): Promise<void> {
    if (!this.inFlight && !this.queue.length) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  close(): void {
    clearInterval(this.window);
  }

  private enqueue(m: Finding | Digest): void {
    if (this.queue.length >= MAX_QUEUED) {
      this.stats.dropped++;
      return;
    }
    this.queue.push(m);
    this.pump();
  }

  private pump(): void {
    while (this.inFlight < AT_ONCE && this.queue.length) {
      const m = this.queue.shift()!;
      this.inFlight++;
      void this.send(m)
        .then(
          () => void this.stats.sent++,
          (e: Error) => {
            this.stats.failed++;
            this.o.warn(`sending a finding failed: ${e.message}`);
          },
        )
        .finally(() => {
          this.inFlight--;
          this.pump();
          if (!this.inFlight && !this.queue.length) for (const w of this.idleWaiters.splice(0)) w();
        });
    }
  }

  private async send(m: Finding | Digest): Promise<void> {
    const body = JSON.stringify(m);
    await Promise.all([this.o.exec ? run(this.o.exec, body) : undefined, this.o.webhook ? post(this.o.webhook, body) : undefined]);
  }
}

/** Runs `command` in a shell with `input` on its standard input; fails on a non-zero exit or past the timeout. */
function run(command: string, input: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, { shell: true, stdio: ["pipe", "ignore", "pipe"], timeout: SEND_TIMEOUT_MS });
    let stderr = "";
    child.stderr!.on("data", (d) => (stderr = (stderr + d).slice(-500)));
    child.on("error", reject);
    child.on("close", (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`the command exited ${signal ?? code}${stderr ? `: ${stderr.trim()}` : ""}`)),
    );
    child.stdin!.on("error", () => undefined);
    child.stdin!.end(input);
  });
}

/** POSTs `body` as JSON to `url`; fails on a status other than 2xx. The answer's body is not kept. */
async function post(url: string, body: string): Promise<void> {
  const { request } = await import("undici");
  const res = await request(url, {
    method: "POST",
    body,
    headers: { "content-type": "application/json" },
    headersTimeout: SEND_TIMEOUT_MS,
    bodyTimeout: SEND_TIMEOUT_MS,
  });
  await res.body.dump({ limit: 64 * 1024 });
  if (res.statusCode < 200 || res.statusCode >= 300) throw new Error(`the webhook answered HTTP ${res.statusCode}`);
}
