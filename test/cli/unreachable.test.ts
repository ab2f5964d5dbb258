import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import * as http from "node:http";
import { tmpdir } from "node:os";
import type { AddressInfo } from "node:net";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../support/engine";
import { runIrv, runNode, type IrvRun } from "../support/cli";
import { writeLogin } from "../../client/auth";
import { closedPort } from "../support/ports";

/** An unsigned JWT with `claims`: only its shape and expiry matter before an exchange. */
const unsignedJwt = (claims: object) => `${Buffer.from('{"alg":"none"}').toString("base64url")}.${Buffer.from(JSON.stringify(claims)).toString("base64url")}.`;

// A wrong API URL must fail loudly, never end quietly: no `irv` command and no library call may
// end (least of all with success) while one of its requests still waits for a retry. Before the
// fix a retry's backoff timer was unref'd, so Node exited 0 mid-retry with nothing printed.

/** Some other web server: answers every request with an HTML page carrying a marker. */
const MARKER = "INTERNAL-PAGE-MARKER";
const other = http.createServer((_req, res) => {
  res.writeHead(404, { "content-type": "text/html" });
  res.end(`<html><body>${MARKER}</body></html>`);
});

/** Short budgets so a refused connection gives up within seconds; the outcome does not depend on them. */
const BUDGET = { IRV_CALL_BUDGET_MS: "3000", IRV_TOKEN: "t", IRV_IDENTITY: "", IRV_IDENTITY_TOKEN: "" };

/** Runs a plain Node script that uses the compiled client, the way a user's script would. */
function runScript(apiUrl: string): Promise<IrvRun> {
  const script = `
    const { IrvClient, auth } = require(${JSON.stringify(path.join(repoRoot, "dist", "client"))});
    new IrvClient(${JSON.stringify(apiUrl)}, new auth.StaticTokenSource("t")).get("groups", "0123456789abcdef0123456789abcdef01234567")
      .then(() => console.log("resolved"), (e) => { console.error(e.message); process.exitCode = 1; });`;
  return runNode(["-e", script], BUDGET);
}

let closed: string;
let html: string;
beforeAll(async () => {
  closed = `http://127.0.0.1:${await closedPort()}`;
  await new Promise<void>((r) => other.listen(0, "127.0.0.1", r));
  html = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => other.close(() => r())));

const GROUP = "0123456789abcdef0123456789abcdef01234567";

describe("a wrong API URL", { timeout: 60_000 }, () => {
  it("fails a plain script's client call, naming the URL, where nothing listens", async () => {
    const r = await runScript(closed);
    expect(r.stdout).not.toContain("resolved");
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`nothing answers at ${closed} (ECONNREFUSED); check irv:apiUrl (IRV_API_URL)`);
  });

  it("fails a plain script's client call, naming the status and not quoting the page, where another server answers", async () => {
    const r = await runScript(html);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${html} answered HTTP 404, but not as the platform's API does; check irv:apiUrl`);
    expect(r.stderr).not.toContain(MARKER);
  });

  // Every irv command that calls the network directly (drift and review call it through the engine).
  it("makes irv export exit 1 with the URL where nothing listens", async () => {
    const r = await runIrv(["export", "--group", GROUP, "--api-url", closed, "--out", path.join(repoRoot, "tmp", "unreachable-export")], BUDGET);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`nothing answers at ${closed} (ECONNREFUSED); check irv:apiUrl`);
  });

  it("makes irv auth token exit 1 with the URL where its login's token issuer no longer listens", async () => {
    // A login whose stored token has expired: `auth token` must exchange the identity token again,
    // at the login's token issuer, where nothing listens now.
    const config = mkdtempSync(path.join(tmpdir(), "irv-unreachable-config-"));
    try {
      const identityTokenFile = path.join(config, "oidc-token");
      writeFileSync(identityTokenFile, `${unsignedJwt({ sub: "ci", exp: 4_000_000_000 })}\n`);
      const env = { IRV_CONFIG_DIR: config };
      writeLogin(
        { apiUrl: closed, authUrl: closed, identity: GROUP + "/0123456789abcdef", identityTokenFile, tokens: { [closed]: unsignedJwt({ exp: 1 }) } },
        env,
      );
      const r = await runIrv(["auth", "token"], { ...BUDGET, ...env });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`nothing answers at ${closed} (ECONNREFUSED); check irv:authUrl`);
      expect(r.stdout).toBe("");
    } finally {
      rmSync(config, { recursive: true, force: true });
    }
  });

  it("makes irv export name the URL and status where another server answers", async () => {
    const r = await runIrv(["export", "--group", GROUP, "--api-url", html, "--out", path.join(repoRoot, "tmp", "unreachable-export-html")], BUDGET);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${html} answered HTTP 404`);
    expect(r.stderr).not.toContain(MARKER);
  });
});
