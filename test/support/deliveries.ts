/**
 * Deliveries of the platform's events as its webhook component sends them, signed by a test
 * issuer (./oidc-issuer.ts), for the tests of `irv drift --follow`: a binary-mode CloudEvent
 * (`ce-*` headers), the occurrence (`{actor, body}`) as the body, and a token whose subject is
 * `webhook:<group>`, audience `customer`, and `webhook.digest` the body's sha-256, as the SDK's
 * receiver (`chainguard.dev/sdk/events/receiver`) expects them.
 *
 *   const d = deliverer(issuer, org);
 *   const res = await d.send(url, { type, subject: uid, body: { uid } });
 *   const stop = d.forward(server, url);   // every committed change of irv-server, delivered
 */
import { createHash, randomUUID } from "node:crypto";
import type { JWTPayload } from "jose";
import type { RunningServer } from "../../server";
import { isSelfOrAncestor } from "../../api/uid";
import type { OidcIssuer } from "./oidc-issuer";

/** One event to deliver. */
export interface EventSpec {
  type: string;
  subject?: string;
  body?: unknown;
  actor?: string;
  id?: string;
  group?: string;
}

/** How to tamper with one delivery. */
export interface Tamper {
  /** Claims over the token's (`sub`, `aud`, `webhook`). */
  claims?: JWTPayload;
  /** Sign with a key the issuer does not publish. */
  forged?: boolean;
  /** No Authorization header. */
  noToken?: boolean;
  /** This token instead. */
  token?: string;
  /** Headers over the CloudEvent's (`ce-specversion: undefined` drops it). */
  headers?: Record<string, string | undefined>;
  /** Send this body instead of the one signed. */
  body?: string;
  /** Token lifetime in seconds. */
  expiresIn?: number;
}

/** A delivery as sent, and the answer. */
export interface Sent {
  status: number;
  text: string;
  token: string;
  body: string;
  headers: Record<string, string>;
}

export const digest = (b: string): string => `sha256:${createHash("sha256").update(b).digest("hex")}`;

/** A sender of `group`'s deliveries signed by `issuer`. */
export function deliverer(issuer: OidcIssuer, group: string) {
  const build = async (e: EventSpec, t: Tamper = {}) => {
    const body = JSON.stringify({ ...(e.actor ? { actor: { subject: e.actor } } : {}), body: e.body ?? {} });
    const claims = { sub: `webhook:${group}`, aud: "customer", webhook: { digest: digest(body) }, ...t.claims };
    const token = t.token ?? (t.forged ? await issuer.signForeign(claims, { expiresIn: t.expiresIn }) : await issuer.sign(claims, { expiresIn: t.expiresIn }));
    const headers: Record<string, string | undefined> = {
      "content-type": "application/json",
      "ce-specversion": "1.0",
      "ce-id": e.id ?? randomUUID(),
      "ce-source": "https://api.irv.test/events",
      "ce-type": e.type,
      ...(e.subject ? { "ce-subject": e.subject } : {}),
      "ce-time": new Date().toISOString(),
      "ce-group": e.group ?? group,
      "ce-chainguarddev1delivery": "webhook",
      ...(t.noToken ? {} : { authorization: `Bearer ${token}` }),
      ...t.headers,
    };
    return { body: t.body ?? body, token, headers: Object.fromEntries(Object.entries(headers).filter((x): x is [string, string] => x[1] !== undefined)) };
  };
  const post = async (url: string, d: { body: string; token: string; headers: Record<string, string> }): Promise<Sent> => {
    const res = await fetch(url, { method: "POST", headers: d.headers, body: d.body });
    return { status: res.status, text: await res.text(), ...d };
  };
  return {
    build,
    post,
    /** Signs and POSTs one event to `url`. */
    send: async (url: string, e: EventSpec, t: Tamper = {}): Promise<Sent> => post(url, await build(e, t)),
    /**
     * Delivers every change `server` commits in `group`'s subtree to `url`, as the platform's
     * webhook component would; returns what stops it and the statuses answered so far.
     */
    forward(server: RunningServer, url: () => string | undefined) {
      const answered: number[] = [];
      let chain = Promise.resolve();
      const stop = server.changes.subscribe((c) => {
        if (!isSelfOrAncestor(group, c.group)) return;
        chain = chain.then(async () => {
          const to = url();
          if (!to) return;
          try {
            const sent = await this.send(to, { type: c.type, subject: c.uid, body: c.item ?? { uid: c.uid }, actor: c.subject, group: c.group });
            answered.push(sent.status);
          } catch {
            answered.push(0);
          }
        });
      });
      return { stop, answered, settled: () => chain };
    },
  };
}
