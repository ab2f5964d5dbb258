import { execFileSync, spawn } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import * as grpc from "@grpc/grpc-js";
import * as provrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import * as emptyproto from "google-protobuf/google/protobuf/empty_pb";
import { compileCacheDir } from "../../client/compile-cache";
import { parseCacheFile, STALE_DAYS } from "../../plugin/boot";
import { struct, urn } from "../support/plugin";
import { repoRoot } from "../support/engine";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function scratch(): string {
  const d = mkdtempSync(path.join(tmpdir(), "irv-compile-cache-"));
  dirs.push(d);
  return d;
}

/** Starts the plugin with `nodeArgs` and `env`, waits for its port line, stops it. */
async function startPlugin(nodeArgs: string[], env: NodeJS.ProcessEnv): Promise<string> {
  const child = spawn(process.execPath, [...nodeArgs, path.join(repoRoot, "bin", "pulumi-resource-irv")], { env, stdio: ["ignore", "pipe", "inherit"] });
  try {
    return await new Promise<string>((resolve, reject) => {
      let out = "";
      child.stdout.on("data", (d: Buffer) => {
        out += d.toString();
        if (out.includes("\n")) resolve(out);
      });
      child.on("error", reject);
      child.on("exit", (code) => reject(new Error(`exited with ${code} before printing its port`)));
    });
  } finally {
    child.kill();
  }
}

// The build's code cache fits the node that built it; a user's node is often another version.
// `--no-opt` stands for one here: V8 refuses a cache made under other flags, as under another version.
describe("the plugin's own code cache, for a node the build's cache is not for", () => {
  it("is written once in the user's compile cache folder, readable by the user only, and taken at the next start", async () => {
    const xdg = scratch();
    const env: NodeJS.ProcessEnv = { ...process.env, XDG_CACHE_HOME: xdg };
    delete env.NODE_DISABLE_COMPILE_CACHE;
    expect(await startPlugin(["--no-opt"], env)).toMatch(/^\d+\n$/);

    const dir = path.join(xdg, "pulumi-irv", "compile-cache");
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    const files = readdirSync(dir);
    const id = readFileSync(path.join(repoRoot, "dist", "plugin", "bundle.id"), "utf8").trim();
    expect(files).toEqual([`plugin-${id}-node${process.version}-${process.arch}.cache`]);
    expect(statSync(path.join(dir, files[0])).mode & 0o777).toBe(0o600);

    // V8 takes it under the same flags, where it refuses the build's.
    const boot = JSON.stringify(path.join(repoRoot, "dist", "plugin", "boot.js"));
    const rejected = (cache: string) =>
      execFileSync(
        process.execPath,
        ["--no-opt", "-e", `const b = require(${boot}); process.stdout.write(String(b.compileBundle(${cache}).cachedDataRejected))`],
        {
          encoding: "utf8",
          env,
        },
      );
    expect(rejected("undefined")).toBe("true");
    expect(rejected(`b.parseCacheFile(require("fs").readFileSync(b.userCacheFile())).data`)).toBe("false");

    // The next start uses it and leaves it as it was.
    const before = statSync(path.join(dir, files[0])).mtimeMs;
    expect(await startPlugin(["--no-opt"], env)).toMatch(/^\d+\n$/);
    expect(statSync(path.join(dir, files[0])).mtimeMs).toBe(before);
    expect(readdirSync(dir)).toEqual(files);
  });

  it("is not written, and the plugin still starts, when there is no folder to write it to", async () => {
    const file = path.join(scratch(), "not-a-folder");
    writeFileSync(file, "");
    expect(await startPlugin(["--no-opt"], { ...process.env, XDG_CACHE_HOME: file })).toMatch(/^\d+\n$/);
    expect(compileCacheDir({ XDG_CACHE_HOME: file })).toBeUndefined();
  });
});

/**
 * Starts the plugin (under `--no-opt`: see below), makes `calls` to it as the engine would, then
 * stops it with SIGINT as the engine does; resolves to its exit code.
 */
async function runPlugin(env: NodeJS.ProcessEnv, calls: (client: any) => Promise<unknown>[]): Promise<number | null> {
  const child = spawn(process.execPath, ["--no-opt", path.join(repoRoot, "bin", "pulumi-resource-irv")], { env, stdio: ["ignore", "pipe", "inherit"] });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const port = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      if (out.includes("\n")) resolve(out.trim());
    });
    child.on("exit", (code) => reject(new Error(`exited with ${code} before printing its port`)));
  });
  const client = new (provrpc as any).ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  try {
    await Promise.all(calls(client));
  } finally {
    client.close();
  }
  child.kill("SIGINT");
  return exited;
}

/** A unary call of `client`'s `method`. */
const unary = (client: any, method: string, req: unknown) =>
  new Promise((resolve, reject) => client[method](req, (e: Error | null, r: unknown) => (e ? reject(e) : resolve(r))));
/** A check of a group: no request to the API. */
const checkGroup = (client: any) =>
  unary(
    client,
    "check",
    new provproto.CheckRequest().setUrn(urn("irv:iam:Group", "g")).setNews(struct({ parentUid: "0123456789abcdef0123456789abcdef01234567", name: "g" })),
  );
const checkRole = (client: any) =>
  unary(
    client,
    "check",
    new provproto.CheckRequest()
      .setUrn(urn("irv:iam:Role", "r"))
      .setNews(struct({ parentUid: "0123456789abcdef0123456789abcdef01234567", name: "r", capabilities: ["groups.list"] })),
  );
const pluginInfo = (client: any) => unary(client, "getPluginInfo", new emptyproto.Empty());

// What a call runs compiles on its first use: a cache written at start lacks it, so the plugin
// writes its own again as it exits, when it served a call the cache's code had not.
describe("the plugin's own code cache, after calls", () => {
  it("is written again at exit with the calls' code when a run served new calls, and left alone when it served none", async () => {
    const xdg = scratch();
    const env: NodeJS.ProcessEnv = { ...process.env, XDG_CACHE_HOME: xdg };
    delete env.NODE_DISABLE_COMPILE_CACHE;
    expect(await runPlugin(env, (c) => [pluginInfo(c), checkGroup(c)])).toBe(0);
    const dir = path.join(xdg, "pulumi-irv", "compile-cache");
    const [name] = readdirSync(dir);
    const file = path.join(dir, name);
    const first = parseCacheFile(readFileSync(file))!;
    expect([...first.served]).toEqual(["check irv:iam:Group", "getPluginInfo"]);
    expect(statSync(file).mode & 0o777).toBe(0o600);

    // V8 takes it (the start-up's code and the calls').
    const boot = JSON.stringify(path.join(repoRoot, "dist", "plugin", "boot.js"));
    const taken = () =>
      execFileSync(
        process.execPath,
        [
          "--no-opt",
          "-e",
          `const b = require(${boot}); process.stdout.write(String(b.compileBundle(b.parseCacheFile(require("fs").readFileSync(b.userCacheFile())).data).cachedDataRejected))`,
        ],
        {
          encoding: "utf8",
          env,
        },
      );
    expect(taken()).toBe("false");

    // The same calls again: nothing new, the file is left as it was.
    const { ino, mtimeMs } = statSync(file);
    expect(await runPlugin(env, (c) => [checkGroup(c)])).toBe(0);
    expect(statSync(file)).toMatchObject({ ino, mtimeMs });

    // A call of another kind: written again, with what it had and what is new.
    expect(await runPlugin(env, (c) => [checkRole(c)])).toBe(0);
    const again = parseCacheFile(readFileSync(file))!;
    expect([...again.served]).toEqual(["check irv:iam:Group", "check irv:iam:Role", "getPluginInfo"]);
    expect(again.data.length).toBeGreaterThan(0);
    expect(taken()).toBe("false");
    expect(readdirSync(dir)).toEqual([name]);
  });

  it("removes cache files no one has written for a while when it writes its own, and nothing else", async () => {
    const xdg = scratch();
    const env: NodeJS.ProcessEnv = { ...process.env, XDG_CACHE_HOME: xdg };
    delete env.NODE_DISABLE_COMPILE_CACHE;
    const dir = path.join(xdg, "pulumi-irv", "compile-cache");
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const old = new Date(Date.now() - (STALE_DAYS + 1) * 24 * 3600 * 1000);
    const stale = ["plugin-0123abcd-nodev18.0.0-x64.cache", "plugin-0123abcd-nodev18.0.0-x64.cache.4242.tmp"];
    const kept = ["plugin-4567cdef-nodev18.0.0-x64.cache", "notes.txt"];
    for (const name of [...stale, ...kept]) writeFileSync(path.join(dir, name), "x");
    for (const name of [...stale, "notes.txt"]) utimesSync(path.join(dir, name), old, old);
    // An old folder named like a cache file is not one.
    mkdirSync(path.join(dir, "plugin-89ab-nodev18.0.0-x64.cache"));
    utimesSync(path.join(dir, "plugin-89ab-nodev18.0.0-x64.cache"), old, old);

    expect(await runPlugin(env, (c) => [checkGroup(c)])).toBe(0);
    const id = readFileSync(path.join(repoRoot, "dist", "plugin", "bundle.id"), "utf8").trim();
    expect(readdirSync(dir).sort()).toEqual([...kept, "plugin-89ab-nodev18.0.0-x64.cache", `plugin-${id}-node${process.version}-${process.arch}.cache`].sort());
  });

  it("refuses a file that is not a cache, starts without it and writes its own in its place", async () => {
    const xdg = scratch();
    const env: NodeJS.ProcessEnv = { ...process.env, XDG_CACHE_HOME: xdg };
    delete env.NODE_DISABLE_COMPILE_CACHE;
    expect(await runPlugin(env, () => [])).toBe(0);
    const dir = path.join(xdg, "pulumi-irv", "compile-cache");
    const file = path.join(dir, readdirSync(dir)[0]);
    for (const junk of [Buffer.alloc(70 * 1024, 0x41), Buffer.from('{"served":[1]}\nxx'), Buffer.from("not json\n")]) {
      expect(parseCacheFile(junk)).toBeUndefined();
      writeFileSync(file, junk);
      expect(await runPlugin(env, (c) => [checkGroup(c)])).toBe(0);
      expect([...parseCacheFile(readFileSync(file))!.served]).toEqual(["check irv:iam:Group"]);
    }
  });
});

describe("the compile cache folder", () => {
  it("is $XDG_CACHE_HOME/pulumi-irv/compile-cache, made 0700, else under ~/.cache", () => {
    const xdg = scratch();
    expect(compileCacheDir({ XDG_CACHE_HOME: xdg })).toBe(path.join(xdg, "pulumi-irv", "compile-cache"));
    expect(statSync(path.join(xdg, "pulumi-irv")).mode & 0o777).toBe(0o700);
    const home = scratch();
    expect(compileCacheDir({ HOME: home })).toBe(path.join(home, ".cache", "pulumi-irv", "compile-cache"));
  });

  it("is not used when others may write to it or its parent, through a symbolic link, when relative, or when NODE_DISABLE_COMPILE_CACHE is set", () => {
    const open = scratch();
    mkdirSync(path.join(open, "pulumi-irv", "compile-cache"), { recursive: true, mode: 0o700 });
    chmodSync(path.join(open, "pulumi-irv", "compile-cache"), 0o777);
    expect(compileCacheDir({ XDG_CACHE_HOME: open })).toBeUndefined();

    const openParent = scratch();
    mkdirSync(path.join(openParent, "pulumi-irv", "compile-cache"), { recursive: true, mode: 0o700 });
    chmodSync(path.join(openParent, "pulumi-irv"), 0o775);
    expect(compileCacheDir({ XDG_CACHE_HOME: openParent })).toBeUndefined();

    const linked = scratch();
    const target = path.join(linked, "elsewhere");
    mkdirSync(target, { mode: 0o700 });
    mkdirSync(path.join(linked, "pulumi-irv"), { mode: 0o700 });
    symlinkSync(target, path.join(linked, "pulumi-irv", "compile-cache"));
    expect(compileCacheDir({ XDG_CACHE_HOME: linked })).toBeUndefined();

    expect(compileCacheDir({ XDG_CACHE_HOME: "relative/cache" })).toBeUndefined();
    expect(compileCacheDir({ XDG_CACHE_HOME: scratch(), NODE_DISABLE_COMPILE_CACHE: "1" })).toBeUndefined();
  });
});
