import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { COMMANDS } from "../../cli";
import { COMMAND_LIST } from "../../cli/commands/list";
import { IRV_BIN, runIrv } from "../support/cli";
import { repoRoot } from "../support/engine";

// The compiled bin's argument handling and exit codes; no engine and no server needed.
describe("irv command line", () => {
  it("prints help for irv and every command, exit 0", async () => {
    const top = await runIrv(["--help"]);
    expect(top.code).toBe(0);
    for (const c of ["drift", "review", "export"]) expect(top.stdout).toContain(`  ${c} `);
    expect(top.stdout).toContain("Exit codes");

    for (const c of ["drift", "review", "export"]) {
      const r = await runIrv([c, "--help"]);
      expect(r.code, c).toBe(0);
      expect(r.stdout).toContain(`Usage: irv ${c}`);
      expect(r.stdout).toMatch(/Exit codes: 0 /);
    }
  });

  it("loads only the command it runs: its help needs no API client, no access model, no Automation API", () => {
    // A fresh node process running the bin as the shell does, reporting what it had loaded when it exited.
    const script = `process.argv.splice(1, 1, ${JSON.stringify(IRV_BIN)}, "drift", "--help");
      process.on("exit", () => require("fs").writeSync(2, JSON.stringify(Object.keys(require.cache))));
      require(${JSON.stringify(IRV_BIN)});`;
    const run = spawnSync(process.execPath, ["-e", script, "--"], { encoding: "utf8" });
    expect(run.stdout).toContain("Usage: irv drift");
    const loaded: string[] = JSON.parse(run.stderr);
    expect(loaded.some((m) => m.endsWith(path.join("cli", "commands", "drift.js")))).toBe(true);
    expect(loaded.filter((m) => m.includes(`${path.sep}node_modules${path.sep}`))).toEqual([]);
    for (const other of ["review", "access", "export", "auth"])
      expect(loaded.filter((m) => m.endsWith(path.join("cli", "commands", `${other}.js`)))).toEqual([]);
  });

  it("lists the same commands, in the same order, to the program and to code using cli", () => {
    expect(COMMANDS.map((c) => [c.name, c.summary])).toEqual(COMMAND_LIST.map((c) => [c.name, c.summary]));
  });

  it("prints its version, the package's, exit 0 (issue 39)", async () => {
    const { version } = JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { version: string };
    for (const flag of ["--version", "-v"]) {
      const r = await runIrv([flag]);
      expect(r.code, flag).toBe(0);
      expect(r.stdout).toBe(`irv ${version} (pulumi-irv)\n`);
    }
    expect((await runIrv(["--help"])).stdout).toContain("`irv --version` prints the version");
  });

  it("exits 1 with a message on bad usage", async () => {
    const none = await runIrv([]);
    expect(none.code).toBe(1);
    expect(none.stdout).toContain("Usage: irv <command>");

    const unknown = await runIrv(["destroy-everything"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('unknown command "destroy-everything"');

    const badFormat = await runIrv(["drift", "--format", "yaml"]);
    expect(badFormat.code).toBe(1);
    expect(badFormat.stderr).toContain("--format must be one of text, markdown, json");

    const badOption = await runIrv(["review", "--frobnicate"]);
    expect(badOption.code).toBe(1);
    expect(badOption.stderr).toContain("irv review --help");

    const noGroup = await runIrv(["export"]);
    expect(noGroup.code).toBe(1);
    expect(noGroup.stderr).toContain("--group <uid> is required");
  });

  it("exits 1 naming the problem when there is no stack or no credentials", async () => {
    const empty = await runIrv(["drift", "--cwd", "/nonexistent-irv-dir"]);
    expect(empty.code).toBe(1);
    expect(empty.stderr).toMatch(/^irv drift: /);

    const noCreds = await runIrv(["export", "--group", "a".repeat(40), "--api-url", "http://127.0.0.1:9"], {
      IRV_TOKEN: "",
      IRV_IDENTITY: "",
      IRV_IDENTITY_TOKEN: "",
    });
    expect(noCreds.code).toBe(1);
    expect(noCreds.stderr).toContain("no credentials");
  });
});
