/**
 * The receiver of `irv drift --follow` (cli/follow/receiver.ts, verify.ts) over HTTP, with
 * deliveries signed by a test issuer on 127.0.0.1 in the SDK's format: what the SDK's receiver
 * accepts is accepted, and each refusal answers the status the SDK's receiver answers (400 not a
 * CloudEvent, 401 no token, 403 a token that does not verify or is not for this group and body),
 * with 413 for an oversized body and 403 for a replayed token; nothing refused reaches the follower.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startReceiver, type Receiver } from "../../cli/follow/receiver";
import { DeliveryVerifier, type VerifiedEvent } from "../../cli/follow/verify";
import { changeOf } from "../../cli/follow/events";
import { deliverer, digest } from "../support/deliveries";
import { startOidcIssuer, type OidcIssuer } from "../support/oidc-issuer";

const GROUP = "d2020cd12118237dcd06214184a6d17c1f831a08";
const OTHER = "7c9e6679742f4b2ea1c0ff1d3a6b5e04aaaaaaaa";
const TYPE = "dev.chainguard.api.iam.group.updated.v1";

describe("the follow receiver verifies deliveries as the SDK's receiver does", () => {
  let issuer: OidcIssuer;
  let receiver: Receiver;
  const accepted: VerifiedEvent[] = [];
  const refused: [number, string][] = [];
  let verifier: DeliveryVerifier;
  let d: ReturnType<typeof deliverer>;
  beforeAll(async () => {
    issuer = await startOidcIssuer();
    verifier = await DeliveryVerifier.create({ issuer: issuer.url, group: GROUP, maxRemembered: 50 });
    receiver = await startReceiver({
      verifier,
      host: "127.0.0.1",
      port: 0,
      path: "/events",
      maxBody: 4096,
      accepted: (e) => accepted.push(e),
      refused: (s, r) => refused.push([s, r]),
      health: () => ({ ready: true }),
    });
    d = deliverer(issuer, GROUP);
  });
  afterAll(async () => {
    await receiver?.close();
    await issuer?.close();
  });
  const url = () => `${receiver.url}/events`;
  const uid = `${GROUP}/0123456789abcdef`;

  it("accepts a verified delivery and reads the change it announces", async () => {
    const before = accepted.length;
    const sent = await d.send(url(), { type: TYPE, subject: uid, body: { uid, name: "eng" }, actor: `${GROUP}/feedfacefeedface` });
    expect(sent.status).toBe(200);
    expect(accepted.length).toBe(before + 1);
    const e = accepted[accepted.length - 1];
    expect(e).toMatchObject({ type: TYPE, subject: uid, extensions: { group: GROUP } });
    expect(digest(e.data.toString())).toBe(digest(sent.body));
    expect(changeOf(e)).toEqual({ kind: "groups", action: "updated", uid, actor: `${GROUP}/feedfacefeedface` });
    // Discovery once, keys once, however many deliveries.
    expect(issuer.hits.discovery).toBe(1);
  });

  it.each<[string, Parameters<typeof d.send>[2], number, RegExp]>([
    ["no Authorization header", { noToken: true }, 401, /Unauthorized/],
    ["a forged signature", { forged: true }, 403, /unable to verify token: signature verification failed/],
    ["an expired token", { expiresIn: -60 }, 403, /unable to verify token: token is expired/],
    ["another audience", { claims: { aud: "internal" } }, 403, /unable to verify token: aud claim check failed/],
    ["another issuer", { claims: { iss: "https://issuer.example" } }, 403, /unable to verify token: iss claim check failed/],
    ["a subject not from the webhook component", { claims: { sub: `user:${GROUP}` } }, 403, /subject should be from the Chainguard webhook component/],
    ["a token for another group", { claims: { sub: `webhook:${OTHER}` } }, 403, /this token is intended for "7c9e/],
    ["a token without the webhook claims", { claims: { webhook: undefined } }, 403, /does not contain the Chainguard custom webhook claims/],
    ["a body the token's digest does not name", { body: JSON.stringify({ body: { uid, name: "evil" } }) }, 403, /intended for a message with digest/],
    ["no ce-specversion (not a CloudEvent)", { headers: { "ce-specversion": undefined } }, 400, /not a well-formed CloudEvent/],
    ["no ce-id", { headers: { "ce-id": undefined } }, 400, /no ce-id header/],
    ["a Basic credential", { headers: { authorization: "Basic dXNlcjpwYXNz" } }, 403, /unable to verify token/],
  ])("refuses %s", async (_, tamper, status, reason) => {
    const before = accepted.length;
    const sent = await d.send(url(), { type: TYPE, subject: uid, body: { uid } }, tamper);
    expect(sent.status).toBe(status);
    expect(sent.text).toMatch(reason);
    expect(refused[refused.length - 1]).toEqual([status, expect.stringMatching(reason)]);
    expect(accepted.length).toBe(before);
  });

  it("refuses a replayed delivery, and one replayed under a new event id", async () => {
    const first = await d.build({ type: TYPE, subject: uid, body: { uid } });
    expect((await d.post(url(), first)).status).toBe(200);
    const before = accepted.length;
    const again = await d.post(url(), first);
    expect(again.status).toBe(403);
    expect(again.text).toMatch(/already used/);
    const renamed = await d.post(url(), { ...first, headers: { ...first.headers, "ce-id": "another-id" } });
    expect(renamed.status).toBe(403);
    expect(accepted.length).toBe(before);
  });

  it("refuses an oversized body with 413, declared or streamed, before reading it", async () => {
    const big = JSON.stringify({ body: { uid, pad: "x".repeat(8192) } });
    const token = await issuer.sign({ sub: `webhook:${GROUP}`, aud: "customer", webhook: { digest: digest(big) } });
    const before = accepted.length;
    const declared = await d.send(url(), { type: TYPE, subject: uid }, { token, body: big });
    expect(declared.status).toBe(413);
    // Streamed without a length: cut off once it passes the bound.
    const stream = new ReadableStream({
      start(c) {
        for (let i = 0; i < 16; i++) c.enqueue(new TextEncoder().encode("y".repeat(1024)));
        c.close();
      },
    });
    const res = await fetch(url(), { method: "POST", headers: { ...(await d.build({ type: TYPE })).headers }, body: stream, duplex: "half" } as RequestInit);
    expect(res.status).toBe(413);
    expect(accepted.length).toBe(before);
  });

  it("answers GET /healthz, 404 elsewhere, 405 to other methods", async () => {
    expect((await fetch(`${receiver.url}/healthz`)).status).toBe(200);
    expect(await (await fetch(`${receiver.url}/healthz`)).json()).toEqual({ ready: true });
    expect((await fetch(`${receiver.url}/elsewhere`, { method: "POST" })).status).toBe(404);
    expect((await fetch(url(), { method: "PUT" })).status).toBe(405);
  });

  it("remembers a bounded number of tokens", async () => {
    for (let i = 0; i < 80; i++) expect((await d.send(url(), { type: TYPE, subject: uid, body: { uid, i } })).status).toBe(200);
    expect(verifier.remembered).toBeLessThanOrEqual(50);
  });

  it("reads no change from an event of a type no kind emits, or without a uid", () => {
    const e = (type: string, subject?: string): VerifiedEvent => ({
      id: "1",
      type,
      source: "s",
      specversion: "1.0",
      extensions: {},
      data: Buffer.from("{}"),
      ...(subject ? { subject } : {}),
    });
    expect(changeOf(e("dev.chainguard.registry.push.v1", uid))).toBeUndefined();
    expect(changeOf(e(TYPE))).toBeUndefined();
    expect(changeOf(e(TYPE, "../../etc"))).toBeUndefined();
    expect(changeOf(e("dev.chainguard.api.iam.rolebindings.created.v1", uid))).toMatchObject({ kind: "roleBindings", action: "created" });
  });
});
