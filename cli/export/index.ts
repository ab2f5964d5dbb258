import { existsSync, readFileSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import * as path from "node:path";
import type { IrvClient } from "../../provider/client";
import { generateProgram, type GeneratedProgram, type GenerateOptions } from "./generate";
import { readOrg, type Progress } from "./read";
import { countsOf } from "./snapshot";

export { generateProgram, type GeneratedProgram, type GeneratedFile, type RequiredSecret } from "./generate";
export { readOrg, EXPORTED, type Progress } from "./read";
export { countsOf, type OrgSnapshot } from "./snapshot";

/** Options for `runExport`. */
export interface ExportOptions extends Partial<GenerateOptions> {
  /** The API client (endpoint and credentials already resolved). */
  client: IrvClient;
  /** The uid of the group whose subtree is exported. */
  groupUid: string;
  /** The folder to write the program into (created if missing). */
  outDir: string;
  /** Progress per collection while reading. */
  progress?: Progress;
}

/** The outcome of `irv export`. */
export interface ExportResult extends GeneratedProgram {
  outDir: string;
  /** Resources read per collection. */
  counts: Record<string, number>;
  durationMs: number;
}

/**
 * Reads the live subtree of `groupUid` and writes a TypeScript Pulumi program that adopts all of
 * it (`program.ts` exporting `program()`, `index.ts` calling it, `Pulumi.yaml`, `package.json`,
 * `tsconfig.json`, `README.md`) into `outDir`.
 */
export async function runExport(opts: ExportOptions): Promise<ExportResult> {
  const started = Date.now();
  const snapshot = await readOrg(opts.client, opts.groupUid, opts.progress);
  const generated = generateProgram(snapshot, {
    projectName: opts.projectName,
    groupConfigKey: opts.groupConfigKey,
    irvVersion: opts.irvVersion ?? `^${packageVersion("pulumi-irv")}`,
    pulumiVersion: opts.pulumiVersion ?? packageVersion("@pulumi/pulumi"),
  });
  await mkdir(opts.outDir, { recursive: true });
  for (const f of generated.files) await writeFile(path.join(opts.outDir, f.path), f.text);
  return { ...generated, outDir: opts.outDir, counts: countsOf(snapshot), durationMs: Date.now() - started };
}

/** The installed version of `pkg` (this package's own for `pulumi-irv`). */
function packageVersion(pkg: string): string {
  if (pkg !== "pulumi-irv") return (require(`${pkg}/package.json`) as { version: string }).version;
  // Walk up: this file runs from dist/cli/export when built and from cli/export under vitest.
  for (let dir = __dirname; dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const file = path.join(dir, "package.json");
    if (existsSync(file)) {
      const json = JSON.parse(readFileSync(file, "utf8")) as { name?: string; version: string };
      if (json.name === "pulumi-irv") return json.version;
    }
  }
  return "0.0.0";
}
