import { describe, expect, it } from "vitest";
import { ensureBuilt, launch, stop, useDataDirs } from "../support/server-process";

// The request log (stderr, on unless --quiet) must never hold what a client put in a query string:
// a client may send its token as `?access_token=...`. Every value of every parameter, on every kind
// of route (API, token exchange, registry host, unknown paths, refused requests), is redacted.

const dataDir = useDataDirs("irv-log-");

describe("the request log", () => {
  it("names query parameters but never their values, nor a name that looks like a token", async () => {
    ensureBuilt();
    const p = await launch(dataDir(), ["--port", "0"], { logs: true });
    const secrets = Array.from({ length: 8 }, (_, i) => `S3CRET${i}x${Math.random().toString(36).slice(2)}`);
    const tokenLikeName = `eyJ${secrets[7]}${"A".repeat(40)}`;
    const paths = [
      `/iam/v2beta1/groups?access_token=${secrets[0]}&page_size=${secrets[1]}`,
      `/iam/v2beta1/groups/${p.start.organization}?access_token=${secrets[2]}`,
      `/auth/sts/exchange?aud=${secrets[3]}&identity=${secrets[4]}`,
      `/nowhere/at/all?token=${secrets[5]}`,
      `/v2/?access_token=${secrets[6]}`,
      `/iam/v2beta1/groups?${tokenLikeName}`,
    ];
    try {
      for (const path of paths) {
        const res = await fetch(new URL(path, p.start.url));
        await res.arrayBuffer();
        expect(res.status, path).toBeLessThan(500);
      }
    } finally {
      await stop(p);
    }
    const log = p.stderr();
    expect(log).toContain("access_token=[redacted]");
    expect(log).toContain("page_size=[redacted]");
    for (const s of secrets) expect(log).not.toContain(s);
    expect(log).not.toContain(tokenLikeName);
  });
});
