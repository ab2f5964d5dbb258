import { execFile } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { ENGINE_TIMEOUT, pulumiBinDir, repoRoot } from "../support/engine";

const run = promisify(execFile);

// scripts/ensure-pulumi in a fresh clone, before `npm install`: it fails, printing the one
// command to run; that command, run as printed, is all it needs.
describe("scripts/ensure-pulumi before npm install", { timeout: ENGINE_TIMEOUT }, () => {
  const clone = mkdtempSync(path.join(tmpdir(), "irv-fresh-clone-"));
  afterAll(() => rmSync(clone, { recursive: true, force: true }));

  it("prints the command that installs what it needs; after it, it finds the CLI", async () => {
    mkdirSync(path.join(clone, "scripts"));
    copyFileSync(path.join(repoRoot, "scripts", "ensure-pulumi"), path.join(clone, "scripts", "ensure-pulumi"));
    const sdk = JSON.parse(readFileSync(path.join(repoRoot, "node_modules", "@pulumi", "pulumi", "package.json"), "utf8")).version;
    writeFileSync(path.join(clone, "package.json"), JSON.stringify({ name: "fresh-clone", private: true, dependencies: { "@pulumi/pulumi": sdk } }));
    const script = path.join(clone, "scripts", "ensure-pulumi");
    const env = { ...process.env, PULUMI_IRV_NO_BUILD: "1" };

    const failed = await run(script, [], { env }).then(
      () => undefined,
      (e: { code: number; stderr: string }) => e,
    );
    expect(failed?.code).toBe(1);
    const command = /Run:\n {2}(.+)\n/.exec(failed!.stderr)?.[1];
    expect(command, failed?.stderr).toBe(`cd ${clone} && npm install`);
    await run("sh", ["-c", command!], { env, maxBuffer: 16 << 20 });
    expect((await run(script, [], { env })).stdout.trim()).toBe(pulumiBinDir());
  });
});

// A language host that cannot be built: the reason is printed and remembered, a later run tries
// again, and `--require` (what the tests' globalSetup runs) fails naming each missing host and
// why. A `go` and a `curl` that refuse at once stand in for a Go module proxy that refuses.
describe("scripts/ensure-pulumi where a language host cannot be built", { timeout: ENGINE_TIMEOUT }, () => {
  const work = mkdtempSync(path.join(tmpdir(), "irv-ensure-hosts-"));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it("retries a remembered failure, prints why, and fails --require naming every missing host", async () => {
    const sdk = JSON.parse(readFileSync(path.join(repoRoot, "node_modules", "@pulumi", "pulumi", "package.json"), "utf8")).version;
    const fake = path.join(work, "fake");
    const bin = path.join(work, "cache", `pulumi-v${sdk}`, "bin");
    mkdirSync(fake);
    mkdirSync(bin, { recursive: true });
    // The CLI itself is there (the cached build); only the hosts are missing.
    symlinkSync(path.join(pulumiBinDir(), "pulumi"), path.join(bin, "pulumi"));
    for (const tool of ["go", "curl"]) writeFileSync(path.join(fake, tool), `#!/bin/sh\necho "${tool} refuses here" >&2\nexit 1\n`, { mode: 0o755 });
    // Another version first on PATH, so that a Pulumi installed on the machine is not the one used.
    writeFileSync(path.join(fake, "pulumi"), "#!/bin/sh\necho v0.0.0\n", { mode: 0o755 });
    writeFileSync(path.join(bin, ".pulumi-language-yaml.failed"), "2000-01-01T00:00:00Z: an old reason\n");
    const env = {
      PATH: [fake, path.dirname(process.execPath), "/usr/bin", "/bin"].join(path.delimiter),
      HOME: process.env.HOME,
      PULUMI_IRV_CACHE: path.join(work, "cache"),
    };
    const script = path.join(repoRoot, "scripts", "ensure-pulumi");

    const failed = await run(script, ["--require", "nodejs,yaml,go"], { env }).then(
      () => undefined,
      (e: { code: number; stdout: string; stderr: string }) => e,
    );
    expect(failed?.code, "--require fails").toBe(1);
    expect(failed!.stdout).toBe("");
    expect(failed!.stderr).toContain(`ignoring ${path.join(fake, "pulumi")}: version '0.0.0', need ${sdk}`);
    // The remembered failure was printed, then tried again.
    expect(failed!.stderr).toContain("the last build of pulumi-language-yaml failed (2000-01-01T00:00:00Z: an old reason); trying again");
    expect(readFileSync(path.join(bin, ".pulumi-language-yaml.failed"), "utf8")).toContain("go refuses here");
    for (const host of ["nodejs", "yaml", "go"]) expect(failed!.stderr).toContain(`pulumi-language-${host} is required but missing from ${bin}: `);
    expect(failed!.stderr).toMatch(/pulumi-language-go is required but missing from .*: .*go refuses here/);

    // Without --require the CLI is still printed (the hosts are best effort there), and a later
    // run tries each host again.
    const again = await run(script, [], { env });
    expect(again.stdout.trim()).toBe(bin);
    for (const host of ["nodejs", "yaml", "go"]) expect(again.stderr).toContain(`the last build of pulumi-language-${host} failed (`);
  });

  it("passes --require where every host is built, printing the folder", async () => {
    expect((await run(path.join(repoRoot, "scripts", "ensure-pulumi"), ["--require", "nodejs,yaml,go"])).stdout.trim()).toBe(pulumiBinDir());
  });
});
