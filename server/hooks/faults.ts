/**
 * Test-only fault injection: `server.faults.add({...})` makes the next matching requests fail the
 * way real networks and gateways do.
 * - unavailable: 503 UNAVAILABLE (with Retry-After);
 * - exhausted:   429 RESOURCE_EXHAUSTED with Retry-After;
 * - reset:       the socket is destroyed before the request is handled (nothing changes);
 * - drop-after:  the request is handled (state changes!), then the socket is destroyed unanswered;
 * - delay:       the request is handled after `delayMs`.
 * `path` is a RegExp tested against the path, or a string matching the path or a prefix of it.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { retryLater } from "../errors";
import { record, type RecordedRequest } from "./recording";

/** One fault to inject. */
export interface Fault {
  method?: string;
  path?: string | RegExp;
  /** How many matching requests it applies to (default 1). */
  times?: number;
  action: "unavailable" | "exhausted" | "reset" | "drop-after" | "delay";
  delayMs?: number;
  retryAfterSeconds?: number;
}

/** The faults armed on a server. */
export class Faults {
  private armed: (Fault & { left: number })[] = [];

  /** Arms a fault. */
  add(fault: Fault): void {
    this.armed.push({ ...fault, left: fault.times ?? 1 });
  }

  /** Disarms every fault. */
  clear(): void {
    this.armed = [];
  }

  /** The first armed fault matching the request, used up by one. */
  take(method: string, path: string): Fault | undefined {
    const i = this.armed.findIndex(
      (f) =>
        (!f.method || f.method.toUpperCase() === method) && (f.path === undefined || (f.path instanceof RegExp ? f.path.test(path) : path.startsWith(f.path))),
    );
    if (i < 0) return undefined;
    const f = this.armed[i];
    if (--f.left <= 0) this.armed.splice(i, 1);
    return f;
  }
}

const dropping = new WeakSet<FastifyRequest>();

/** Installs the fault hooks (before authentication, like a gateway in front of the API). */
export function installFaults(app: FastifyInstance, faults: Faults, requests: RecordedRequest[]): void {
  app.addHook("onRequest", async (req, reply) => {
    const f = faults.take(req.method, req.url.split("?")[0]);
    if (!f) return;
    switch (f.action) {
      case "unavailable":
        throw retryLater("UNAVAILABLE", "injected fault: the service is unavailable", f.retryAfterSeconds ?? 1);
      case "exhausted":
        throw retryLater("RESOURCE_EXHAUSTED", "injected fault: too many requests", f.retryAfterSeconds ?? 1);
      case "reset":
        record(requests, req, 0);
        reply.hijack();
        req.raw.socket.destroy();
        return;
      case "drop-after":
        dropping.add(req);
        return;
      case "delay":
        await new Promise((r) => setTimeout(r, f.delayMs ?? 100));
        return;
    }
  });
  app.addHook("onSend", async (req, reply, payload) => {
    if (!dropping.has(req)) return payload;
    record(requests, req, reply.statusCode);
    req.raw.socket.destroy();
    return payload;
  });
}
