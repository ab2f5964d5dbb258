import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ENGINE_TIMEOUT, nodeRequire } from "../support/engine";
import { runIrv, useAppliedStack } from "../support/cli";
import { listAll } from "../support/server";

// `irv export --name`, `--stack` and `--cwd` through the compiled CLI against a live irv-server:
// the API's URL and token come from a stack's config alone (no IRV_* variable, no login), and
// --name names the project and, with no --out, its folder.

const irv = nodeRequire("pulumi-irv") as typeof import("../../dynamic");
const STACK = "export-settings";

describe("irv export --name --stack --cwd", { timeout: ENGINE_TIMEOUT }, () => {
  const s = useAppliedStack(STACK, async (org) => {
    const team = new irv.iam.Group("team", { parentUid: org, name: "team", description: "The exported team" });
    new irv.iam.Role("reader", { groupUid: team.uid, name: "reader", capabilities: ["repo.list"] });
  });
  const where = mkdtempSync(path.join(tmpdir(), "irv-export-stack-"));
  afterAll(() => rmSync(where, { recursive: true, force: true }));

  /** No setting from the environment or a login: only what the command line names. */
  const bare = () => ({
    ...s.env,
    IRV_API_URL: "",
    IRV_AUTH_URL: "",
    IRV_TOKEN: "",
    IRV_IDENTITY: "",
    IRV_IDENTITY_TOKEN: "",
    IRV_CONFIG_DIR: path.join(where, "no-login"),
  });
  const teamUid = async () => {
    const [team] = (await listAll(s.srv.api, "groups", { "uidp.children_of": s.srv.server.organization })).filter((g) => g.name === "team");
    return team.uid as string;
  };

  it("reads irv:apiUrl and irv:token from the stack at --cwd, and writes project NAME to ./NAME", async () => {
    const group = await teamUid();
    const from = s.srv.server.requests.length;
    const r = await runIrv(["export", "--group", group, "--name", "acme-team", "--stack", STACK, "--cwd", s.t.workDir], bare(), where);
    expect(r.code, r.stderr).toBe(0);
    const out = path.join(where, "acme-team");
    expect(r.stdout).toContain(`Wrote a program declaring 1 resources to ${out}`);
    expect(readFileSync(path.join(out, "Pulumi.yaml"), "utf8")).toMatch(/^name: acme-team$/m);
    expect(JSON.parse(readFileSync(path.join(out, "package.json"), "utf8")).name).toBe("acme-team");
    expect(readFileSync(path.join(out, "program.ts"), "utf8")).toContain('name: "reader"');
    // The group was read from the stack's server, with the stack's (admin) token.
    const reads = s.srv.server.requests.slice(from).filter((q) => q.method === "GET" && q.path.endsWith(group));
    expect(reads.map((q) => q.status)).toContain(200);
  });

  it("without --stack has no API to read from, and says which setting is missing", async () => {
    const r = await runIrv(["export", "--group", await teamUid(), "--name", "unset", "--cwd", s.t.workDir], bare(), where);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("no API URL: set irv:apiUrl (IRV_API_URL)");
  });
});
