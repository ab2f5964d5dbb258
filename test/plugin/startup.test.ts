import { isAscii } from "node:buffer";
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import * as rpc from "@pulumi/pulumi/runtime/rpc";
import { describe, expect, it } from "vitest";
import * as sentinels from "../../provider/sentinels";
import { repoRoot } from "../support/engine";

// The engine starts the plugin for every operation, so what it loads at start-up is paid on every
// preview: the plugin reaches Pulumi only through the gRPC stubs, never the Node runtime (which
// brings TypeScript and npm's arborist), writes out the few wire constants it needs, and loads the
// HTTP client on the first request. bin/pulumi-resource-irv runs it bundled into one file.
describe("the plugin's start-up", () => {
  it("uses Pulumi's own wire sentinels", () => {
    expect(sentinels.unknownValue).toBe(rpc.unknownValue);
    expect(sentinels.specialSigKey).toBe(rpc.specialSigKey);
    expect(sentinels.specialSecretSig).toBe(rpc.specialSecretSig);
  });

  it("loads only the gRPC stubs of @pulumi/pulumi, not its runtime, and no HTTP client yet", () => {
    // The built plugin, as bin/pulumi-resource-irv loads it, in a fresh node process.
    const script = `require(${JSON.stringify(path.join(repoRoot, "dist", "plugin", "server.js"))});
      process.stdout.write(JSON.stringify(Object.keys(require.cache)));`;
    const loaded: string[] = JSON.parse(execFileSync(process.execPath, ["-e", script], { encoding: "utf8" }));
    const pulumi = loaded.filter((m) => m.includes(`${path.sep}@pulumi${path.sep}pulumi${path.sep}`));
    expect(pulumi.length).toBeGreaterThan(0);
    expect(pulumi.filter((m) => !m.includes(`${path.sep}proto${path.sep}`))).toEqual([]);
    const packages = (name: string) => loaded.filter((m) => m.includes(`${path.sep}node_modules${path.sep}${name}${path.sep}`));
    expect(packages("typescript")).toEqual([]);
    // The HTTP client and the JWT library wait for the first request: a preview makes none.
    expect(packages("undici")).toEqual([]);
    expect(packages("jose")).toEqual([]);
  });

  it("runs as one bundle of the built plugin, which holds no Pulumi runtime and no TypeScript, compiled from its code cache, and prints its port", async () => {
    // What went into the bundle, as esbuild recorded it (`npm run build`). Its modules keep their
    // lazy requires: the HTTP client is in the file, but runs on the first request.
    const meta = JSON.parse(readFileSync(path.join(repoRoot, "dist", "plugin", "bundle.meta.json"), "utf8")) as { inputs: Record<string, unknown> };
    const inputs = Object.keys(meta.inputs);
    expect(inputs).toContain("dist/plugin/main.js");
    expect(inputs.filter((f) => f.includes("node_modules/@pulumi/pulumi/") && !f.includes("/proto/"))).toEqual([]);
    expect(inputs.filter((f) => f.includes("node_modules/typescript/"))).toEqual([]);
    // Of undici, the pool and what it needs (client/transport.ts), not its index: fetch, WebSocket, caches.
    expect(inputs.filter((f) => /node_modules\/undici\/(index\.js|lib\/web\/(fetch\/index|websocket|cache|eventsource|cookies))/.test(f))).toEqual([]);

    // In ASCII, so that it reads without UTF-8's decoding (plugin/boot.ts), to the same text.
    const file = path.join(repoRoot, "dist", "plugin", "bundle.js");
    expect(isAscii(readFileSync(file))).toBe(true);
    const boot = JSON.stringify(path.join(repoRoot, "dist", "plugin", "boot.js"));
    const same = `process.stdout.write(String(require(${boot}).bundleCode() === require("node:fs").readFileSync(${JSON.stringify(file)}, "utf8")))`;
    expect(execFileSync(process.execPath, ["-e", same], { encoding: "utf8" })).toBe("true");

    // The bin compiles it with V8's code cache, which the build wrote for this node and this bundle.
    const rejected = execFileSync(process.execPath, ["-e", `process.stdout.write(String(require(${boot}).compileBundle().cachedDataRejected))`], {
      encoding: "utf8",
    });
    expect(rejected).toBe("false");

    const child = spawn(path.join(repoRoot, "bin", "pulumi-resource-irv"), [], { stdio: ["ignore", "pipe", "inherit"] });
    try {
      const line = await new Promise<string>((resolve, reject) => {
        let out = "";
        child.stdout.on("data", (d: Buffer) => {
          out += d.toString();
          if (out.includes("\n")) resolve(out);
        });
        child.on("error", reject);
        child.on("exit", (code) => reject(new Error(`exited with ${code} before printing its port`)));
      });
      expect(line).toMatch(/^\d+\n$/);
    } finally {
      child.kill();
    }
  });

  it("exits once the process that started it is gone (a command that never stops it, such as pulumi package get-mapping)", async () => {
    // A shell starts it in the background, waits for its port (it is running by then) and exits:
    // the plugin is left without its parent.
    const dir = mkdtempSync(path.join(tmpdir(), "irv-orphan-"));
    const out = path.join(dir, "port");
    const script = `"$0" >"$1" 2>/dev/null & pid=$!; while [ ! -s "$1" ]; do sleep 0.1; done; echo $pid`;
    const pid = Number(execFileSync("sh", ["-c", script, path.join(repoRoot, "bin", "pulumi-resource-irv"), out], { encoding: "utf8" }).trim());
    const alive = () => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    try {
      await expect.poll(alive, { timeout: 60_000, interval: 200 }).toBe(false);
    } finally {
      if (alive()) process.kill(pid);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
