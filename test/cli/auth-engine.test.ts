/**
 * The `irv auth login` as the provider's and `irv drift`/`irv review`'s credential through the
 * real engine: a stack whose config holds only irv:apiUrl (no token, no identity), applied,
 * checked for drift (the compiled `irv drift`) and reviewed with the login alone.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runReview } from "../../cli";
import { createStack, ENGINE_TIMEOUT, nodeRequire, pulumiEnv, type TestStack } from "../support/engine";
import { startOidcIssuer, type OidcIssuer } from "../support/oidc-issuer";
import { defaultAudience } from "../support/sts";
import { path as apiPath, startTestServer, type TestServer } from "../support/server";
import { runIrv } from "../support/cli";

const irv = nodeRequire("pulumi-irv") as typeof import("../../dynamic");
const subject = "repo:acme/infra:ref:refs/heads/main";

describe("irv auth login through the engine", () => {
  let srv: TestServer;
  let issuer: OidcIssuer;
  let t: TestStack;
  let identity: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    srv = await startTestServer({ fixtures: {}, allowPrivateIssuers: true });
    issuer = await startOidcIssuer();
    const org = srv.server.organization;
    identity = (await srv.api.post(apiPath("identities", org), { name: "operator", claimMatch: { issuer: issuer.url, subject } })).body.uid;
    const owner = (await srv.api.get(apiPath("roles"), { name: "owner" })).body.roles[0].uid;
    await srv.api.post(apiPath("roleBindings", org), { identityUid: identity, roleUid: owner });

    const home = mkdtempSync(path.join(tmpdir(), "irv-auth-engine-"));
    const tokenFile = path.join(home, "oidc-token");
    writeFileSync(tokenFile, await issuer.sign({ sub: subject, aud: defaultAudience(srv.server) }, { expiresIn: 3600 }));
    const noCredentials = { IRV_TOKEN: "", IRV_IDENTITY: "", IRV_IDENTITY_TOKEN: "", IRV_CONFIG_DIR: path.join(home, "irv") };
    const login = await runIrv(["auth", "login", "--identity", identity, "--identity-token", tokenFile, "--api-url", srv.server.url], noCredentials);
    expect(login.code, login.stderr).toBe(0);

    t = await createStack({
      stackName: "login",
      config: { "irv:apiUrl": srv.server.url },
      env: noCredentials,
      program: async () => {
        const g = new irv.iam.Group("eng", { parentUid: org, name: "engineering", description: "made with the login" });
        return { uid: g.uid };
      },
    });
    env = { ...pulumiEnv(path.join(path.dirname(t.workDir), "home")), ...noCredentials };
    await t.stack.up();
  }, ENGINE_TIMEOUT);
  afterAll(async () => {
    await t?.dispose();
    await srv?.close();
    await issuer?.close();
  });

  it(
    "applies with the login, and drift and review read the API with it",
    async () => {
      const created = srv.server.requests.filter((r) => r.method === "POST" && r.path.startsWith("/iam/v2beta1/groups/"));
      expect(created.map((r) => r.caller)).toEqual([identity]);
      const inSync = await runIrv(["drift", "--stack", "login", "--cwd", t.workDir], env);
      expect(inSync.code, inSync.stderr).toBe(0);
      expect(inSync.stdout).toContain("No drift");

      const uid = (await t.stack.outputs()).uid.value as string;
      expect((await srv.api.patch(apiPath("groups", uid), { description: "changed" }, { updateMask: "description" })).status).toBe(200);
      const drifted = await runIrv(["drift", "--stack", "login", "--cwd", t.workDir], env);
      expect(drifted.code, drifted.stderr).toBe(2);
      const reads = srv.server.requests.filter((r) => r.method === "GET" && r.path === `/iam/v2beta1/groups/${uid}`);
      expect(reads.length).toBeGreaterThan(0);
      expect(reads.every((r) => r.caller === identity)).toBe(true);
      // review --refresh reads the live group through the provider with the login, and plans to
      // put the program's description back.
      const before = srv.server.requests.length;
      const review = await runReview({ stack: t.stack, refresh: true });
      expect(review.changes.map((c) => [c.name, c.action])).toEqual([["eng", "update"]]);
      const refreshed = srv.server.requests.slice(before).filter((r) => r.path === `/iam/v2beta1/groups/${uid}`);
      expect(refreshed.length).toBeGreaterThan(0);
      expect(refreshed.every((r) => r.caller === identity)).toBe(true);
      // Access made outside the stack is looked for with the login too (the engine's environment).
      expect(review.outside).toMatchObject({ unmanaged: [], watched: { groups: ["engineering"] } });
      const listed = srv.server.requests.slice(before).filter((r) => r.method === "GET" && r.path === "/iam/v2beta1/roleBindings");
      expect(listed.length).toBeGreaterThan(0);
      expect(listed.every((r) => r.caller === identity)).toBe(true);
    },
    ENGINE_TIMEOUT,
  );
});
