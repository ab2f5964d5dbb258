import { execFile } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
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

    const failed = await run(script, [], { env }).then(() => undefined, (e: { code: number; stderr: string }) => e);
    expect(failed?.code).toBe(1);
    const command = /Run:\n {2}(.+)\n/.exec(failed!.stderr)?.[1];
    expect(command, failed?.stderr).toBe(`cd ${clone} && npm install`);
    await run("sh", ["-c", command!], { env, maxBuffer: 16 << 20 });
    expect((await run(script, [], { env })).stdout.trim()).toBe(pulumiBinDir());
  });
});
