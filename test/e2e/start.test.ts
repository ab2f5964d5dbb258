import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runNode } from "../support/cli";
import { ENGINE_TIMEOUT, repoRoot } from "../support/engine";

// README: `npm start` "applies the example org to an embedded irv-server through the real Pulumi
// engine". npm start is the build (which `npm test` has just run) and then dist/scripts/start.js:
// run that as npm would, and check it previewed and created examples/org's 10 resources (and the
// stack) on a server of its own, printed the invite code only as a secret, and left nothing
// behind in the temp folder.

const pkg = JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { scripts: Record<string, string> };

describe("npm start", { timeout: ENGINE_TIMEOUT }, () => {
  const tmp = mkdtempSync(path.join(tmpdir(), "irv-start-test-"));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it("previews and applies the example org to an embedded irv-server through the engine, then stops it and cleans up", async () => {
    expect(pkg.scripts.start).toBe("npm run build && node dist/scripts/start.js");
    const run = await runNode([path.join(repoRoot, "dist", "scripts", "start.js")], { TMPDIR: tmp }, repoRoot);
    expect(run.code, run.stderr).toBe(0);
    const out = run.stdout;
    expect(out).toMatch(/^== irv-server listening on http:\/\/127\.0\.0\.1:\d+ \(organization [0-9a-f]{40}\)$/m);
    for (const heading of ["== pulumi preview", "== pulumi up", "== result", "== next: the same program against a real API"])
      expect(out).toContain(`\n${heading}\n`);
    // examples/org's 10 resources and the stack, planned, then created.
    expect(out).toContain('planned: {"create":11}');
    expect(out).toContain('applied: {"create":11}');
    expect(out).toContain("+ 11 created");
    for (const kind of ["Group", "Identity", "Role", "RoleBinding", "IdentityProvider", "GroupInvite"])
      expect(out).toMatch(new RegExp(`\\+ {2}pulumi-nodejs:dynamic/irv:${kind} \\S+ created`));
    expect(Number(/^requests sent to the API: (\d+)$/m.exec(out)?.[1])).toBeGreaterThan(0);
    // The invite's code is a secret output: shown as such after the up, never in plaintext.
    expect(out).toMatch(/^ {4}inviteCode {10}: \[secret\]$/m);
    // The next steps name a program that exists: the repository root's Pulumi.yaml runs the same example.
    const main = /^main: (.+)$/m.exec(readFileSync(path.join(repoRoot, "Pulumi.yaml"), "utf8"))?.[1];
    expect(main).toBe("dist/examples/org/main.js");
    expect(out).toContain(`(Pulumi.yaml -> ${main})`);
    expect(existsSync(path.join(repoRoot, main!))).toBe(true);
    // Its state, workspace and PULUMI_HOME lived in one temp folder, removed at the end.
    expect(readdirSync(tmp).filter((f) => f.startsWith("irv-start-"))).toEqual([]);
  });
});
