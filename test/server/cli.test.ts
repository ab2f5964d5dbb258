/** The irv-server command: one JSON start line on stdout, logs on stderr, clean exit on SIGTERM. */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { hasSqlite } from "../../harness/node";
import { cli, ensureBuilt } from "../support/server-process";
import { beforeAll, describe, expect, it } from "vitest";
import { apiFor, path } from "../support/server";
import { ok } from "../support/server-helpers";

beforeAll(ensureBuilt, 180_000);

describe("irv-server CLI", () => {
  it("prints exactly one JSON start line, serves the API, and exits cleanly on SIGTERM", async () => {
    const child = spawn(process.execPath, [cli, "--port", "0", "--organization-name", "cli-org"], { stdio: ["ignore", "pipe", "pipe"] });
    const lines: string[] = [];
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    const rl = createInterface({ input: child.stdout });
    const first = await new Promise<string>((resolve, reject) => {
      rl.once("line", resolve);
      child.once("exit", (code) => reject(new Error(`exited ${code}: ${stderr}`)));
    });
    rl.on("line", (l) => lines.push(l));
    const start = JSON.parse(first);
    expect(Object.keys(start).sort()).toEqual(["authUrl", "organization", "token", "url"]);
    expect(start.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(start.authUrl).toBe(`${start.url}/auth`);
    const api = apiFor(start.url, start.token);
    expect(ok(await api.get(path("groups", start.organization))).name).toBe("cli-org");
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(lines).toEqual([]);
    expect(stderr).toContain("listening");
    expect(stderr).not.toContain(start.token);
  });

  it("prints help and refuses bad options", () => {
    const help = spawnSync(process.execPath, [cli, "--help"], { encoding: "utf8" });
    expect(help.status).toBe(0);
    expect(help.stdout).toContain("--fixtures");
    expect(help.stdout).toContain("--data-dir");
    const bad = spawnSync(process.execPath, [cli, "--port", "nope"], { encoding: "utf8" });
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toContain("--port");
  });

  it("refuses --data-dir on a Node without node:sqlite (its lock needs it), making nothing", () => {
    // This Node, with node:sqlite turned off where it has one.
    const node = hasSqlite() ? [process.execPath, "--no-experimental-sqlite"] : [process.execPath];
    const dir = join(mkdtempSync(join(tmpdir(), "irv-nosqlite-")), "data");
    const bad = spawnSync(node[0], [...node.slice(1), cli, "--port", "0", "--data-dir", dir], { encoding: "utf8", timeout: 30_000 });
    expect(bad.status).toBe(2);
    expect(bad.stdout).toBe("");
    expect(bad.stderr).toContain(
      `irv-server: a data directory needs node:sqlite, for the lock that keeps a second server off it, and this Node (${process.version}) has none: use Node 22.13 or newer`,
    );
    expect(existsSync(dir)).toBe(false);
  });

  it("refuses an organization name the API would refuse as a group name", () => {
    const bad = spawnSync(process.execPath, [cli, "--port", "0", "--organization-name", "Acme Corp"], { encoding: "utf8", timeout: 30_000 });
    expect(bad.status).toBe(2);
    expect(bad.stdout).toBe("");
    expect(bad.stderr).toContain("organization name");
  });
});
