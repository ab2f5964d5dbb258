/**
 * Event delivery (server/delivery): how soon a change reaches a subscription's sink, and what
 * delivering costs the API. Three servers side by side, in alternating rounds: one without a
 * subscription, one with a subscription whose sink answers at once, and one that also has a sink
 * that never answers. Each round creates groups one at a time; from the moment each request is
 * sent, the figures are the time to the API's answer and to the event's arrival at the live sink.
 * Then a burst: writes sent 16 at a time, and the time until the sink has every event.
 *
 * The sinks are plain http on loopback, seeded straight into the store (the API takes https
 * sinks only) and reached with `allowPrivateSinks`; each delivery is signed as always.
 */
import { randomBytes } from "node:crypto";
import http from "node:http";
import net from "node:net";
import { startServer, type RunningServer } from "../server";
import { median, runWhenMain } from "./side-by-side";

const ROUNDS = 7;
const PER_ROUND = 40;
const BURST = 1000;
const BURST_CONCURRENCY = 16;

/** A sink that answers 200 at once and notes when each event (by subject) arrived. */
async function liveSink(): Promise<{ url: string; arrived: Map<string, number>; wait(subject: string): Promise<number>; close(): Promise<void> }> {
  const arrived = new Map<string, number>();
  const waiting = new Map<string, (t: number) => void>();
  const srv = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const t = performance.now();
      const subject = String(req.headers["ce-subject"]);
      arrived.set(subject, t);
      waiting.get(subject)?.(t);
      res.end();
    });
  });
  await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(srv.address() as net.AddressInfo).port}/hook`,
    arrived,
    wait: (subject) => {
      const t = arrived.get(subject);
      return t !== undefined ? Promise.resolve(t) : new Promise((r) => waiting.set(subject, r));
    },
    close: () => new Promise((r) => (srv.closeAllConnections(), srv.close(() => r()))),
  };
}

/** A sink that accepts connections and never answers. */
async function deadSink(): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const srv = net.createServer((s) => (sockets.add(s), s.on("error", () => {})));
  await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(srv.address() as net.AddressInfo).port}/hook`,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise((r) => srv.close(() => r()));
    },
  };
}

/** A server whose organization has subscriptions with these sinks. */
function serverWith(sinks: string[]): Promise<RunningServer> {
  return startServer({
    delivery: { allowPrivateSinks: true, requestTimeoutMs: 600_000 },
    seed: (store, org) => {
      for (const sink of sinks) store.subscriptions.insert({ uid: `${org}/${randomBytes(8).toString("hex")}`, sink });
    },
  });
}

/** Creates a group; the ms from sending to the answer, and its uid. */
async function create(s: RunningServer, name: string): Promise<{ uid: string; sent: number; answered: number }> {
  const sent = performance.now();
  const res = await fetch(`${s.url}/iam/v2beta1/groups/${s.organization}`, {
    method: "POST",
    headers: { authorization: `Bearer ${s.token}`, "content-type": "application/json" },
    body: JSON.stringify({ name }),
  });
  const body = (await res.json()) as { uid?: string };
  if (res.status !== 200 || !body.uid) throw new Error(`create failed: ${res.status} ${JSON.stringify(body)}`);
  return { uid: body.uid, sent, answered: performance.now() - sent };
}

const ms = (x: number) => `${x.toFixed(2)} ms`;
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.95)];

/** Runs the benchmark and returns its report. */
export async function runDeliveryBench(): Promise<string> {
  const live = await liveSink();
  const live2 = await liveSink();
  const dead = await deadSink();
  const servers: [string, RunningServer, typeof live | undefined][] = [
    ["no subscription", await serverWith([]), undefined],
    ["one live sink", await serverWith([live.url]), live],
    ["a live sink and a dead one", await serverWith([live2.url, dead.url]), live2],
  ];
  const answers = new Map<string, number[]>(servers.map(([n]) => [n, []]));
  const arrivals = new Map<string, number[]>(servers.map(([n]) => [n, []]));
  try {
    for (let round = 0; round < ROUNDS + 1; round++)
      for (const [name, s, sink] of servers)
        for (let i = 0; i < PER_ROUND; i++) {
          const c = await create(s, `r${round}-${i}`);
          const arrived = sink ? (await sink.wait(c.uid)) - c.sent : undefined;
          if (round === 0) continue; // warm-up
          answers.get(name)!.push(c.answered);
          if (arrived !== undefined) arrivals.get(name)!.push(arrived);
        }
    // A burst against the live sink's server.
    const [, s, sink] = servers[1];
    const before = s.deliveryStats();
    const t0 = performance.now();
    const uids: string[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: BURST_CONCURRENCY }, async () => {
        while (next < BURST) uids.push((await create(s, `burst-${next++}`)).uid);
      }),
    );
    const written = performance.now() - t0;
    await Promise.all(uids.map((u) => sink!.wait(u)));
    const delivered = performance.now() - t0;
    // The sink hears an event a moment before the server counts its answer.
    while (s.deliveryStats().delivered - before.delivered < BURST) await new Promise((r) => setTimeout(r, 5));
    const stats = s.deliveryStats();
    const lines = [
      "## Event delivery",
      "",
      `Groups created one at a time, ${ROUNDS} alternating rounds of ${PER_ROUND} per server (after one warm-up round); times from sending each request.`,
      "",
      "| server | answer, median | answer, p95 | event at the live sink, median | event at the live sink, p95 |",
      "|---|---|---|---|---|",
      ...servers.map(([n]) => {
        const a = answers.get(n)!;
        const d = arrivals.get(n)!;
        return `| ${n} | ${ms(median(a))} | ${ms(p95(a))} | ${d.length ? ms(median(d)) : "-"} | ${d.length ? ms(p95(d)) : "-"} |`;
      }),
      "",
      `Burst: ${BURST} creates, ${BURST_CONCURRENCY} at a time, written in ${ms(written)}; every event at the sink ${ms(delivered)} after the first request (${stats.delivered - before.delivered} delivered, ${stats.dropped - before.dropped} dropped).`,
    ];
    return lines.join("\n");
  } finally {
    for (const [, s] of servers) await s.close();
    await Promise.all([live.close(), live2.close(), dead.close()]);
  }
}

runWhenMain(module, runDeliveryBench);
