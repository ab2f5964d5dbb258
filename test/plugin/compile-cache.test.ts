import { execFileSync, spawn } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { compileCacheDir } from "../../client/compile-cache";
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
    expect(rejected(`require("fs").readFileSync(b.userCacheFile())`)).toBe("false");

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
