/**
 * Token exchange against a hostile organization (issue 19): what an unauthenticated exchange costs
 * once an owner has configured heavy issuer patterns or huge static key sets, and what an admin
 * request waits behind five such exchanges. Each case first configures what the issue reported
 * (10 patterns `(?:.*a){1000}b<i>`, five 0.9 MB key sets); where the server refuses that at
 * write, it configures the heaviest the limits accept instead, and the table says how many were
 * accepted. With IRV_BENCH_BASELINE=<an older build's dist/server> the same cases run against
 * that build too, side by side in one run.
 */
import { generateKeyPairSync } from "node:crypto";
import { performance } from "node:perf_hooks";
import type { RunningServer } from "../server";
import { buildsToCompare, median, runWhenMain, type Start } from "./side-by-side";

const unsigned = (claims: object) =>
  `${Buffer.from(JSON.stringify({ alg: "none", typ: "JWT" })).toString("base64url")}.${Buffer.from(JSON.stringify(claims)).toString("base64url")}.`;
const later = () => new Date(Date.now() + 86_400_000).toISOString();

async function post(s: RunningServer, body: object): Promise<boolean> {
  const res = await fetch(`${s.url}/iam/v2beta1/identities/${s.organization}`, {
    method: "POST",
    headers: { authorization: `Bearer ${s.token}`, "content-type": "application/json" },
    body: JSON.stringify({ name: "hostile", ...body }),
  });
  await res.text();
  return res.status === 200;
}

async function firstUid(s: RunningServer): Promise<string> {
  const res = await fetch(`${s.url}/iam/v2beta1/identities?uidp.children_of=${s.organization}`, { headers: { authorization: `Bearer ${s.token}` } });
  return ((await res.json()) as { identities: { uid: string }[] }).identities[0]?.uid ?? `${s.organization}/0123456789abcdef`;
}

/** `n` letters, `a` but for a tail that spells `i`: a fresh issuer per request, so no earlier verdict on it is reused. */
export function freshLetters(n: number, i: number): string {
  const tail = i.toString(26).replace(/./g, (d) => String.fromCharCode(98 + parseInt(d, 26)));
  return `${"a".repeat(Math.max(0, n - tail.length))}${tail}`;
}

let serial = 0;
/** An unsigned token with a fresh `iss` of `https://` + 2040 letters. */
function heavyToken(s: RunningServer): string {
  const iss = `https://${freshLetters(2040, serial++)}`;
  return unsigned({ iss, sub: "s", aud: s.url, exp: Math.floor(Date.now() / 1000) + 300 });
}

async function exchangeMs(s: RunningServer, token: string, identity: string): Promise<number> {
  const t = performance.now();
  const res = await fetch(`${s.authUrl}/sts/exchange?aud=${encodeURIComponent(s.url)}&identity=${identity}`, { headers: { authorization: `Bearer ${token}` } });
  await res.text();
  return performance.now() - t;
}

/** Ten heavy issuer patterns, or as many as the server accepts; then the heaviest that fit. */
async function configurePatterns(s: RunningServer): Promise<string> {
  let heavy = 0;
  for (let i = 0; i < 10; i++) if (await post(s, { claimMatch: { issuerPattern: `(?:.*a){1000}b${i}`, subject: "s" } })) heavy++;
  let fitted = 0;
  if (heavy < 10) for (let i = 0; i < 10; i++) if (await post(s, { claimMatch: { issuerPattern: `(?:.*a){40}c${i}`, subject: "s" } })) fitted++;
  return heavy === 10 ? "10 of `(?:.*a){1000}b<i>`" : `${heavy} of 10 \`(?:.*a){1000}b<i>\`; then ${fitted} of \`(?:.*a){40}c<i>\``;
}

/** Five key sets of ~0.9 MB for one issuer, or the largest the server accepts. */
async function configureKeySets(s: RunningServer): Promise<string> {
  const rsa = generateKeyPairSync("rsa", { modulusLength: 2048 }).publicKey.export({ format: "jwk" });
  const set = (n: number, tag: string) => JSON.stringify({ keys: Array.from({ length: n }, (_, i) => ({ ...rsa, kid: `${tag}${i}`, alg: "RS256" })) });
  const sk = (issuerKeys: string) => ({ staticKeys: { issuer: "https://keys.example", subject: "s", issuerKeys, expirationTime: later() } });
  const big = set(2250, "k");
  let huge = 0;
  for (let i = 0; i < 5; i++) if (await post(s, sk(big))) huge++;
  if (huge === 5) return `5 of ${(big.length / 1e6).toFixed(2)} MB (2,250 keys)`;
  let fitted = 0;
  for (const tag of ["a", "b", "a", "b", "a"]) if (await post(s, sk(set(32, tag)))) fitted++;
  return `${huge} of 5 of ${(big.length / 1e6).toFixed(2)} MB; then ${fitted} of 32 keys (64 distinct)`;
}

/** Median ms of an admin GET sent right behind five heavy exchanges. */
async function adminBehindFive(s: RunningServer, identity: string, rounds: number): Promise<number> {
  const waits: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const five = Array.from({ length: 5 }, () => exchangeMs(s, heavyToken(s), identity));
    const t = performance.now();
    const res = await fetch(`${s.url}/iam/v2beta1/groups/${s.organization}`, { headers: { authorization: `Bearer ${s.token}` } });
    await res.text();
    waits.push(performance.now() - t);
    await Promise.all(five);
  }
  return median(waits);
}

interface Row {
  patterns: string;
  exchange: number;
  admin: number;
  keySets: string;
  keyExchange: number;
}

async function measure(start: Start): Promise<Row> {
  const p = await start({ fixtures: {} });
  const k = await start({ fixtures: {} });
  try {
    const patterns = await configurePatterns(p);
    const target = await firstUid(p);
    await exchangeMs(p, heavyToken(p), target); // warm-up
    const times: number[] = [];
    for (let i = 0; i < 9; i++) times.push(await exchangeMs(p, heavyToken(p), target));
    const admin = await adminBehindFive(p, target, 5);

    const keySets = await configureKeySets(k);
    const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const { SignJWT } = await import("jose");
    const forged = await new SignJWT({ sub: "s", aud: k.url })
      .setProtectedHeader({ alg: "RS256", kid: "not-published" })
      .setIssuer("https://keys.example")
      .setExpirationTime("5m")
      .sign(privateKey);
    const kTarget = await firstUid(k);
    await exchangeMs(k, forged, kTarget);
    const kTimes: number[] = [];
    for (let i = 0; i < 9; i++) kTimes.push(await exchangeMs(k, forged, kTarget));
    return { patterns, exchange: median(times), admin, keySets, keyExchange: median(kTimes) };
  } finally {
    await p.close();
    await k.close();
  }
}

export async function runHostileExchangeBench(): Promise<string> {
  const runs = buildsToCompare();
  const lines = [
    "## Token exchange against a hostile organization",
    "",
    "| server | issuer patterns accepted | exchange, 2040-letter iss (median of 9) | admin GET behind 5 such exchanges (median of 5) | key sets accepted | exchange, kid not in the sets (median of 9) |",
    "|---|---|---|---|---|---|",
  ];
  for (const [name, start] of runs) {
    const r = await measure(start);
    lines.push(`| ${name} | ${r.patterns} | ${r.exchange.toFixed(1)} ms | ${r.admin.toFixed(1)} ms | ${r.keySets} | ${r.keyExchange.toFixed(1)} ms |`);
  }
  return lines.join("\n");
}

runWhenMain(module, runHostileExchangeBench);
