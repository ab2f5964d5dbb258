/**
 * What an unauthenticated token exchange costs does not follow what the organization's owners
 * configured: the work is counted (patterns run, their steps, key-set bytes parsed, fetches), never
 * timed. Owners' configurations are generated (fast-check, fixed seed); heavy patterns and key sets
 * are refused at write, naming the field.
 */
import { createSign, generateKeyPairSync } from "node:crypto";
import fc from "fast-check";
import { SignJWT, exportJWK, generateKeyPair, type JWK } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { PATTERN_MAX_INSTRUCTIONS } from "../../api/fields";
import { ISSUER_KEYS_MAX, ISSUER_KEYS_MAX_CHARS } from "../../api/jwk";
import { ISSUER_MAX } from "../../server/auth/external-token";
import { ISSUER_PATTERNS_MAX_INSTRUCTIONS, STATIC_KEYS_PER_ISSUER } from "../../server/auth/trusted-issuers";
import { path, useServer, type ApiResponse } from "../support/server";
import { exchange, soon, unsigned } from "../support/sts";
import { workDuring } from "../support/work";
import { expectError, expectFieldViolation, mkGroup, ok } from "../support/server-helpers";

const ctx = useServer({ fixtures: {} });
let group: string;
beforeAll(async () => {
  group = (await mkGroup(ctx.api, ctx.server.organization, "cost")).uid;
});

const create = (body: object) => ctx.api.post(path("identities", group), { name: "cost-id", ...body });
const later = () => new Date(Date.now() + 86_400_000).toISOString();
const ecKey = async (kid: string): Promise<JWK> => ({ ...(await exportJWK((await generateKeyPair("ES256")).publicKey)), kid, alg: "ES256" });
const keySet = (keys: JWK[]) => JSON.stringify({ keys });

/** The work one exchange did. */
const workOf = async (run: () => Promise<unknown>) => (await workDuring(ctx.server, run)).work;

/** Removes every identity of the test group. */
async function clear(): Promise<void> {
  const res = ok(await ctx.api.get(path("identities"), { "uidp.children_of": group, page_size: 1000 }));
  for (const i of res.identities) ok(await ctx.api.del(path("identities", i.uid)));
}

/** What an owner may configure: heavy and light issuer patterns, exact issuers, static key sets. */
const identityBody = fc.oneof(
  fc.record({ k: fc.integer({ min: 1, max: 400 }), tail: fc.string({ maxLength: 4 }) }).map(({ k, tail }) => ({
    claimMatch: { issuerPattern: `(?:.*a){${k}}b${tail.replace(/[^a-z0-9]/g, "")}`, subject: "s" },
  })),
  fc.constantFrom("https://token\\.actions\\.githubusercontent\\.com", ".*", "https://[a-z]+\\.example\\.com/.*", "(.*.*.*.*.*)+x").map((p) => ({
    claimMatch: { issuerPattern: p, subject: "s" },
  })),
  fc.webUrl({ validSchemes: ["https"] }).map((issuer) => ({ claimMatch: { issuer, subject: "s" } })),
  fc.integer({ min: 1, max: 3 }).map((n) => ({ staticKeys: { n } })),
);

describe("unauthenticated exchange cost does not follow the organization's configuration", () => {
  it("stays within one fixed bound, parses no key set and fetches at most once, for any configuration", async () => {
    const bound = ISSUER_PATTERNS_MAX_INSTRUCTIONS * ISSUER_MAX;
    await fc.assert(
      fc.asyncProperty(fc.array(identityBody, { maxLength: 8 }), fc.string({ minLength: 1, maxLength: 8 }), async (bodies, salt) => {
        await clear();
        const uids: string[] = [];
        for (const [i, b] of bodies.entries()) {
          const body =
            "staticKeys" in b
              ? {
                  staticKeys: {
                    issuer: "https://static.example",
                    subject: "s",
                    expirationTime: later(),
                    issuerKeys: keySet(await Promise.all(Array.from({ length: b.staticKeys.n }, (_, j) => ecKey(`k${i}-${j}`)))),
                  },
                }
              : b;
          const res = await create(body);
          // Whatever is refused is refused by a rule naming the field, never by a 500.
          if (res.status === 200) uids.push(res.body.uid);
          else expectError(res, "INVALID_ARGUMENT");
        }
        const target = uids[0] ?? `${group}/0123456789abcdef`;
        // A fresh issuer of the longest length looked at, made of the letters heavy patterns chew on.
        const iss = `https://${salt.replace(/[^a-z]/g, "")}${"a".repeat(ISSUER_MAX - 20)}`.slice(0, ISSUER_MAX);
        const token = unsigned({ iss, sub: "s", aud: ctx.server.url, exp: soon() });
        const first = await workOf(async () => expect((await exchange(ctx, token, target)).status).not.toBe(200));
        expect(first.exchangePatternSteps).toBeLessThanOrEqual(bound);
        expect(first.exchangeKeySetBytesParsed).toBe(0);
        // At most one discovery, when an owner trusts every issuer (a pattern such as `.*`).
        expect(first.exchangeFetches).toBeLessThanOrEqual(1);
        // The same issuer again is not matched again.
        const again = await workOf(() => exchange(ctx, token, target));
        expect(again.exchangePatternRuns).toBe(0);
        // A token for the static issuer, signed by a key nobody trusts, parses nothing either.
        const { privateKey } = await generateKeyPair("ES256");
        const foreign = await new SignJWT({ sub: "s", aud: ctx.server.url })
          .setProtectedHeader({ alg: "ES256" })
          .setIssuer("https://static.example")
          .setExpirationTime("5m")
          .sign(privateKey);
        const statics = await workOf(() => exchange(ctx, foreign, target));
        expect(statics.exchangeKeySetBytesParsed).toBe(0);
        expect(statics.exchangeFetches).toBeLessThanOrEqual(1);
      }),
      { numRuns: 12, seed: 19 },
    );
  });

  it("costs exactly the same with 0 and with 200 more exact-issuer and static-keys identities", async () => {
    await clear();
    const heavy = ok(await create({ claimMatch: { issuerPattern: "(?:.*a){150}b", subject: "s" } })).uid;
    let probes = 0;
    const probe = async () => {
      const iss = `https://${String.fromCharCode(99 + probes++)}${"a".repeat(2000)}`;
      return workOf(() => exchange(ctx, unsigned({ iss, sub: "s", aud: ctx.server.url, exp: soon() }), heavy));
    };
    const alone = await probe();
    expect(alone.exchangePatternRuns).toBe(1);
    const keys = keySet([await ecKey("shared")]);
    for (let i = 0; i < 100; i++) {
      ok(await create({ claimMatch: { issuer: `https://issuer-${i}.example.com`, subject: "s" } }));
      ok(await create({ staticKeys: { issuer: `https://static-${i}.example.com`, subject: "s", issuerKeys: keys, expirationTime: later() } }));
    }
    const crowded = await probe();
    expect(crowded).toEqual(alone);
  });
});

describe("heavy configuration is refused at write, naming the field", () => {
  it("refuses a pattern that compiles to more instructions than one may", async () => {
    const res = await create({ claimMatch: { issuerPattern: "(?:.*a){1000}b1", subject: "s" } });
    const v = expectFieldViolation(res, "claimMatch.issuerPattern").find((x) => x.field === "claimMatch.issuerPattern")!;
    expect(v.description).toContain(`at most ${PATTERN_MAX_INSTRUCTIONS}`);
    expectFieldViolation(await create({ claimMatch: { issuer: "https://i.example", subjectPattern: "(?:.*a){1000}b1" } }), "claimMatch.subjectPattern");
  });

  it("bounds the organization's issuer patterns together, counting a shared pattern once", async () => {
    await clear();
    const pattern = (i: number) => `(?:.*a){40}b${i}`; // about 125 instructions
    const made: string[] = [];
    let refused: ApiResponse | undefined;
    for (let i = 0; i < 10 && !refused; i++) {
      const res = await create({ claimMatch: { issuerPattern: pattern(i), subject: "s" } });
      if (res.status === 200) made.push(res.body.uid);
      else refused = res;
    }
    expect(made.length).toBeGreaterThan(0);
    expect(made.length).toBeLessThan(10);
    expect(expectFieldViolation(refused!, "claimMatch.issuerPattern")[0].description).toContain(`${ISSUER_PATTERNS_MAX_INSTRUCTIONS}`);
    // Another identity with a pattern already counted adds nothing.
    ok(await create({ claimMatch: { issuerPattern: pattern(0), subject: "other" } }));
    // An identity may change its own pattern within the budget it already holds.
    const last = made[made.length - 1];
    ok(await ctx.api.patch(path("identities", last), { claimMatch: { issuerPattern: `${pattern(made.length - 1)}x`, subject: "s" } }));
  });

  it("stores what the platform stores (keys that cannot verify, a string that is no JWKS), refusing private keys and key sets past their bounds", async () => {
    const issuerKeys = (keys: unknown[]) => JSON.stringify({ keys });
    const sk = (keys: string) => ({ staticKeys: { issuer: "https://sk.example", subject: "s", issuerKeys: keys, expirationTime: later() } });
    const rsa512 = generateKeyPairSync("rsa", { modulusLength: 512 });
    const rsa2048 = generateKeyPairSync("rsa", { modulusLength: 2048 }).publicKey.export({ format: "jwk" });
    const field = "staticKeys.issuerKeys";
    const describeOf = async (keys: string) => expectFieldViolation(await create(sk(keys)), field).find((v) => v.field === field)!.description;
    // The platform's own acceptance tests store "keys"; keys that can never verify are stored too ...
    const stored = [
      "keys",
      issuerKeys([{ ...rsa512.publicKey.export({ format: "jwk" }), kid: "weak" }]),
      issuerKeys([{ kty: "oct" }]),
      issuerKeys([{ kty: "EC", crv: "P-192", x: "AA", y: "AA" }]),
      issuerKeys([{ ...(await ecKey("x")), x: "AA" }]),
      issuerKeys([{ ...rsa2048, alg: "ES256" }]),
    ];
    for (const keys of stored) {
      const made = ok(await create(sk(keys)));
      expect(made.staticKeys.issuerKeys).toBe(keys);
      ok(await ctx.api.del(path("identities", made.uid)));
    }
    // ... and vouch for nobody: a token the weak key signs is refused at the exchange.
    const weak = ok(await create(sk(issuerKeys([{ ...rsa512.publicKey.export({ format: "jwk" }), kid: "weak", alg: "RS256" }])))).uid;
    // jose will not sign with a 512-bit key: sign by hand.
    const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString("base64url");
    const input = `${b64({ alg: "RS256", kid: "weak", typ: "JWT" })}.${b64({ iss: "https://sk.example", sub: "s", aud: ctx.server.url, exp: Math.floor(Date.now() / 1000) + 300 })}`;
    const signed = `${input}.${createSign("RSA-SHA256").update(input).sign(rsa512.privateKey).toString("base64url")}`;
    expectError(await exchange(ctx, signed, weak), "UNAUTHENTICATED");
    ok(await ctx.api.del(path("identities", weak)));
    // irv-server's own rules: no private or secret key material, which reads would show.
    expect(await describeOf(issuerKeys([{ kty: "oct", k: "c2VjcmV0" }]))).toContain("private");
    expect(await describeOf(issuerKeys([generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey.export({ format: "jwk" })]))).toContain("private");
    expect(await describeOf("")).toContain("empty");
    // Size: a 0.9 MB key set, and one key too many.
    const many = Array.from({ length: 1200 }, (_, i) => ({ ...rsa2048, kid: `k${i}` }));
    expect(JSON.stringify({ keys: many }).length).toBeGreaterThan(ISSUER_KEYS_MAX_CHARS);
    expect(await describeOf(issuerKeys(many))).toContain(`${ISSUER_KEYS_MAX_CHARS}`);
    const ec = await Promise.all(Array.from({ length: ISSUER_KEYS_MAX + 1 }, (_, i) => ecKey(`e${i}`)));
    expect(await describeOf(issuerKeys(ec))).toContain(`${ISSUER_KEYS_MAX} keys`);
  });

  it("bounds the distinct static keys of one issuer across identities", async () => {
    await clear();
    const sk = (issuer: string, keys: JWK[]) => ({ staticKeys: { issuer, subject: "s", issuerKeys: keySet(keys), expirationTime: later() } });
    const sets = await Promise.all([0, 1, 2].map((s) => Promise.all(Array.from({ length: STATIC_KEYS_PER_ISSUER / 2 }, (_, i) => ecKey(`s${s}-${i}`)))));
    ok(await create(sk("https://one.example", sets[0])));
    ok(await create(sk("https://one.example", sets[1])));
    // The same keys again add nothing; new keys past the bound are refused; another issuer has its own bound.
    ok(await create(sk("https://one.example", sets[0])));
    expectFieldViolation(await create(sk("https://one.example", sets[2])), "staticKeys.issuerKeys");
    ok(await create(sk("https://two.example", sets[2])));
  });
});
