/**
 * Token exchange against a crafted issuer (`npm run bench` or `node dist/bench/exchange.js`): an
 * identity trusts `https://([a-z0-9-]+\.?)+\.example\.com`, and an unauthenticated caller sends
 * unsigned tokens whose `iss` is `https://` + n letters + `!`, which never matches. irv-server
 * matches with RE2 (linear); the baseline is the same anchored pattern in JavaScript's
 * backtracking RegExp, in this process, at lengths it can still finish. The same requests also
 * go to a server with 10,000 more claimMatch identities: trusted issuers are indexed, so the
 * cost does not grow with them.
 */
import { performance } from "node:perf_hooks";
import { newChildUid } from "../api/uid";
import { startServer, type RunningServer } from "../server";
import { freshLetters, runHostileExchangeBench } from "./exchange-hostile";

const PATTERN = "https://([a-z0-9-]+\\.?)+\\.example\\.com";
/** `https://` + n letters + `!`; `i` varies the letters, so no exchange reuses an earlier verdict on its `iss`. */
const crafted = (n: number, i = 0) => `https://${freshLetters(n, i)}!`;

function unsigned(claims: object): string {
  const part = (o: object) => Buffer.from(JSON.stringify(o)).toString("base64url");
  return `${part({ alg: "none", typ: "JWT" })}.${part(claims)}.`;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

let serial = 0;

/** Median ms of `runs` exchanges with an issuer of `n` letters. */
async function exchangeMs(url: string, authUrl: string, identity: string, n: number, runs: number): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const token = unsigned({ iss: crafted(n, serial++), sub: "s", aud: url, exp: Math.floor(Date.now() / 1000) + 300 });
    const t = performance.now();
    const res = await fetch(`${authUrl}/sts/exchange?aud=${encodeURIComponent(url)}&identity=${identity}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    await res.text();
    if (res.status !== 403) throw new Error(`exchange answered ${res.status}`);
    times.push(performance.now() - t);
  }
  return median(times);
}

/** A server whose organization holds `n` extra claimMatch identities, each trusting its own issuer. */
function withIdentities(n: number) {
  return startServer({
    fixtures: {},
    seed: (store, org) => {
      const now = new Date().toISOString();
      for (let i = 0; i < n; i++)
        store.identities.insert({
          uid: newChildUid(org),
          name: `ci-${i}`,
          description: "",
          company: "",
          email: "",
          emailUnverified: "",
          lastSeenTime: now,
          createTime: now,
          updateTime: now,
          claimMatch: { issuer: `https://issuer-${i}.example.com`, subject: "s" },
        });
    },
  });
}

/** Creates the identity with the crafted pattern; returns its uid. */
async function redosIdentity(server: RunningServer): Promise<string> {
  const res = await fetch(`${server.url}/iam/v2beta1/identities/${server.organization}`, {
    method: "POST",
    headers: { authorization: `Bearer ${server.token}`, "content-type": "application/json" },
    body: JSON.stringify({ name: "redos", claimMatch: { issuerPattern: PATTERN, subject: "s" } }),
  });
  return ((await res.json()) as { uid: string }).uid;
}

export async function runExchangeBench(): Promise<string> {
  const small = await withIdentities(0);
  const large = await withIdentities(10_000);
  try {
    const lines = ["## Token exchange against a crafted issuer", ""];
    lines.push("| issuer letters | exchange, 2 identities (median of 50) | exchange, 10,002 identities (median of 50) |", "|---|---|---|");
    const ids = [await redosIdentity(small), await redosIdentity(large)];
    await exchangeMs(small.url, small.authUrl, ids[0], 30, 20); // warm-up
    await exchangeMs(large.url, large.authUrl, ids[1], 30, 20);
    for (const n of [30, 230, 1_000, 2_000]) {
      const a = await exchangeMs(small.url, small.authUrl, ids[0], n, 50);
      const b = await exchangeMs(large.url, large.authUrl, ids[1], n, 50);
      lines.push(`| ${n.toLocaleString("en")} | ${a.toFixed(2)} ms | ${b.toFixed(2)} ms |`);
    }
    lines.push("", "| issuer letters | JavaScript RegExp, same anchored pattern (one run) |", "|---|---|");
    const js = new RegExp(`^(?:${PATTERN})$`);
    for (const n of [26, 28, 30, 32, 34]) {
      const t = performance.now();
      js.test(crafted(n));
      lines.push(`| ${n} | ${(performance.now() - t).toFixed(1)} ms |`);
    }
    lines.push("", await runHostileExchangeBench());
    return lines.join("\n");
  } finally {
    await small.close();
    await large.close();
  }
}

if (require.main === module)
  runExchangeBench().then(console.log, (e) => {
    console.error(e);
    process.exit(1);
  });
