/**
 * A bounded fuzz of every route (fast-check, fixed seed): random methods, paths, uids, queries,
 * bodies, content types and callers, including the token exchange with random claims. Every
 * answer is below 500 and, when it is an error, a google.rpc.Status from the code table; the
 * server answers a plain request afterwards; and nothing a caller without grants sent changed
 * anything.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { COLLECTIONS, codes } from "../../api";
import { buildUrl, listAll, path, useServer, type Api } from "../support/server";
import { mkGroup, mkIdentity, ok } from "../support/server-helpers";
import { unsigned } from "../support/sts";

const ctx = useServer({ fixtures: {} });
const RUNS = 1500;

/** Every item of every collection, as the organization's owner sees it. */
async function snapshot(api: Api): Promise<string> {
  const all: Record<string, unknown[]> = {};
  for (const name of Object.keys(COLLECTIONS) as (keyof typeof COLLECTIONS)[]) all[name] = await listAll(api, name);
  return JSON.stringify(all);
}

describe("fuzz", () => {
  it(`answers ${RUNS} random requests to every route with a 4xx Status or a 200, never a 5xx`, async () => {
    const org = ctx.server.organization;
    const g = (await mkGroup(ctx.api, org, "fuzz")).uid;
    const id = (await mkIdentity(ctx.api, g, "fuzz-id", {})).uid;
    const stranger = (await mkIdentity(ctx.api, g, "stranger")).uid;
    const strangerToken = await ctx.server.issueToken(stranger);

    const uid = fc.oneof(
      fc.constantFrom(org, g, id, `${g}/0123456789abcdef`, "", "/", "%2F", "..", "x".repeat(300)),
      fc.stringMatching(/^[0-9a-f]{40}(\/[0-9a-f]{16}){0,3}$/),
      fc.string({ maxLength: 60 }),
    );
    const route = fc.oneof(
      fc
        .tuple(fc.constantFrom(...Object.values(COLLECTIONS).map((c) => c.path)), fc.option(uid, { nil: undefined }))
        .map(([p, u]) => (u === undefined ? p : `${p}/${u}`)),
      fc.constantFrom("/auth/sts/exchange", "/auth/.well-known/openid-configuration", "/auth/.well-known/jwks.json", "/", "/iam", "/iam/v2beta1"),
      fc.string({ maxLength: 80 }).map((s) => `/${s}`),
    );
    const queryKey = fc.constantFrom(
      "page_size",
      "pageSize",
      "page_token",
      "order_by",
      "skip",
      "name",
      "updateMask",
      "update_mask",
      "uidp.descendants_of",
      "uidp.children_of",
      "uidp.ancestors_of",
      "uidp.ids",
      "uidp.in_root",
      "aud",
      "identity",
      "__proto__",
      "constructor",
    );
    const query = fc.dictionary(fc.oneof(queryKey, fc.string({ maxLength: 12 })), fc.oneof(uid, fc.string({ maxLength: 40 }), fc.integer().map(String)), {
      maxKeys: 4,
    });
    const body = fc.oneof(
      fc.jsonValue({ maxDepth: 3 }),
      fc.record({ name: fc.string({ maxLength: 300 }), description: fc.string({ maxLength: 50 }) }, { requiredKeys: [] }),
      fc.record({ identityUid: uid, roleUid: uid }, { requiredKeys: [] }),
      fc.record({
        claimMatch: fc.record(
          { issuer: fc.string(), subjectPattern: fc.string({ maxLength: 30 }), claims: fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 1 })) },
          { requiredKeys: [] },
        ),
      }),
    );
    const hostileToken = fc.oneof(
      fc.constantFrom<string | null>(null, strangerToken, "garbage", ""),
      fc.tuple(fc.constantFrom({ alg: "none" }, { alg: "ES256", kid: "x" }, { alg: "HS256" }), fc.jsonValue({ maxDepth: 2 })).map(([h, c]) => unsigned(c, h)),
      fc
        .record(
          {
            iss: fc.oneof(fc.string(), fc.constant("https://a.example")),
            sub: fc.jsonValue({ maxDepth: 1 }),
            aud: fc.jsonValue({ maxDepth: 1 }),
            exp: fc.oneof(fc.integer(), fc.double()),
          },
          { requiredKeys: [] },
        )
        .map((c) => unsigned(c, { alg: "ES256" })),
    );
    const requestWith = (token: fc.Arbitrary<string | null>) =>
      fc.record({
        method: fc.constantFrom("GET", "POST", "PATCH", "DELETE", "PUT", "HEAD", "OPTIONS"),
        route,
        query,
        body: fc.option(body, { nil: undefined }),
        contentType: fc.constantFrom("application/json", "application/x-www-form-urlencoded", "text/plain", "application/json; charset=utf-8"),
        token,
      });
    type Request = ReturnType<typeof requestWith> extends fc.Arbitrary<infer R> ? R : never;

    const failures: string[] = [];
    const known = new Set([...Object.values(codes).map((c) => c.code), 12]);
    const send = async (r: Request) => {
      let url: string;
      try {
        url = buildUrl(ctx.server.url, r.route, r.query);
      } catch {
        return; // not a URL fetch can send
      }
      const headers: Record<string, string> = {};
      if (r.token !== null) headers.authorization = `Bearer ${r.token}`;
      const hasBody = r.body !== undefined && r.method !== "GET" && r.method !== "HEAD";
      if (hasBody) headers["content-type"] = r.contentType;
      const res = await fetch(url, { method: r.method, headers, body: hasBody ? JSON.stringify(r.body) : undefined });
      const text = await res.text();
      const what = `${r.method} ${r.route} ${JSON.stringify(r.query).slice(0, 80)}`;
      if (res.status >= 500) failures.push(`${what}: ${res.status} ${text.slice(0, 200)}`);
      if (res.status >= 400 && r.method !== "HEAD") {
        let b: any;
        try {
          b = JSON.parse(text);
        } catch {
          b = undefined;
        }
        if (!b || !known.has(b.code) || typeof b.message !== "string" || !Array.isArray(b.details))
          failures.push(`${what}: ${res.status} not a Status: ${text.slice(0, 200)}`);
      }
    };

    // Callers with no grants (a stranger, no token, forged or junk tokens) change nothing.
    const before = await snapshot(ctx.api);
    await fc.assert(fc.asyncProperty(requestWith(hostileToken), send), { seed: 11, numRuns: RUNS / 2 });
    expect(await snapshot(ctx.api)).toBe(before);
    // The owner's random requests too get a Status or a 200, never a 5xx.
    await fc.assert(fc.asyncProperty(requestWith(fc.oneof(fc.constant(ctx.server.token), hostileToken)), send), { seed: 12, numRuns: RUNS / 2 });
    expect(failures).toEqual([]);
    expect(ok(await ctx.api.get(path("groups", org))).uid).toBe(org);
  });
});
