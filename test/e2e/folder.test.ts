import { execFile } from "node:child_process";
import { mkdtempSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { ENGINE_TIMEOUT, pulumiEnv, repoRoot } from "../support/engine";
import { useServer } from "../support/server";

const run = promisify(execFile);

// `pulumi up` in a folder, as a user runs it: the plain CLI, the node language host that
// scripts/ensure-pulumi builds, and the compiled org example as the project's program (what the
// repository's own Pulumi.yaml runs). Every other engine test uses inline Automation API programs,
// which do not need the language host.
describe("a folder project through the pulumi CLI", { timeout: ENGINE_TIMEOUT }, () => {
  const ctx = useServer();
  const base = mkdtempSync(path.join(tmpdir(), "irv-folder-"));
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  it("previews, applies, shows no change, and destroys the org example", async () => {
    const project = path.join(base, "project");
    const home = path.join(base, "home");
    const backend = path.join(base, "backend");
    for (const dir of [project, home, backend]) mkdirSync(dir, { recursive: true });
    symlinkSync(path.join(repoRoot, "node_modules"), path.join(project, "node_modules"), "dir");
    writeFileSync(
      path.join(project, "Pulumi.yaml"),
      [
        "name: irv-folder",
        "runtime:",
        "  name: nodejs",
        "  options:",
        "    typescript: false",
        `main: ${path.join(repoRoot, "dist", "examples", "org", "main.js")}`,
        "backend:",
        `  url: file://${backend}`,
        "",
      ].join("\n"),
    );
    const env = { ...process.env, ...pulumiEnv(home) };
    const pulumi = async (...args: string[]) =>
      (await run("pulumi", [...args, "--non-interactive", "--cwd", project], { env, maxBuffer: 16 << 20 })).stdout;

    await pulumi("stack", "init", "dev");
    await pulumi("config", "set", "irv:apiUrl", ctx.server.url);
    await pulumi("config", "set", "--secret", "irv:token", ctx.server.token);
    await pulumi("config", "set", "organization", ctx.server.organization);

    const preview = await pulumi("preview", "--json");
    // The org example declares 10 resources; the stack itself is the 11th.
    expect(JSON.parse(preview).changeSummary).toEqual({ create: 11 });
    await pulumi("up", "--yes", "--skip-preview");
    const outputs = JSON.parse(await pulumi("stack", "output", "--json"));
    expect(outputs.engineeringUid.startsWith(`${ctx.server.organization}/`)).toBe(true);
    expect(outputs.inviteCode).toBe("[secret]");
    expect((await ctx.api.get(`/iam/v2beta1/groups/${outputs.engineeringUid}`)).status).toBe(200);

    const again = JSON.parse(await pulumi("preview", "--json", "--expect-no-changes"));
    expect(again.changeSummary).toEqual({ same: 11 });

    await pulumi("destroy", "--yes", "--skip-preview");
    expect((await ctx.api.get(`/iam/v2beta1/groups/${outputs.engineeringUid}`)).status).toBe(404);
  });
});
