import { chmodSync, chownSync, mkdirSync, readdirSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { ensureBuilt, launch, stop, useDataDirs } from "../support/server-process";

// A data directory holds the signing key: whoever can write there can mint tokens after the next
// start. Every way it can be loose (the directory, the files in it, through a link, another
// user's) is tightened with a word on stderr, or refused. Before, a 0777 directory started
// silently and stayed 0777.

const dataDir = useDataDirs("irv-perm-");
const modeOf = (p: string) => statSync(p).mode & 0o777;

/** A directory that has held a server's data, stopped cleanly. */
async function used(): Promise<string> {
  ensureBuilt();
  const dir = dataDir();
  await stop(await launch(dir, ["--port", "0"]));
  return dir;
}

describe("a data directory others could write", () => {
  it("is tightened, directory and files alike, saying so", async () => {
    for (const [dirMode, fileMode] of [
      [0o777, 0o666],
      [0o750, 0o640],
    ]) {
      const dir = await used();
      chmodSync(dir, dirMode);
      for (const f of readdirSync(dir)) chmodSync(join(dir, f), fileMode);
      const p = await launch(dir, ["--port", "0"]);
      await stop(p);
      expect(modeOf(dir), dirMode.toString(8)).toBe(0o700);
      for (const f of readdirSync(dir)) expect(modeOf(join(dir, f)) & 0o077, f).toBe(0);
      expect(p.stderr()).toContain("tightened to 700");
      expect(p.stderr()).toContain("tightened to 600");
    }
  });

  it("is tightened when it is new and was made loose beforehand", async () => {
    ensureBuilt();
    const dir = dataDir();
    mkdirSync(dir, { mode: 0o777 });
    chmodSync(dir, 0o777);
    const p = await launch(dir, ["--port", "0"]);
    await stop(p);
    expect(modeOf(dir)).toBe(0o700);
    expect(p.stderr()).toMatch(/mode 777\): tightened to 700/);
  });

  it("is judged by what a link to it points at", async () => {
    const target = await used();
    chmodSync(target, 0o777);
    const link = join(dirname(target), "link");
    symlinkSync(target, link);
    const p = await launch(link, ["--port", "0"]);
    await stop(p);
    expect(modeOf(target)).toBe(0o700);
  });

  it("is refused when a file in it is a link, or another user owns it or a file in it", async () => {
    const withLink = await used();
    symlinkSync("/etc/hostname", join(withLink, "extra"));
    await expect(launch(withLink, ["--port", "0"])).rejects.toThrow(/extra is a symbolic link/);

    if (process.getuid?.() !== 0) return; // chown to another user needs root; CI runs as root.
    const foreign = await used();
    chownSync(foreign, 65534, 65534);
    await expect(launch(foreign, ["--port", "0"])).rejects.toThrow(/belongs to user 65534, not to this user/);
    const foreignFile = await used();
    writeFileSync(join(foreignFile, "planted"), "x");
    chownSync(join(foreignFile, "planted"), 65534, 65534);
    await expect(launch(foreignFile, ["--port", "0"])).rejects.toThrow(/planted belongs to user 65534/);
  });
});
