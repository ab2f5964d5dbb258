/**
 * Property tests of token and claim verification (fast-check, fixed seed so a failure repeats):
 * claim rules compare by type, patterns are anchored RE2 that agree with JavaScript on the
 * syntax both share, and the time checks accept exactly the tokens they should.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { claimMismatch, fullMatch } from "../../server/auth/claim-match";
import { CLOCK_SKEW_SECONDS, EXTERNAL_TOKEN_MAX_LIFETIME_SECONDS, tokenProblem } from "../../server/auth/external-token";

const params = { seed: 11, numRuns: 500 };
const API = "https://api.example";
const ISS = "https://issuer.example";
const base = { iss: ISS, sub: "s", aud: API };

/** Any JSON value that is not a string. */
const notString = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string(), { maxLength: 4 }),
  fc.dictionary(fc.string(), fc.string(), { maxKeys: 3 }),
);

describe("claim rules", () => {
  it("an exact claim rule matches exactly the equal string, and nothing of another type", () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), notString, (want, got, other) => {
        const cm = { issuer: ISS, subject: "s", claims: { c: want } };
        expect(claimMismatch(cm, { ...base, c: got }, API) === undefined).toBe(got === want);
        expect(claimMismatch(cm, { ...base, c: other }, API)).toBeDefined();
        expect(claimMismatch(cm, { ...base, c: [want] }, API)).toBeDefined();
        expect(claimMismatch(cm, base, API)).toBeDefined();
      }),
      params,
    );
  });

  it("a pattern claim rule never matches a missing claim or a non-string, even `.*`", () => {
    fc.assert(
      fc.property(notString, (other) => {
        const cm = { issuer: ISS, subject: "s", claimPatterns: { c: ".*" } };
        expect(claimMismatch(cm, { ...base, c: other }, API)).toBeDefined();
        expect(claimMismatch(cm, base, API)).toBeDefined();
        expect(claimMismatch(cm, { ...base, c: "" }, API)).toBeUndefined();
      }),
      params,
    );
  });

  it("subject and issuer must be strings; aud may be an array, one element of which must match", () => {
    fc.assert(
      fc.property(fc.array(fc.string(), { maxLength: 4 }), fc.string(), (auds, sub) => {
        const cm = { issuer: ISS, subject: sub };
        expect(claimMismatch(cm, { ...base, sub }, API)).toBeUndefined();
        // Claims of the wrong type, as a hostile issuer signs them.
        expect(claimMismatch(cm, { ...base, sub: [sub] as unknown as string }, API)).toBeDefined();
        expect(claimMismatch(cm, { ...base, sub, iss: [ISS] as unknown as string }, API)).toBeDefined();
        expect(claimMismatch(cm, { ...base, sub, aud: auds }, API) === undefined).toBe(auds.includes(API));
      }),
      params,
    );
  });
});

describe("patterns", () => {
  /** Patterns over a small alphabet in the syntax RE2 and JavaScript share. */
  const atom = fc.constantFrom("a", "b", ".", "[ab]", "(a|b)", "(ab)", "a?", "b*", "(a|ab)+", "\\.");
  const pattern = fc.array(atom, { minLength: 1, maxLength: 6 }).map((p) => p.join(""));
  const input = fc.stringMatching(/^[ab.]{0,12}$/);

  it("agree with an anchored JavaScript RegExp on shared syntax", () => {
    fc.assert(
      fc.property(pattern, input, (p, s) => {
        expect(fullMatch(p, s)).toBe(new RegExp(`^(?:${p})$`).test(s));
      }),
      params,
    );
  });

  it("always match the whole value: no pattern matches a value with extra text around a match", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z]{1,8}$/), fc.stringMatching(/^[a-z]{1,4}$/), (lit, extra) => {
        expect(fullMatch(lit, lit)).toBe(true);
        expect(fullMatch(lit, lit + extra)).toBe(false);
        expect(fullMatch(lit, extra + lit)).toBe(false);
        // An alternation is anchored as a whole, not only its first and last branches.
        expect(fullMatch(`${lit}|zzz`, `${lit}${extra}`)).toBe(false);
      }),
      params,
    );
  });

  it("finish on long hostile inputs to nested quantifiers", () => {
    fc.assert(
      fc.property(fc.integer({ min: 50, max: 2000 }), (n) => {
        expect(fullMatch("(a+)+b", "a".repeat(n))).toBe(false);
        expect(fullMatch("https://([a-z0-9-]+\\.?)+\\.example\\.com", `https://${"a".repeat(n)}!`)).toBe(false);
      }),
      { seed: 11, numRuns: 50 },
    );
  });
});

describe("token time and type checks", () => {
  const NOW = 1_800_000_000;
  const claims = (extra: object) => ({ ...base, ...extra });

  it("accept exactly an exp in (now, now + max lifetime]", () => {
    fc.assert(
      fc.property(fc.integer({ min: -10 * 86_400, max: 200 * 365 * 86_400 }), (offset) => {
        const ok = tokenProblem(claims({ exp: NOW + offset }), NOW * 1000) === undefined;
        expect(ok).toBe(offset > 0 && offset <= EXTERNAL_TOKEN_MAX_LIFETIME_SECONDS);
      }),
      params,
    );
  });

  it("accept iat and nbf up to the clock skew ahead, never later", () => {
    fc.assert(
      fc.property(fc.integer({ min: -86_400, max: 20 * 365 * 86_400 }), fc.constantFrom("iat", "nbf"), (offset, name) => {
        const ok = tokenProblem(claims({ exp: NOW + 60, [name]: NOW + offset }), NOW * 1000) === undefined;
        expect(ok).toBe(offset <= CLOCK_SKEW_SECONDS);
      }),
      params,
    );
  });

  it("refuse registered claims of the wrong type", () => {
    fc.assert(
      fc.property(fc.constantFrom("iss", "sub", "aud", "exp", "iat", "nbf"), notString, fc.string(), (name, bad, text) => {
        const value = name === "exp" || name === "iat" || name === "nbf" ? text : bad;
        // A string array is a valid aud; anything else here is the wrong type for its claim.
        if (name === "aud" && Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === "string")) return;
        expect(tokenProblem(claims({ exp: NOW + 60, [name]: value }), NOW * 1000)).toBeDefined();
      }),
      params,
    );
  });
});
