/**
 * The SDK's own webhook receiver (test/tools/cmd/receiver: chainguard.dev/sdk/events/receiver),
 * run as a process that prints one JSON line per request it answered.
 *
 *   const dir = await receiverCert();                     // its self-signed certificate, once
 *   const server = await startServer({ delivery: { allowPrivateSinks: true, ca: certOf(dir) } });
 *   const r = await startReceiver({ issuer: server.authUrl, group: org, dir });
 *   ... make a subscription whose sink is r.url ...
 *   const line = await r.next((l) => l.type === "dev.chainguard.api.iam.group.created.v1");
 *   r.close();
 */
import { execFile, spawn } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { goTool } from "./tools";

/** One line of the receiver: a request it answered. */
export interface ReceiverLine {
  status: number;
  id: string;
  type?: string;
  source?: string;
  subject?: string;
  group?: string;
  bodytype?: string;
  subscription?: string;
  actor?: string;
  body?: Record<string, unknown>;
  decodeError?: string;
  failedOnPurpose?: boolean;
  error?: string;
}

/** A running receiver. */
export interface Receiver {
  /** Its https address: a subscription's sink. */
  url: string;
  /** Every line so far, in order. */
  lines: ReceiverLine[];
  /** The first line (from the start) matching `pred`, once it arrives; fails after `ms` (generous: CI is loaded). */
  next(pred: (l: ReceiverLine) => boolean, what?: string, ms?: number): Promise<ReceiverLine>;
  close(): void;
}

/** A folder with a fresh self-signed certificate for 127.0.0.1 (cert.pem, key.pem). */
export async function receiverCert(): Promise<string> {
  const dir = mkdtempSync(path.join(tmpdir(), "irv-receiver-"));
  await new Promise<void>((resolve, reject) => execFile(goTool("receiver"), ["cert", "-dir", dir], (e) => (e ? reject(e) : resolve())));
  return dir;
}

/** The certificate of `dir` (PEM): what irv-server must trust to deliver to the receiver. */
export function certOf(dir: string): string {
  return readFileSync(path.join(dir, "cert.pem"), "utf8");
}

/** Starts a receiver that accepts deliveries signed by `issuer` for `group`. */
export async function startReceiver(o: { issuer: string; group: string; dir: string; failFirst?: number }): Promise<Receiver> {
  const args = ["serve", "-issuer", o.issuer, "-group", o.group, "-dir", o.dir, "-fail-first", String(o.failFirst ?? 0)];
  const child = spawn(goTool("receiver"), args, { stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => void (stderr += d.toString()));
  const lines: ReceiverLine[] = [];
  const waiters = new Set<() => void>();
  let url: string | undefined;
  let exited = false;
  createInterface({ input: child.stdout }).on("line", (l) => {
    const v = JSON.parse(l) as ReceiverLine & { listening?: string };
    if (v.listening) url = v.listening;
    else lines.push(v);
    for (const w of waiters) w();
  });
  child.on("exit", () => {
    exited = true;
    for (const w of waiters) w();
  });
  const until = <T>(found: () => T | undefined, what: string, ms: number) =>
    new Promise<T>((resolve, reject) => {
      const check = () => {
        const v = found();
        if (v !== undefined) done(() => resolve(v));
        else if (exited) done(() => reject(new Error(`the receiver exited before ${what}: ${stderr}`)));
      };
      const timer = setTimeout(() => done(() => reject(new Error(`no ${what} within ${ms} ms; lines: ${JSON.stringify(lines)}`))), ms);
      const done = (f: () => void) => {
        clearTimeout(timer);
        waiters.delete(check);
        f();
      };
      waiters.add(check);
      check();
    });
  const started = await until(() => url, "listening line", 60_000);
  return {
    url: started,
    lines,
    next: (pred, what = "matching delivery", ms = 60_000) => until(() => lines.find(pred), what, ms),
    close: () => void child.kill(),
  };
}
