#!/usr/bin/env node
/**
 * `irv-server`: runs the reference server until SIGINT/SIGTERM. Prints exactly one JSON line on
 * stdout once listening: {"url","authUrl","organization","token"}; logs go to stderr.
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { startServer } from "./index";

const HELP = `Usage: irv-server [options]

  --port <n>                 port to listen on (default 0: any free port)
  --host <addr>              address to bind (default 127.0.0.1)
  --fixtures <file.json>     repos, tags, advisories and groups to load (default: built-in sample)
  --organization-name <name> name of the root group (default "acme")
  --data-dir <dir>           keep everything in <dir> and recover it on restart (same
                             organization, uids and signing key); every write is on disk
                             before it is answered. Default: memory only
                             Needs Node 22.13 or newer (its lock is node:sqlite's)
  --compact-after <bytes>    with --data-dir: fold the journal into a new snapshot once it
                             grows past this size (default: max(8 MiB, last snapshot))
  --recover-journal          with --data-dir: start from the records before a damaged one in
                             the middle of the journal (a start refuses such a journal); the
                             damaged journal is kept as it is, renamed
                             journal-<n>.log.damaged-<time>
  --registry-host <host>     the container registry host: the audience of registry tokens
                             (default: this server's own host:port, which serves /v2/)
  --allow-private-issuers    let token exchanges fetch OIDC discovery and keys from private,
                             loopback and link-local addresses (and plain http on loopback):
                             for test issuers on this machine. Default: https, public only
  --allow-private-sinks      deliver events to subscriptions' sinks on private, loopback and
                             link-local addresses (and plain http on loopback): for a receiver
                             on this machine. Default: https, public addresses only
  --delivery-ca <file.pem>   certificates to trust for sinks, beside the system's (a receiver's
                             self-signed certificate)
  --delivery-backoff <ms>    the wait before retrying a failed delivery, doubled for each
                             further retry, with jitter (default 1000)
  --delivery-max-backoff <ms>  the longest wait between two attempts (default 60000)
  --delivery-attempts <n>    attempts per event and subscription (default 8)
  --delivery-timeout <ms>    one delivery's bound, connection to answer (default 10000)
  --delivery-queue <n>       events queued per subscription; past it new ones are dropped
                             (default 1000)
  --delivery-queue-total <n> events queued for all subscriptions together (default 10000)
  --request-timeout <ms>     a request's headers and body must arrive within this (default
                             30000; then 408 and the connection closes)
  --max-connections <n>      connections past this are closed at once (default 1024)
  --staff                    declare the platform's own staff: an identity outside the
                             organization holding the capabilities only the platform's staff
                             hold (changing or clearing a repo's deployment); the start line
                             then carries its token as "staffToken"
  --quiet                    no request logs on stderr
  --help                     this text

Prints one JSON line on stdout when listening: {"url","authUrl","organization","token"}
(and "staffToken" with --staff).
`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: "string", default: "0" },
      host: { type: "string", default: "127.0.0.1" },
      fixtures: { type: "string" },
      "organization-name": { type: "string" },
      "data-dir": { type: "string" },
      "compact-after": { type: "string" },
      "recover-journal": { type: "boolean", default: false },
      "registry-host": { type: "string" },
      "allow-private-issuers": { type: "boolean", default: false },
      "allow-private-sinks": { type: "boolean", default: false },
      "delivery-ca": { type: "string" },
      "delivery-backoff": { type: "string" },
      "delivery-max-backoff": { type: "string" },
      "delivery-attempts": { type: "string" },
      "delivery-timeout": { type: "string" },
      "delivery-queue": { type: "string" },
      "delivery-queue-total": { type: "string" },
      "request-timeout": { type: "string" },
      "max-connections": { type: "string" },
      staff: { type: "boolean", default: false },
      quiet: { type: "boolean", default: false },
      help: { type: "boolean", default: false },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(HELP);
    return;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be 0-65535, not ${values.port}`);
  const compactAfter = values["compact-after"] === undefined ? undefined : Number(values["compact-after"]);
  if (compactAfter !== undefined && !(Number.isInteger(compactAfter) && compactAfter >= 0))
    throw new Error(`--compact-after must be a number of bytes, not ${values["compact-after"]}`);
  const positive = (
    flag: "request-timeout" | "max-connections" | `delivery-${"backoff" | "max-backoff" | "attempts" | "timeout" | "queue" | "queue-total"}`,
  ) => {
    const v = values[flag];
    if (v === undefined) return undefined;
    if (!/^[1-9]\d{0,8}$/.test(v)) throw new Error(`--${flag} must be a positive integer, not ${v}`);
    return Number(v);
  };
  const server = await startServer({
    connections: { requestTimeoutMs: positive("request-timeout"), maxConnections: positive("max-connections") },
    port,
    host: values.host,
    fixtures: values.fixtures,
    organizationName: values["organization-name"],
    dataDir: values["data-dir"],
    compactAfterBytes: compactAfter,
    recoverJournal: values["recover-journal"],
    registryHost: values["registry-host"],
    allowPrivateIssuers: values["allow-private-issuers"],
    staff: values.staff,
    delivery: {
      allowPrivateSinks: values["allow-private-sinks"],
      ca: values["delivery-ca"] === undefined ? undefined : readFileSync(values["delivery-ca"], "utf8"),
      initialBackoffMs: positive("delivery-backoff"),
      maxBackoffMs: positive("delivery-max-backoff"),
      maxAttempts: positive("delivery-attempts"),
      requestTimeoutMs: positive("delivery-timeout"),
      maxQueuedPerSink: positive("delivery-queue"),
      maxQueued: positive("delivery-queue-total"),
    },
    logger: !values.quiet,
    record: false,
  });
  const { url, authUrl, organization, token, staffToken } = server;
  process.stdout.write(`${JSON.stringify({ url, authUrl, organization, token, staffToken })}\n`);
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    server.close().then(
      () => process.exit(0),
      (e: Error) => (process.stderr.write(`irv-server: ${e.message}\n`), process.exit(1)),
    );
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  // npm (`npx irv-server`, `npm run server`) starts a bin through `sh -c`, which does not pass on
  // the signal npm forwards when it is killed: the shell exits and the server would run on,
  // orphaned. Started by npm, the server stops as on SIGTERM once the process that started it is gone.
  if (process.env.npm_lifecycle_event !== undefined) {
    const parent = process.ppid;
    setInterval(() => process.ppid !== parent && stop(), 250).unref();
  }
}

main().catch((err: Error) => {
  process.stderr.write(`irv-server: ${err.message}\n`);
  process.exit(2);
});
